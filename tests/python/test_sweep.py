"""tinkertoy.sweep: every case run, on Dask or serially, the same bits either way, failures as data."""

import json
import subprocess
import sys
import time

import numpy as np
import pytest

import tinkertoy
from tinkertoy.sweep import set_path


def pendulum_cases():
    # Four initial speeds of the bob and a case with a bad mass.
    return {"particles[0].velocity": [[0, 0], [0, 1], [0, 2], [0, 3], [0, 0]],
            "particles[0].mass": [1.0, 1.0, 1.0, 1.0, -2.0]}


def test_a_sweep_on_two_workers_equals_the_serial_sweep_bit_for_bit(scenes):
    scene = scenes / "pendulum.json"
    cases = pendulum_cases()
    serial = tinkertoy.sweep(scene, cases, duration=0.5, every=50, scheduler="serial")
    parallel = tinkertoy.sweep(scene, cases, duration=0.5, every=50, workers=2)
    for name in ("steps", "final_time", "energy_drift", "constraint_error"):
        assert serial[name].tobytes() == parallel[name].tobytes(), name
    for name in ("time", "q", "v"):
        for a, b in zip(serial[name], parallel[name]):
            assert a.tobytes() == b.tobytes(), name
    assert list(serial["error"]) == list(parallel["error"])


def test_a_failing_case_is_reported_in_its_row_and_the_others_complete(scenes):
    table = tinkertoy.sweep(scenes / "pendulum.json", pendulum_cases(), duration=0.5, every=50, scheduler="serial")
    errors = list(table["error"])
    assert errors[:4] == ["", "", "", ""]
    assert "SceneError" in errors[4] and "particles[0].mass" in errors[4]
    assert np.isnan(table["energy_drift"][4])
    assert np.all(table["steps"][:4] == 500)
    # Each case keeps its rod (projection) and its energy (RK4).
    assert np.all(table["constraint_error"][:4] < 1e-9)
    assert np.all(table["energy_drift"][:4] < 1e-6)
    # The faster the start, the farther the bob has gone.
    assert len({q[-1].tobytes() for q in table["q"][:4]}) == 4


def test_a_blow_up_is_a_row_with_its_trajectory_so_far(scenes):
    cases = {"settings.dt": [1e-3, 10.0]}  # steps of 10 s tear the rod apart
    table = tinkertoy.sweep(scenes / "pendulum.json", cases, duration=20.0, every=1000, scheduler="serial")
    assert table["error"][0] == ""
    assert table["error"][1].startswith("SimulationError: simulation blew up at step 1")
    assert table["q"][1].shape == (1, 2)  # the start only: step 1 already ran away
    assert np.all(np.isfinite(table["q"][1]))


def test_a_path_that_is_not_in_the_scene_is_a_failing_case(scenes):
    table = tinkertoy.sweep(scenes / "pendulum.json", {"particles[7].mass": [1.0]}, duration=0.01, scheduler="serial")
    assert "particles[7].mass" in table["error"][0]


def test_an_edit_function_changes_each_case(scenes):
    def shorten(document, row):
        document["constraints"][0]["length"] = row["length"]
        document["particles"][0]["position"] = [row["length"], 0]
        return document

    table = tinkertoy.sweep(scenes / "pendulum.json", {"length": [0.5, 1.0]}, duration=0.1, every=100,
                            edit=shorten, scheduler="serial")
    assert list(table["error"]) == ["", ""]
    assert np.linalg.norm(table["q"][0][-1]) == pytest.approx(0.5, abs=1e-9)
    assert np.linalg.norm(table["q"][1][-1]) == pytest.approx(1.0, abs=1e-9)


def test_grid_is_the_cartesian_product():
    assert tinkertoy.grid(a=[1, 2], b=[3, 4]) == {"a": [1, 1, 2, 2], "b": [3, 4, 3, 4]}


def test_set_path_follows_the_paths_scene_errors_report():
    document = {"bodies": [{"mass": 1}, {"shape": {"size": [1, 2]}}], "settings": {}}
    set_path(document, "bodies[1].shape.size[0]", 5)
    set_path(document, "settings.dt", 0.01)
    assert document["bodies"][1]["shape"]["size"] == [5, 2] and document["settings"]["dt"] == 0.01
    for bad in ("bodies[9].mass", "settings.solver.kind", "bodies..mass", "[0]"):
        with pytest.raises((KeyError, IndexError)):
            set_path(document, bad, 1)


@pytest.mark.parametrize("arguments", [{"every": 0}, {"duration": -1.0}, {"duration": float("nan")}])
def test_a_bad_call_raises_value_error(scenes, arguments):
    with pytest.raises(ValueError):
        tinkertoy.sweep(scenes / "pendulum.json", {"settings.dt": [1e-3]}, scheduler="serial", **arguments)


def test_columns_of_different_lengths_are_refused(scenes):
    with pytest.raises(ValueError, match="length"):
        tinkertoy.sweep(scenes / "pendulum.json", {"a": [1], "b": [1, 2]}, scheduler="serial")


def test_the_scene_can_be_a_scene_object_or_a_document(scenes):
    scene = tinkertoy.load_scene(scenes / "pendulum.json")
    document = json.loads((scenes / "pendulum.json").read_text())
    a = tinkertoy.sweep(scene, {"settings.dt": [1e-3]}, duration=0.05, scheduler="serial")
    b = tinkertoy.sweep(document, {"settings.dt": [1e-3]}, duration=0.05, scheduler="serial")
    assert a["q"][0].tobytes() == b["q"][0].tobytes()


@pytest.mark.parametrize(
    "path, suggestion",
    [("particles[0].masss", "did you mean 'mass'?"), ("settings.substep", "did you mean 'substeps'?")],
)
def test_a_path_the_scene_format_does_not_have_is_refused_before_any_case_runs(scenes, path, suggestion):
    with pytest.raises(ValueError) as caught:
        tinkertoy.sweep(scenes / "pendulum.json", {path: [1.0, 2.0]}, duration=0.01, scheduler="serial")
    assert str(caught.value) == f"{path}: unknown field; {suggestion}"


def test_a_scene_error_says_whether_its_path_is_an_unknown_field(scenes):
    document = json.loads((scenes / "pendulum.json").read_text())
    document["particles"][0]["masss"] = 1.0
    with pytest.raises(tinkertoy.SceneError) as caught:
        tinkertoy.parse_scene(json.dumps(document))
    assert caught.value.unknown_field and caught.value.path == "particles[0].masss"
    document["particles"][0] = {"id": "bob", "mass": -1.0, "position": [1, 0]}
    with pytest.raises(tinkertoy.SceneError) as caught:
        tinkertoy.parse_scene(json.dumps(document))
    assert not caught.value.unknown_field


def test_known_paths_with_bad_values_and_edit_columns_are_still_the_cases_errors(scenes):
    table = tinkertoy.sweep(scenes / "pendulum.json", {"particles[0].mass": [-1.0]}, duration=0.01, scheduler="serial")
    assert "must be positive" in table["error"][0]
    table = tinkertoy.sweep(scenes / "pendulum.json", {"masss": [1.0]}, duration=0.01, scheduler="serial",
                            edit=lambda document, row: document)
    assert list(table["error"]) == [""]


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def test_two_sweeps_on_one_client_both_complete(scenes, client):
    cases = {"settings.dt": [1e-3, 2e-3]}
    first = tinkertoy.sweep(scenes / "pendulum.json", cases, duration=0.05, scheduler=client)
    second = tinkertoy.sweep(scenes / "pendulum.json", cases, duration=0.05, scheduler=client)
    assert list(first["error"]) == list(second["error"]) == ["", ""]
    assert first["q"][1].tobytes() == second["q"][1].tobytes()


def test_an_edit_that_cannot_be_pickled_is_every_cases_error(scenes, client):
    import threading

    lock = threading.Lock()

    def holds_a_lock(document, row):
        with lock:
            return document

    table = tinkertoy.sweep(scenes / "pendulum.json", {"length": [1.0, 2.0]}, duration=0.01, edit=holds_a_lock,
                            scheduler=client)
    for error in table["error"]:
        assert "edit" in error and "cannot be sent to the workers" in error and "lock" in error


def test_an_edit_a_worker_cannot_import_is_every_cases_error(scenes):
    # A function of a module only this process has: pickled by name, the worker cannot load it.
    import sys
    import types

    module = types.ModuleType("tinkertoy_test_phantom_edits")
    exec("def shorten(document, row):\n    return document\n", module.__dict__)
    sys.modules[module.__name__] = module
    try:
        table = tinkertoy.sweep(scenes / "pendulum.json", {"length": [1.0, 2.0]}, duration=0.01,
                                edit=module.shorten, workers=1)
    finally:
        del sys.modules[module.__name__]
    for error in table["error"]:
        assert "edit: the function could not be loaded on this worker" in error
        assert "tinkertoy_test_phantom_edits" in error


SCRIPT_WITHOUT_GUARD = """
import tinkertoy
table = tinkertoy.sweep({scene!r}, {{"settings.dt": [1e-3, 2e-3]}}, duration=0.01, workers=1)
print("finished", list(table["error"]))
"""


def run_script(tmp_path, text, timeout=120):
    script = tmp_path / "sweep_script.py"
    script.write_text(text)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=timeout,
                            cwd=tmp_path)
    return result, time.perf_counter() - start


def test_a_script_without_the_main_guard_fails_fast_with_the_guard_in_its_message(scenes, tmp_path):
    result, seconds = run_script(tmp_path, SCRIPT_WITHOUT_GUARD.format(scene=str(scenes / "pendulum.json")))
    assert result.returncode != 0 and seconds < 30
    assert 'if __name__ == "__main__":' in result.stderr
    assert "RuntimeError" in result.stderr and "finished" not in result.stdout


def test_a_script_with_the_main_guard_sweeps(scenes, tmp_path):
    guarded = SCRIPT_WITHOUT_GUARD.replace("\ntable =", "\nif __name__ == '__main__':\n    table =").replace(
        "\nprint(", "\n    print(")
    result, _ = run_script(tmp_path, guarded.format(scene=str(scenes / "pendulum.json")))
    assert result.returncode == 0, result.stderr
    assert "finished ['', '']" in result.stdout


def test_a_sweep_run_by_a_spawned_process_importing_the_script_is_refused(scenes, tmp_path):
    # A serial sweep at the top level is fine in the main process; a process started with spawn
    # imports the script again, and its sweep there is refused with the guard in the message.
    text = f"""
import multiprocessing
import tinkertoy
tinkertoy.sweep({str(scenes / "pendulum.json")!r}, {{"settings.dt": [1e-3]}}, duration=0.01, scheduler="serial")
if __name__ == "__main__":
    child = multiprocessing.get_context("spawn").Process(target=print, args=("child ran",))
    child.start()
    child.join()
    print("child exit code", child.exitcode)
"""
    result, seconds = run_script(tmp_path, text)
    assert result.returncode == 0 and seconds < 30
    assert "child exit code 1" in result.stdout and "child ran" not in result.stdout
    assert 'if __name__ == "__main__":' in result.stderr
