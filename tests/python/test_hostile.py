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


# ---------------------------------------------------------------------------------------------
# 4. Real numbers only

NOT_REAL_VECTORS = [
    np.array([1 + 2j, 0]),  # used to lose its imaginary part, with a mere ComplexWarning
    np.array([1.0, 0.0], dtype=complex),  # even with no imaginary part: the type is wrong
    np.array(["1", "2"]),  # used to be parsed as numbers
    np.array(["1", "2"], dtype=object),
    np.array([1.0, 2.0], dtype=object),
    ["1", "2"],
    [1 + 2j, 0],
    [b"1", b"2"],
]
NOT_REAL_NUMBERS = [np.complex128(1 + 0j), np.complex64(2), np.array(1 + 0j), 1 + 0j, np.array("1"), np.str_("1")]


@pytest.mark.filterwarnings("error")  # never a ComplexWarning either
@pytest.mark.parametrize("value", NOT_REAL_VECTORS, ids=repr)
@pytest.mark.parametrize(
    "argument, call",
    [
        ("position", lambda m, x: m.add_particle(1.0, x)),
        ("velocity", lambda m, x: m.add_particle(1.0, [0, 0], x)),
        ("g", lambda m, x: m.add_gravity(x)),
        ("coordinates", lambda m, x: m.set_coordinates(m.bodies[0], x)),
        ("position", lambda m, x: m.add_rigid_body(1.0, tinkertoy.Shape.circle(0.1), x)),  # a Vector2d
        ("axis", lambda m, x: tinkertoy.HelixCurve([0, 0, 0], 1.0, 0.1, axis=np.append(x, 0))),  # a Vector3d
        ("anchor", lambda m, x: m.add_distance(m.bodies[0], anchor=x)),  # an optional vector
    ],
)
def test_a_vector_that_is_not_real_is_a_type_error_naming_the_argument(pendulum, value, argument, call):
    m = pendulum.model
    q, bodies, forces = m.q, m.bodies, m.forces
    with pytest.raises(TypeError, match=f"{argument}: .*numpy.ndarray") as caught:
        call(m, value)
    assert "incompatible" in str(caught.value)
    assert np.array_equal(m.q, q) and m.bodies == bodies and m.forces == forces


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("value", NOT_REAL_NUMBERS, ids=repr)
@pytest.mark.parametrize(
    "argument, call",
    [
        ("mass", lambda s, x: s.model.add_particle(x, [0, 0])),
        ("mass", lambda s, x: s.model.set_mass(s.model.bodies[0], x)),
        ("length", lambda s, x: s.model.add_distance(s.model.bodies[0], anchor=[0, 0], length=x)),  # optional
        ("duration", lambda s, x: tinkertoy.Simulator(s).run(x)),
        ("", lambda s, x: setattr(s.settings, "dt", x)),
    ],
)
def test_a_number_that_is_not_real_is_a_type_error_naming_the_argument(pendulum, value, argument, call):
    before = pendulum.write()
    with pytest.raises(TypeError, match=f"{argument}: float" if argument else "float"):
        call(pendulum, value)
    assert pendulum.write() == before


def test_real_numbers_of_every_kind_are_still_taken(pendulum):
    m = pendulum.model
    m.add_particle(np.float32(2.0), np.array([1, 2], dtype=np.int64), velocity=(np.float64(0.5), True))
    m.add_particle(3, [np.float16(1.0), 2], name="ints")
    m.add_gravity(np.array([[0.0], [-9.81]]))  # a column
    assert m.mass(m.find_body("ints")) == 3.0
