"""The module as a hostile user meets it (issue #34): every misuse is an exception that names
what is wrong, never a crash, an abort, a hang or a silent NaN. Each test here crashed, aborted
or passed a bad value through before its fix."""

import copy
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tinkertoy
import tinkertoy._tinkertoy

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)

# Every class the compiled module binds (exceptions are ordinary Python classes).
BOUND_CLASSES = sorted(
    (value for value in vars(tinkertoy._tinkertoy).values()
     if isinstance(value, type) and not issubclass(value, BaseException)),
    key=lambda cls: cls.__name__)


def run_isolated(code):
    """Runs `code` in a fresh interpreter (a crash there fails the test instead of ending pytest)
    and returns its stdout."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout


def fields(s):
    return {name: fields(value) if type(value).__module__.startswith("tinkertoy") else value
            for name in dir(s) if not name.startswith("_") and not callable(value := getattr(s, name))}


# ---------------------------------------------------------------------------------------------
# 1. Pickling at every protocol


def picklable_objects(scene):
    settings = tinkertoy.Settings(dt=0.01, formulation="velocity", threads=3)
    settings.velocity.substeps = 4
    settings.solver.kind = "ldlt"
    return [settings, settings.solver, settings.velocity, settings.projection, settings.error_tolerance,
            scene.model.bodies[0], scene.model.constraints[0], scene.model.forces[0]]


def test_every_picklable_object_round_trips_at_every_protocol_in_a_fresh_process():
    # Protocols 0 and 1 used to abort the interpreter (std::terminate in object.__new__).
    out = run_isolated(f"""
        import pickle, tinkertoy
        scene = tinkertoy.load_scene({str(tinkertoy_scene_path())!r})
        settings = tinkertoy.Settings(dt=0.01, formulation="velocity")
        for obj in (settings, settings.solver, settings.velocity, settings.projection, settings.error_tolerance,
                    scene.model.bodies[0], scene.model.constraints[0], scene.model.forces[0], scene):
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
                pickle.loads(pickle.dumps(obj, protocol))
        print("survived")
    """)
    assert out.strip() == "survived"


def tinkertoy_scene_path():
    import pathlib
    return pathlib.Path(__file__).resolve().parents[2] / "scenes" / "pendulum.json"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_settings_and_ids_round_trip_field_by_field_at_every_protocol(pendulum, protocol):
    for obj in picklable_objects(pendulum):
        twin = pickle.loads(pickle.dumps(obj, protocol))
        assert type(twin) is type(obj)
        if isinstance(obj, (tinkertoy.BodyId, tinkertoy.ConstraintId, tinkertoy.ForceId)):
            assert twin == obj
        else:
            assert fields(twin) == fields(obj)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_scene_round_trips_at_every_protocol(pendulum, protocol):
    pendulum.name = "swing"
    twin = pickle.loads(pickle.dumps(pendulum, protocol))
    assert twin.write() == pendulum.write()
    assert twin.model is not pendulum.model


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_object_that_does_not_pickle_is_a_type_error_at_every_protocol(pendulum, protocol):
    sim = tinkertoy.Simulator(pendulum)
    sim.step()
    unpicklable = [pendulum.model, sim, sim.diagnostics, tinkertoy.BodyPoint(pendulum.model.bodies[0]),
                   tinkertoy.Shape.circle(0.1), tinkertoy.LineCurve([0, 0], [1, 0])]
    for obj in unpicklable:
        with pytest.raises(TypeError, match=f"cannot pickle 'tinkertoy.{type(obj).__name__}' object"):
            pickle.dumps(obj, protocol)


def test_unpicklable_objects_at_protocols_0_and_1_do_not_abort_the_process():
    out = run_isolated("""
        import pickle, tinkertoy
        for obj in (tinkertoy.Shape.circle(0.1), tinkertoy.Scene().model):
            for protocol in (0, 1):
                try:
                    pickle.loads(pickle.dumps(obj, protocol))
                except TypeError:
                    pass
        print("survived")
    """)
    assert out.strip() == "survived"


# ---------------------------------------------------------------------------------------------
# 2. No object without contents


@pytest.mark.parametrize("cls", BOUND_CLASSES, ids=lambda cls: cls.__name__)
def test_cls_new_alone_is_a_type_error_for_every_bound_class(cls):
    # It used to give an object whose C++ value was never built: its methods read garbage and
    # crashed (Model.__new__(Model).add_particle(...), Simulator(Scene.__new__(Scene))).
    name = cls.__name__
    with pytest.raises(TypeError, match=rf"^{name}\.__new__\({name}\) alone would make an empty {name}"):
        cls.__new__(cls)


@pytest.mark.parametrize("cls", BOUND_CLASSES, ids=lambda cls: cls.__name__)
def test_no_way_around_new_gives_an_empty_object(cls):
    import copyreg

    for make in (lambda: cls.__mro__[-2].__new__(cls),  # pybind11_object.__new__
                 lambda: object.__new__(cls),
                 lambda: copyreg._reconstructor(cls, object, None),  # what protocols 0 and 1 did
                 lambda: copyreg.__newobj__(cls)):  # what protocol 2 does without __reduce__
        with pytest.raises(TypeError):
            make()


def test_the_state_array_needs_a_shape_like_any_ndarray():
    with pytest.raises(TypeError):
        tinkertoy.StateArray.__new__(tinkertoy.StateArray)


class Tuned(tinkertoy.Settings):
    """A Python subclass of a bound class."""


def test_a_python_subclass_still_constructs_pickles_and_refuses_new_alone():
    tuned = Tuned(dt=0.25)
    assert tuned.dt == 0.25
    for protocol in PROTOCOLS:
        twin = pickle.loads(pickle.dumps(tuned, protocol))
        assert type(twin) is Tuned and twin.dt == 0.25
    with pytest.raises(TypeError, match=r"^Tuned\.__new__\(Tuned\) alone"):
        Tuned.__new__(Tuned)


def test_rebuild_refuses_a_class_that_does_not_pickle():
    import tinkertoy._pickling

    with pytest.raises(TypeError, match="rebuild: cls must be a tinkertoy class that pickles"):
        tinkertoy._pickling.rebuild(tinkertoy.Model, None)
    with pytest.raises(TypeError, match="rebuild: cls must be a tinkertoy class that pickles"):
        tinkertoy._pickling.rebuild(int, None)
