"""tinkertoy.sweep: every case run, on Dask or serially, the same bits either way, failures as data."""

import json

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
