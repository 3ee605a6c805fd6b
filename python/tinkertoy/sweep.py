"""Parameter sweeps: every case of a table run on Dask, failures reported as data.

    import tinkertoy
    if __name__ == "__main__":      # needed in a script: each worker process imports it again
        table = tinkertoy.sweep("scenes/four_bar.json",
                                {"bodies[0].mass": [0.4, 0.5, 0.6]},   # one case per row
                                duration=2.0, every=10)
        table["energy_drift"], table["error"]

Each case is the scene with the row's values written at JSON paths into the scene's document
(the paths SceneError reports: "bodies[2].mass", "settings.dt", "constraints[0].motor_speed").
A path the scene format does not have (particles[0].masss) is a ValueError before any case runs,
as the command line's `sweep --set` refuses it. Or, with `edit` (a function document, row ->
document), the document that edit makes of the scene's for the row, whose columns are then any
names edit understands; edit travels to the workers pickled (cloudpickle), and an edit that
cannot be pickled, or loaded on a worker, is every case's error.
It runs for `duration` (default: the scene's) in a fresh simulator, on one thread, so every case
gives the same bits wherever it runs: serially, on a LocalCluster, or on a cluster elsewhere.

The result is a table with one row per case: the parameter columns, then
    error             "" or what went wrong (a bad parameter, a bad scene, a blow-up)
    steps             the steps the case took
    final_time        s
    energy_drift      max |E(t) - E(0)| over the recorded rows, J
    constraint_error  max ||C||_inf over the recorded rows
    time, q, v        the recorded trajectory (arrays; rows every `every` steps and the last)
as a pandas DataFrame if pandas is installed, else a dict of NumPy arrays (one entry per case;
the trajectory columns hold an array each).

Where the cases run:
    scheduler=None              a LocalCluster of `workers` processes on this machine, started
                                and closed by the call
    scheduler="tcp://host:8786" an existing Dask cluster (`dask scheduler`, `dask worker ...`;
                                the workers need this package importable)
    scheduler=client            an existing dask.distributed.Client
    scheduler="serial"          in this process, one after the other, without Dask
"""

import ast
import copy
import itertools
import json
import math
import multiprocessing
import numbers
import os
import re
import sys

import numpy as np

# The most cases a sweep or a grid takes: a table of results holds a trajectory per case, and a
# typo in a grid (an axis of 10**4 values where 10 were meant) should be an error, not a week.
MAX_CASES = 1_000_000

SUMMARY = ("error", "steps", "final_time", "energy_drift", "constraint_error")
TRAJECTORY = ("time", "q", "v")

_PATH = re.compile(r"[^.\[\]]+(\[\d+\])*(\.[^.\[\]]+(\[\d+\])*)*")
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def grid(**axes):
    """The Cartesian product of named value lists as a table: grid(a=[1, 2], b=[3]) gives
    {"a": [1, 2], "b": [3, 3]}. Keys that are not identifiers go in as grid(**{"settings.dt": [...]})."""
    names = list(axes)
    values = {}
    for name in names:
        try:
            values[name] = list(axes[name])
        except TypeError:
            raise TypeError(f"grid: {name} must be a list of values, not {type(axes[name]).__name__}") from None
    _require_case_count(math.prod(len(v) for v in values.values()) if names else 0, "grid")
    rows = list(itertools.product(*(values[name] for name in names)))
    return {name: [row[i] for row in rows] for i, name in enumerate(names)}


def set_path(document, path, value):
    """Sets the value at a JSON path ("bodies[2].mass") of a scene document. Raises KeyError or
    IndexError naming the path if a step of it is not in the document (the last key of an object
    is added if missing)."""
    if not _PATH.fullmatch(path):
        raise KeyError(f"{path!r} is not a JSON path such as 'bodies[2].mass'")
    steps = [m.group(1) if m.group(1) is not None else int(m.group(2)) for m in _STEP.finditer(path)]
    node = document
    for depth, step in enumerate(steps):
        last = depth == len(steps) - 1
        if isinstance(step, str):
            if not isinstance(node, dict) or (not last and step not in node):
                raise KeyError(f"{path}: the scene has no {step!r} there")
        elif not isinstance(node, list) or step >= len(node):
            raise IndexError(f"{path}: the scene has no element [{step}] there")
        if last:
            node[step] = value
        else:
            node = node[step]


def _failed(error):
    """The row of a case that has no results, only `error`."""
    return {"error": error, "steps": 0, "final_time": np.nan, "energy_drift": np.nan, "constraint_error": np.nan,
            "time": np.empty(0), "q": np.empty((0, 0)), "v": np.empty((0, 0))}


def run_case(scene_text, row, duration=None, every=1, edit=None):
    """Runs one case and returns its row of results (see the module's documentation). Never
    raises for what the case itself gets wrong: that is the row's "error". `edit` is a function,
    or one pickled with cloudpickle (as sweep sends it to the workers)."""
    import tinkertoy

    result = _failed("")
    try:
        document = json.loads(scene_text)
        if edit is None:
            for path, value in row.items():
                set_path(document, path, _plain(value))
        else:
            document = _loaded(edit)(document, {name: _plain(value) for name, value in row.items()})
        scene = tinkertoy.parse_scene(json.dumps(document), source="case")
        scene.settings.threads = 1
        simulator = tinkertoy.Simulator(scene)
        trajectory = simulator.run(scene.duration if duration is None else duration, every=every)
    except tinkertoy.SimulationError as e:
        result["error"] = f"SimulationError: {e}"
        trajectory = e.trajectory
        simulator = None
    except Exception as e:  # noqa: BLE001 - a failing case is data, whatever failed
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    energy = trajectory["kinetic_energy"] + trajectory["potential_energy"]
    result.update(
        steps=simulator.step_count if simulator is not None else len(trajectory["time"]) - 1,
        final_time=float(trajectory["time"][-1]),
        energy_drift=float(np.max(np.abs(energy - energy[0]))),
        constraint_error=float(np.max(trajectory["constraint_error"])),
        time=trajectory["time"],
        q=trajectory["q"],
        v=trajectory["v"],
    )
    return result


def _loaded(edit):
    """The edit function, unpickled if it came pickled; a ValueError that says what to do if it
    cannot be loaded here (a function of a module this worker cannot import)."""
    if not isinstance(edit, bytes):
        return edit
    import cloudpickle

    try:
        return cloudpickle.loads(edit)
    except Exception as e:  # noqa: BLE001 - whatever unpickling raised, the case says so
        raise ValueError(f"edit: the function could not be loaded on this worker ({type(e).__name__}: {e}); "
                         "define it in a module the workers can import, or in the script itself") from None


def _pickled(edit):
    """(edit pickled for the workers, "") or (None, why it cannot be)."""
    import cloudpickle

    try:
        return cloudpickle.dumps(edit), ""
    except Exception as e:  # noqa: BLE001 - whatever pickling raised, every case says so
        return None, (f"edit: {edit!r} cannot be sent to the workers: pickling it failed "
                      f"({type(e).__name__}: {e}); use a function that does not hold such objects")


def _plain(value):
    """A NumPy scalar or array as the JSON value it stands for."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def _require_case_count(count, caller):
    """Raises ValueError, before anything is built, if a table of `count` cases is beyond MAX_CASES."""
    if count > MAX_CASES:
        raise ValueError(f"{caller}: {count} cases is more than the {MAX_CASES} a sweep takes; split it "
                         "(tinkertoy sweep --shard on the command line) or use fewer values")


_WRONG_TABLE = "sweep: parameters must be a dict of columns, a list of dicts or a DataFrame, not "


def _rows(parameters):
    """The cases of a table: a dict of equal-length columns, a list of dicts, or a DataFrame."""
    if hasattr(parameters, "to_dict") and hasattr(parameters, "columns"):
        _require_case_count(len(parameters), "sweep")
        rows = parameters.to_dict("records")
    elif isinstance(parameters, dict):
        lengths = {}
        for name, values in parameters.items():
            if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
                raise TypeError(f"sweep: parameters[{name!r}] must be a list of values, not {type(values).__name__}")
            lengths[name] = len(values)
        if len(set(lengths.values())) > 1:
            raise ValueError(f"sweep: the parameter columns differ in length: {lengths}")
        count = next(iter(lengths.values()), 0)
        _require_case_count(count, "sweep")
        rows = [{name: parameters[name][i] for name in parameters} for i in range(count)]
    elif isinstance(parameters, (list, tuple)):
        _require_case_count(len(parameters), "sweep")
        rows = list(parameters)
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise TypeError(f"sweep: parameters[{i}] must be a dict (a row), not {type(row).__name__}")
    else:
        raise TypeError(_WRONG_TABLE + type(parameters).__name__)
    for i, row in enumerate(rows):
        for name, value in row.items():
            if not _finite(value):
                raise ValueError(f"sweep: parameters[{name!r}] holds {value!r} (case {i}); a parameter must be "
                                 "finite: NaN and infinity have no place in a scene file")
    return rows


def _finite(value):
    """Whether no number in `value` (a number, or lists, tuples, arrays and dicts of them) is NaN
    or infinite."""
    if isinstance(value, (bool, str, bytes)) or value is None:
        return True
    if isinstance(value, numbers.Real):
        return math.isfinite(value)
    if isinstance(value, np.ndarray):
        return all(_finite(x) for x in value.tolist()) if value.dtype.kind in "fcO" else True
    if isinstance(value, dict):
        return all(_finite(x) for x in value.values())
    if isinstance(value, (list, tuple)):
        return all(_finite(x) for x in value)
    return True


def _check_arguments(duration, every, edit, scheduler, workers):
    """TypeError or ValueError naming the argument of a bad call, before anything runs."""
    if isinstance(every, bool) or not isinstance(every, numbers.Integral):
        raise TypeError(f"sweep: every must be an int, not {type(every).__name__}")
    if every < 1:
        raise ValueError(f"sweep: every must be at least 1, not {every}")
    if duration is not None:
        if isinstance(duration, bool) or not isinstance(duration, numbers.Real):
            raise TypeError(f"sweep: duration must be a number of seconds or None, not {type(duration).__name__}")
        if not (math.isfinite(duration) and duration >= 0):
            raise ValueError(f"sweep: duration must be finite and >= 0, not {duration}")
    if edit is not None and not callable(edit):
        raise TypeError(f"sweep: edit must be a function (document, row) -> document or None, not {type(edit).__name__}")
    if scheduler is None:
        if isinstance(workers, bool) or not isinstance(workers, numbers.Integral):
            raise TypeError(f"sweep: workers must be an int, not {type(workers).__name__}")
        if workers < 1:
            raise ValueError(f"sweep: workers must be at least 1, not {workers}")


def _scene_text(scene):
    import tinkertoy

    if isinstance(scene, tinkertoy.Scene):
        return scene.write()
    if isinstance(scene, dict):
        return json.dumps(scene)
    if isinstance(scene, (str, os.PathLike)) and not str(scene).lstrip().startswith("{"):
        with open(scene, encoding="utf-8") as file:
            return file.read()
    return str(scene)


def _table(rows, results):
    columns = {}
    names = list(dict.fromkeys(name for row in rows for name in row))
    for name in names:
        columns[name] = np.array([row.get(name) for row in rows])
    for name in SUMMARY + TRAJECTORY:
        if name in TRAJECTORY or name == "error":
            column = np.empty(len(results), dtype=object)
            column[:] = [r[name] for r in results]
        else:
            column = np.array([r[name] for r in results])
        columns[name] = column
    try:
        import pandas
    except ImportError:
        return columns
    return pandas.DataFrame(columns)


def sweep(scene, parameters, *, duration=None, every=1, edit=None, scheduler=None, workers=2):
    """Runs every case of `parameters` on `scene` and returns the table of results (see the
    module's documentation). `scene`: a path, scene JSON text, a parsed document (dict) or a
    Scene. A case that fails is reported in its row; only a bad call raises (ValueError; a
    RuntimeError when a script without `if __name__ == "__main__":` calls it in a worker):
    arguments of the wrong type are a TypeError and bad values (every < 1, a duration that is not
    finite and >= 0, NaN or infinity among the parameters, more than MAX_CASES cases) a
    ValueError, each naming the argument, before any case runs."""
    _refuse_worker_import()
    _check_arguments(duration, every, edit, scheduler, workers)
    rows = _rows(parameters)
    text = _scene_text(scene)
    if edit is None:
        _require_known_fields(text, rows)
    if scheduler == "serial":
        results = [run_case(text, row, duration, every, edit) for row in rows]
        return _table(rows, results)
    if edit is not None:
        edit, problem = _pickled(edit)
        if problem:
            return _table(rows, [_failed(problem) for _ in rows])

    from dask.distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        return _table(rows, _gather(scheduler, text, rows, duration, every, edit))
    if scheduler is None:
        _refuse_unguarded_script()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                return _table(rows, _gather(client, text, rows, duration, every, edit))
    with Client(scheduler) as client:
        return _table(rows, _gather(client, text, rows, duration, every, edit))


def _gather(client, text, rows, duration, every, edit):
    # hash=False: a key of this call's own. With the text's hash as key, a second sweep of the
    # same scene on the same client reuses the key, which the first call's end releases.
    scene_future = client.scatter(text, broadcast=True, hash=False)
    futures = [client.submit(run_case, scene_future, row, duration, every, edit, pure=False) for row in rows]
    results = []
    for future in futures:
        try:
            results.append(future.result())
        except Exception as e:  # noqa: BLE001 - a case that could not run on its worker is data too
            results.append(_failed(f"{type(e).__name__}: {e}"))
    return results


def _require_known_fields(text, rows):
    """Raises ValueError naming a column whose path is a field the scene format does not have
    (particles[0].masss: unknown field; did you mean 'mass'?), as the command line's sweep does:
    the scene with the column's first value set must not fail with an unknown field at that very
    path. Every other failure is the cases' to report."""
    import tinkertoy

    try:
        document = json.loads(text)
    except ValueError:
        return  # a scene that does not parse: every case reports it
    for path in dict.fromkeys(name for row in rows for name in row):
        first = next(row[path] for row in rows if path in row)
        probe = copy.deepcopy(document)
        try:
            set_path(probe, path, _plain(first))
            tinkertoy.parse_scene(json.dumps(probe), source="")
        except tinkertoy.SceneError as e:
            if e.unknown_field and e.path == path:
                raise ValueError(f"{path}: {e.reason}") from None
        except Exception:  # noqa: BLE001,S112 - the cases report whatever else is wrong
            continue


_GUARD = (
    "tinkertoy.sweep on a LocalCluster (scheduler=None) was called from the main script outside "
    "`if __name__ == \"__main__\":`. Each worker process the cluster starts imports the script again, "
    "so without that guard every worker would start a sweep (and a cluster) of its own, forever. Put the "
    "sweep under\n\n    if __name__ == \"__main__\":\n        table = tinkertoy.sweep(...)\n"
)


def _refuse_worker_import():
    """Raises RuntimeError if this process is a child that multiprocessing started (as a
    LocalCluster starts its workers) and the call comes from its import of the parent's main
    script (run as "__mp_main__"): the script lacks its `if __name__ == "__main__":` guard."""
    if multiprocessing.current_process().name == "MainProcess":  # (parent_process() is set after the import)
        return
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__mp_main__":
            raise RuntimeError(_GUARD)
        frame = frame.f_back


def _refuse_unguarded_script():
    """Raises RuntimeError, before any worker starts, if the call comes from the top level of the
    main script (directly or through functions it calls there) outside an
    `if __name__ == "__main__":` block: the workers would run it again on import (see
    _refuse_worker_import, which is what they would meet), and Dask would restart them forever.
    Read from the script's source; a session without a script file (an interpreter, a notebook,
    python -c) is not checked."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if not path:
        return
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_code.co_name == "<module>" and frame.f_globals is vars(main)):
        frame = frame.f_back
    if frame is None or os.path.abspath(frame.f_code.co_filename) != os.path.abspath(path):
        return  # not while the script's top level runs (a callback after it, another thread, a notebook's cell)
    try:
        with open(path, encoding="utf-8") as file:
            statements = ast.parse(file.read()).body
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return
    if not _under_main_guard(statements, frame.f_lineno):
        raise RuntimeError(_GUARD)


def _under_main_guard(statements, line):
    """Whether `line` lies in the body of an `if __name__ == "__main__":` among `statements` (at
    any depth of if, with, try and loops)."""
    for statement in statements:
        if not statement.lineno <= line <= (statement.end_lineno or statement.lineno):
            continue
        if isinstance(statement, ast.If) and _is_main_test(statement.test):
            if any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in statement.body):
                return True
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and _under_main_guard(inner, line):
                return True
    return False


def _is_main_test(test):
    """Whether an if's test is __name__ == "__main__" (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [side.id for side in sides if isinstance(side, ast.Name)]
    texts = [side.value for side in sides if isinstance(side, ast.Constant)]
    return names == ["__name__"] and texts == ["__main__"]
