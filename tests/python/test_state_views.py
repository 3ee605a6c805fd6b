"""Simulator.q and .v: writable views of the engine's own storage, guarded against layout edits."""

import numpy as np
import pytest

import tinkertoy


def test_a_view_reads_the_engines_state_without_copying(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    for _ in range(10):
        sim.step()
    # The same memory: the view made before the steps shows the state after them.
    np.testing.assert_array_equal(np.array(q), pendulum.model.q)
    assert q.ctypes.data == sim.q.ctypes.data


def test_a_write_through_a_view_moves_the_model_as_an_edit_would(scenes):
    viewed = tinkertoy.load_scene(scenes / "double_pendulum.json")
    edited = tinkertoy.load_scene(scenes / "double_pendulum.json")
    sim_viewed, sim_edited = tinkertoy.Simulator(viewed), tinkertoy.Simulator(edited)
    for sim in (sim_viewed, sim_edited):
        for _ in range(100):
            sim.step()
    # Give the second particle a kick: once through the view, once through the model's setter.
    kick = np.array([0.0, 0.5])
    p2_viewed = viewed.model.find_body("p2")
    sim_viewed.body_v(p2_viewed)[:] += kick
    p2_edited = edited.model.find_body("p2")
    edited.model.set_velocity(p2_edited, edited.model.velocities(p2_edited) + kick)
    for sim in (sim_viewed, sim_edited):
        for _ in range(200):
            sim.step()
    assert np.array_equal(viewed.model.q, edited.model.q)
    assert np.array_equal(viewed.model.v, edited.model.v)


def test_a_write_through_a_view_counts_as_an_edit_for_what_the_simulator_derived(scenes):
    # dopri5 carries its step size and its last stage (the derivative at the state it left)
    # from step to step. After a write through a view, the steps must be those of a fresh
    # simulator started from the written state; reusing the stale stage would be off by O(1).
    scene = tinkertoy.load_scene(scenes / "pendulum.json")
    scene.settings.integrator = "dopri5"
    sim = tinkertoy.Simulator(scene)
    for _ in range(50):
        sim.step()
    sim.q[:] = [0.0, -1.0]
    sim.v[:] = [1.0, 0.0]
    for _ in range(50):
        sim.step()

    fresh = tinkertoy.load_scene(scenes / "pendulum.json")
    fresh.settings.integrator = "dopri5"
    fresh.model.time = 50 * fresh.settings.dt
    bob = fresh.model.find_body("bob")
    fresh.model.set_position(bob, [0.0, -1.0])
    fresh.model.set_velocity(bob, [1.0, 0.0])
    reference = tinkertoy.Simulator(fresh)
    for _ in range(50):
        reference.step()
    # Equal to the solver's tolerance: the fresh simulator's CG starts without a warm start.
    np.testing.assert_allclose(scene.model.q, fresh.model.q, rtol=0, atol=1e-9)


def test_a_view_is_stale_after_a_body_is_added_and_raises(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    q, v = sim.q, sim.v
    head = q[:1]
    bob = pendulum.model.bodies[0]
    body_view = sim.body_q(bob)
    pendulum.model.add_particle(1.0, [3.0, 0.0])
    for view in (q, v, head, body_view):
        assert view.stale
        with pytest.raises(tinkertoy.StaleViewError):
            view[0]
        with pytest.raises(tinkertoy.StaleViewError):
            view[0] = 1.0
        with pytest.raises(tinkertoy.StaleViewError):
            view + 1.0
        with pytest.raises(tinkertoy.StaleViewError):
            np.sum(view)
        with pytest.raises(tinkertoy.StaleViewError):
            repr(view)
    # A new view has the new layout.
    assert sim.q.shape == (4,)
    assert not sim.q.stale


def test_a_stale_view_never_reads_freed_memory(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    before = np.array(q)
    raw = q.view(np.ndarray)  # past the guard, straight to the buffer
    for i in range(50):
        pendulum.model.add_particle(1.0, [3.0 + i, 0.0])  # the state's storage moves many times
    assert q.stale
    # The old storage is kept alive for the views: it still holds the state of before.
    np.testing.assert_array_equal(raw, before)


def test_removing_a_body_makes_views_stale(pendulum):
    extra = pendulum.model.add_particle(1.0, [3.0, 0.0])
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    pendulum.model.remove_body(extra)
    with pytest.raises(tinkertoy.StaleViewError):
        q.sum()


def test_a_failed_edit_leaves_the_views_valid(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    with pytest.raises(ValueError, match="mass"):
        pendulum.model.add_particle(-1.0, [3.0, 0.0])
    assert not q.stale
    q[0] = 0.5
    assert pendulum.model.q[0] == 0.5


def test_edits_that_keep_the_layout_keep_the_views(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    pendulum.model.add_gravity([0.0, -1.0])
    rod = pendulum.model.constraints[0]
    pendulum.model.set_length(rod, 1.0)
    sim.step()
    assert not q.stale
    np.testing.assert_array_equal(np.array(q), pendulum.model.q)


def test_copies_and_pickles_of_a_view_are_plain_arrays(pendulum):
    import pickle

    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    copy = q.copy()
    pickled = pickle.loads(pickle.dumps(q))
    pendulum.model.add_particle(1.0, [3.0, 0.0])
    assert type(copy) is np.ndarray and type(pickled) is np.ndarray
    np.testing.assert_array_equal(copy, pickled)
