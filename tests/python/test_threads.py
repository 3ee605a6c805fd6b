"""Threads: a call on a model or simulator in use on another thread waits for it (model_lock.hpp).

step() and run() release the GIL while they step; without the model's lock another thread could
step the same simulator at the same time (losing steps) or add a body under a running step
(freeing the state it writes: a crash in glibc)."""

import threading
import time

import numpy as np
import pytest

import tinkertoy
from conftest import ticking


def run_threads(target, count):
    threads = [threading.Thread(target=target) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_four_threads_stepping_one_simulator_take_every_step(scenes, pendulum):
    sim = tinkertoy.Simulator(pendulum)
    errors = []

    def step_3000():
        try:
            for _ in range(3000):
                sim.step()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    run_threads(step_3000, 4)
    assert errors == []
    assert sim.step_count == 12000
    # The same 12000 additions of dt as one thread makes, so the same bits.
    serial = tinkertoy.Simulator(tinkertoy.load_scene(scenes / "pendulum.json"))
    serial.run(12.0)
    assert serial.step_count == 12000
    assert sim.time == serial.time == pytest.approx(12.0, abs=1e-9)


def long_run(scene, seconds):
    """Runs `scene` for `seconds` on a thread, returning once the run is stepping; returns the
    simulator, the thread and the run's (start, end) times."""
    sim = tinkertoy.Simulator(scene)
    q = sim.q  # reads the engine's memory without the lock: it shows the run under way
    before = q.copy()
    span = {}

    def run():
        span["start"] = time.perf_counter()
        sim.run(seconds)
        span["end"] = time.perf_counter()

    thread = threading.Thread(target=run)
    thread.start()
    while np.array_equal(q.view(np.ndarray), before) and thread.is_alive():
        time.sleep(0.001)
    return sim, thread, span


def test_adding_and_removing_bodies_during_a_run_waits_for_the_run_and_succeeds(scenes):
    scene = tinkertoy.load_scene(scenes / "cloth.json")
    model = scene.model
    bodies_before = len(model.bodies)
    sim, thread, span = long_run(scene, 400 * scene.settings.dt)
    added = model.add_particle(1.0, [0.0, 0.0, 0.0])  # this thread holds the GIL, and waits without it
    added_at = time.perf_counter()
    model.remove_body(added)
    thread.join()
    assert "end" in span and added_at >= span["end"]
    assert len(model.bodies) == bodies_before
    assert sim.step_count == 400
    assert np.all(np.isfinite(model.q))


@pytest.mark.parametrize(
    "call",
    [
        lambda sim, scene: scene.model.add_gravity([0.0, -1.0, 0.0]),
        lambda sim, scene: scene.model.set_coordinates(scene.model.bodies[0], [0.0, 0.0, 0.0]),
        lambda sim, scene: scene.model.remove_constraint(scene.model.constraints[0]),
        lambda sim, scene: sim.step(),
        lambda sim, scene: sim.q,
        lambda sim, scene: sim.save_state(),
        lambda sim, scene: scene.write(),
        lambda sim, scene: scene.copy(),
    ],
)
def test_every_call_on_a_model_in_use_waits_for_the_run(scenes, call):
    scene = tinkertoy.load_scene(scenes / "cloth.json")
    sim, thread, span = long_run(scene, 400 * scene.settings.dt)
    call(sim, scene)
    returned_at = time.perf_counter()
    thread.join()
    assert returned_at >= span["end"]


def test_a_thread_waiting_for_a_model_lets_other_threads_run(scenes):
    # The waiting thread releases the GIL: a third thread keeps ticking meanwhile.
    scene = tinkertoy.load_scene(scenes / "cloth.json")
    with ticking() as ticks:
        sim, thread, span = long_run(scene, 400 * scene.settings.dt)
        waiting_from = time.perf_counter()
        scene.model.add_gravity([0.0, -1.0, 0.0])
        waiting_to = time.perf_counter()
    thread.join()
    assert waiting_to - waiting_from > 0.05, "the run was too short to tell"
    assert len([t for t in ticks if waiting_from < t < waiting_to]) >= 5


def test_simulators_of_different_scenes_step_at_the_same_time(scenes):
    # Each model has its own lock: two runs overlap in time.
    spans = []

    def run():
        scene = tinkertoy.load_scene(scenes / "cloth.json")
        sim = tinkertoy.Simulator(scene)
        start = time.perf_counter()
        sim.run(200 * scene.settings.dt)
        spans.append((start, time.perf_counter()))

    run_threads(run, 2)
    (start_a, end_a), (start_b, end_b) = sorted(spans)
    assert start_b < end_a


def test_a_call_that_raises_leaves_the_model_free_for_other_threads(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    with pytest.raises(ValueError):
        pendulum.model.add_particle(-1.0, [0.0, 0.0])
    with pytest.raises(ValueError):
        sim.run(-1.0)
    other = threading.Thread(target=sim.step)
    other.start()
    other.join(timeout=10)
    assert not other.is_alive() and sim.step_count == 1
