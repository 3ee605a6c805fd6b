"""Parameter sweeps: every case of a table run on Dask, failures reported as data.

    import tinkertoy
    table = tinkertoy.sweep("scenes/four_bar.json",
                            {"bodies[0].mass": [0.4, 0.5, 0.6]},       # one case per row
                            duration=2.0, every=10)
    table["energy_drift"], table["error"]

Each case is the scene with the row's values written at JSON paths into the scene's document
(the paths SceneError reports: "bodies[2].mass", "settings.dt", "constraints[0].motor_speed").
Or, with `edit` (a function document, row -> document), the document that edit makes of the
scene's for the row, whose columns are then any names edit understands.
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

import itertools
import json
import os
import re

import numpy as np

SUMMARY = ("error", "steps", "final_time", "energy_drift", "constraint_error")
TRAJECTORY = ("time", "q", "v")

_PATH = re.compile(r"[^.\[\]]+(\[\d+\])*(\.[^.\[\]]+(\[\d+\])*)*")
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def grid(**axes):
    """The Cartesian product of named value lists as a table: grid(a=[1, 2], b=[3]) gives
    {"a": [1, 2], "b": [3, 3]}. Keys that are not identifiers go in as grid(**{"settings.dt": [...]})."""
    names = list(axes)
    rows = list(itertools.product(*(axes[name] for name in names)))
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


def run_case(scene_text, row, duration=None, every=1, edit=None):
    """Runs one case and returns its row of results (see the module's documentation). Never
    raises for what the case itself gets wrong: that is the row's "error"."""
    import tinkertoy

    result = {"error": "", "steps": 0, "final_time": np.nan, "energy_drift": np.nan, "constraint_error": np.nan,
              "time": np.empty(0), "q": np.empty((0, 0)), "v": np.empty((0, 0))}
    try:
        document = json.loads(scene_text)
        if edit is None:
            for path, value in row.items():
                set_path(document, path, _plain(value))
        else:
            document = edit(document, {name: _plain(value) for name, value in row.items()})
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


def _plain(value):
    """A NumPy scalar or array as the JSON value it stands for."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def _rows(parameters):
    """The cases of a table: a dict of equal-length columns, a list of dicts, or a DataFrame."""
    if hasattr(parameters, "to_dict") and hasattr(parameters, "columns"):
        return parameters.to_dict("records")
    if isinstance(parameters, dict):
        lengths = {name: len(values) for name, values in parameters.items()}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"sweep: the parameter columns differ in length: {lengths}")
        count = next(iter(lengths.values()), 0)
        return [{name: parameters[name][i] for name in parameters} for i in range(count)]
    rows = list(parameters)
    if not all(isinstance(row, dict) for row in rows):
        raise ValueError("sweep: parameters must be a dict of columns, a list of dicts or a DataFrame")
    return rows


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
    Scene. A case that fails is reported in its row; only a bad call raises (ValueError)."""
    if every < 1:
        raise ValueError(f"sweep: every must be at least 1, not {every}")
    if duration is not None and not (duration >= 0 and np.isfinite(duration)):
        raise ValueError(f"sweep: duration must be finite and >= 0, not {duration}")
    text = _scene_text(scene)
    rows = _rows(parameters)
    if scheduler == "serial":
        results = [run_case(text, row, duration, every, edit) for row in rows]
        return _table(rows, results)

    from dask.distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        return _table(rows, _gather(scheduler, text, rows, duration, every, edit))
    if scheduler is None:
        if workers < 1:
            raise ValueError(f"sweep: workers must be at least 1, not {workers}")
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                return _table(rows, _gather(client, text, rows, duration, every, edit))
    with Client(scheduler) as client:
        return _table(rows, _gather(client, text, rows, duration, every, edit))


def _gather(client, text, rows, duration, every, edit):
    scene_future = client.scatter(text, broadcast=True)
    futures = [client.submit(run_case, scene_future, row, duration, every, edit, pure=False) for row in rows]
    return client.gather(futures)
