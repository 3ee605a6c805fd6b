"""Simulator.q and .v: writable views of the engine's own storage, guarded against layout edits."""

import copy
import pickle

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


# Every ndarray method and data property, called on a stale view: each must raise, none may
# read or write the storage the model no longer uses.
STALE_USES = {
    "fill": lambda v: v.fill(0.0),
    "put": lambda v: v.put([0], [1.0]),
    "sort": lambda v: v.sort(),
    "dot": lambda v: v.dot(np.ones(2)),
    "flat": lambda v: v.flat,
    "flat=": lambda v: setattr(v, "flat", 0.0),
    "itemset": lambda v: v.itemset(0, 1.0),
    "item": lambda v: v.item(0),
    "partition": lambda v: v.partition(0),
    "argsort": lambda v: v.argsort(),
    "argpartition": lambda v: v.argpartition(0),
    "searchsorted": lambda v: v.searchsorted(0.5),
    "T": lambda v: v.T,
    "view": lambda v: v.view(),
    "view(ndarray)": lambda v: v.view(np.ndarray),
    "real": lambda v: v.real,
    "imag": lambda v: v.imag,
    "real=": lambda v: setattr(v, "real", 0.0),
    "data": lambda v: v.data,
    "ctypes": lambda v: v.ctypes,
    "__array_interface__": lambda v: v.__array_interface__,
    "__array_struct__": lambda v: v.__array_struct__,
    "copy": lambda v: v.copy(),
    "tolist": lambda v: v.tolist(),
    "tobytes": lambda v: v.tobytes(),
    "astype": lambda v: v.astype(np.float32),
    "reshape": lambda v: v.reshape(-1),
    "ravel": lambda v: v.ravel(),
    "flatten": lambda v: v.flatten(),
    "squeeze": lambda v: v.squeeze(),
    "transpose": lambda v: v.transpose(),
    "take": lambda v: v.take([0]),
    "repeat": lambda v: v.repeat(2),
    "compress": lambda v: v.compress([True]),
    "nonzero": lambda v: v.nonzero(),
    "clip": lambda v: v.clip(0, 1),
    "round": lambda v: v.round(),
    "sum": lambda v: v.sum(),
    "mean": lambda v: v.mean(),
    "max": lambda v: v.max(),
    "argmax": lambda v: v.argmax(),
    "cumsum": lambda v: v.cumsum(),
    "std": lambda v: v.std(),
    "any": lambda v: v.any(),
    "byteswap": lambda v: v.byteswap(inplace=True),
    "setfield": lambda v: v.setfield(1.0, np.float64),
    "getfield": lambda v: v.getfield(np.float64),
    "conj": lambda v: v.conj(),
    "diagonal": lambda v: v.reshape(1, -1).diagonal(),
    "dumps": lambda v: v.dumps(),
    "__copy__": lambda v: copy.copy(v),
    "__deepcopy__": lambda v: copy.deepcopy(v),
    "__reduce_ex__": lambda v: pickle.dumps(v, protocol=5),
    "__setstate__": lambda v: v.__setstate__((1, (2,), np.dtype(float), False, b"\0" * 16)),
    "__format__": lambda v: format(v, ""),
    "__len__": len,
    "__iter__": iter,
    "__contains__": lambda v: 0.0 in v,
    "__bool__": lambda v: bool(v[:1]),
    "__float__": lambda v: float(v[:1]),
    "__iadd__": lambda v: v.__iadd__(1.0),
    "__imul__": lambda v: v.__imul__(2.0),
    "__matmul__": lambda v: v @ np.ones(2),
    "__eq__": lambda v: v == 0.0,
    "__neg__": lambda v: -v,
    "__abs__": abs,
    "__delitem__": lambda v: v.__delitem__(0),
    "__dlpack__": lambda v: v.__dlpack__(),
}


@pytest.mark.parametrize("use", STALE_USES.values(), ids=STALE_USES.keys())
def test_every_ndarray_method_and_data_property_refuses_a_stale_view(pendulum, use):
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    before = np.array(q)
    pendulum.model.add_particle(1.0, [3.0, 0.0])
    with pytest.raises(tinkertoy.StaleViewError):
        use(q)
    # The old storage is untouched, and the model's state is the one it had.
    np.testing.assert_array_equal(np.asarray(q), before)
    np.testing.assert_array_equal(pendulum.model.q[:2], before)


def test_every_ndarray_attribute_is_guarded_but_the_machinery_and_metadata():
    from tinkertoy._state_array import StateArray

    unguarded = {name for name, attribute in vars(np.ndarray).items()
                 if callable(attribute) or hasattr(attribute, "__set__")
                 if vars(StateArray).get(name, attribute) is attribute}
    assert unguarded <= {"__new__", "__class_getitem__", "__sizeof__", "__array_priority__", "shape", "strides",
                         "dtype", "size", "ndim", "itemsize", "nbytes", "flags", "base"}


def test_a_fresh_view_still_works_through_every_method(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    assert q.T.shape == (2,) and list(q.flat) == [1.0, 0.0] and q.dot(np.ones(2)) == 1.0
    q += 1.0  # in place: still the guarded view of the engine's memory
    assert type(q) is tinkertoy.StateArray and pendulum.model.q[0] == 2.0
    q.fill(0.5)
    assert np.array_equal(pendulum.model.q, [0.5, 0.5])
    detached = q.astype(np.float64)  # a copy NumPy made: it owns its memory and never goes stale
    pendulum.model.add_particle(1.0, [3.0, 0.0])
    assert not getattr(detached, "stale", False) and detached.sum() == 1.0
