"""The module as a hostile user meets it (issue #34): every misuse is an exception that names
what is wrong, never a crash, an abort, a hang or a silent NaN. Each test here crashed, aborted
or passed a bad value through before its fix."""

import copy
import math
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


# ---------------------------------------------------------------------------------------------
# 5. The scene and the state take what the scene loader takes


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, -1.0, -1e-300])
def test_a_scene_duration_is_finite_and_not_negative(pendulum, bad):
    pendulum.duration = 0.0  # as the loader's "duration" ≥ 0
    with pytest.raises(ValueError, match=r"^Scene\.duration: must be a finite number of seconds ≥ 0, got "):
        pendulum.duration = bad
    assert pendulum.duration == 0.0
    with pytest.raises(ValueError, match=r"^Scene\.duration: "):
        tinkertoy.Scene(duration=bad)


@pytest.mark.parametrize("bad", [math.nan, math.inf, 0.0, -2.0])
def test_a_scene_period_is_finite_and_positive_or_none(pendulum, bad):
    pendulum.period = 2.5
    with pytest.raises(ValueError, match=r"^Scene\.period: must be a finite number of seconds > 0 \(or None\), got "):
        pendulum.period = bad
    assert pendulum.period == 2.5
    pendulum.period = None
    assert pendulum.period is None


@pytest.mark.parametrize(
    "add",
    [
        lambda m: m.add_particle(1.0, [3, 0], name="bob"),
        lambda m: m.add_rigid_body(1.0, tinkertoy.Shape.circle(0.1), [3, 0], name="bob"),
        lambda m: m.add_bead(tinkertoy.LineCurve([0, 0], [1, 0]), 1.0, 0.0, name="bob"),
        lambda m: m.add_chain([0, 0], [1.0], [1.0], [0.0], name="bob"),
    ],
)
def test_a_body_name_in_use_is_refused_as_the_loader_refuses_a_duplicate_id(add):
    m = tinkertoy.Scene().model
    first = m.add_particle(1.0, [1, 0], name="bob")
    with pytest.raises(ValueError, match="^name: another body of this model is named 'bob'"):
        add(m)
    assert m.bodies == [first]
    m.add_particle(1.0, [2, 0])  # no name is never a duplicate
    m.add_particle(1.0, [2, 1])


def test_a_constraint_name_in_use_is_refused(pendulum):
    m = pendulum.model
    bob = m.bodies[0]
    m.add_distance(bob, anchor=[0, 1], name="hook")
    before = m.constraints
    with pytest.raises(ValueError, match="^name: another constraint of this model is named 'hook'"):
        m.add_fixed_point(bob, name="hook")
    assert m.constraints == before
    # The loader names a constraint without an id by its JSON path: that name is taken too.
    loaded = m.constraint_name(m.constraints[0])
    with pytest.raises(ValueError, match="another constraint"):
        m.add_fixed_point(bob, name=loaded)


@pytest.mark.parametrize(
    "join",
    [
        lambda m, a, b: m.add_fixed_point(a),
        lambda m, a, b: m.add_weld(a, anchor=[5, 5]),
        lambda m, a, b: m.add_revolute(a, b, anchor=[5, 5]),
        lambda m, a, b: m.add_distance(a, b),
    ],
)
def test_a_constraint_that_nothing_can_move_is_refused_as_the_loader_refuses_it(join):
    m = tinkertoy.Scene().model
    wall = m.add_rigid_body(1.0, tinkertoy.Shape.box(1, 1), [5, 5], motion="static")
    lift = m.add_rigid_body(1.0, tinkertoy.Shape.box(1, 1), [6, 5], motion="kinematic")
    with pytest.raises(ValueError, match="joins only static or kinematic bodies .* attach it to a dynamic body"):
        join(m, wall, lift)
    assert m.constraints == []
    # The loader's message is the same rule's.
    text = '{"dimension": 2, "bodies": [{"id": "w", "type": "rigid", "static": true, "mass": 1, "position": [0, 0],' \
           ' "shape": {"type": "box", "size": [1, 1]}}], "constraints": [{"type": "revolute", "a": "w", "anchor": [0, 0]}]}'
    with pytest.raises(tinkertoy.SceneError, match="joins only static or kinematic bodies"):
        tinkertoy.parse_scene(text)


@pytest.mark.parametrize(
    "write",
    [
        lambda sim: sim.q.__setitem__(0, np.nan),
        lambda sim: sim.q.__setitem__(slice(None), np.inf),
        lambda sim: sim.q.__setitem__(slice(0, 2), [1.0, -np.inf]),
        lambda sim: sim.v.__setitem__(np.array([True, False]), np.nan),
        lambda sim: sim.v.__setitem__(0, "nan"),
        lambda sim: sim.q[0:1].__setitem__(0, np.nan),
        lambda sim: sim.body_v(sim.model.bodies[0]).__setitem__(1, np.inf),
        lambda sim: np.add(sim.q, np.inf, out=sim.q),
        lambda sim: sim.q.__iadd__(np.inf),
        lambda sim: np.add.at(sim.v, [0], np.nan),
        lambda sim: sim.q.fill(np.nan),
        lambda sim: sim.q.put([0], [np.nan]),
        lambda sim: np.copyto(sim.v, np.nan),
        lambda sim: np.putmask(sim.q, [True, False], np.inf),
    ],
)
def test_a_non_finite_write_through_a_view_is_undone_and_refused(pendulum, write):
    sim = tinkertoy.Simulator(pendulum)
    sim.step()
    q, v = pendulum.model.q, pendulum.model.v
    with pytest.raises(ValueError, match=r"^[qv]: the state takes finite numbers only; a write of NaN or infinity"):
        write(sim)
    assert np.array_equal(pendulum.model.q, q) and np.array_equal(pendulum.model.v, v)
    sim.step()  # and the simulator goes on
    assert np.all(np.isfinite(pendulum.model.q))


@pytest.mark.parametrize("advance", [lambda sim: sim.step(), lambda sim: sim.run(0.01)])
def test_a_non_finite_write_around_the_view_is_undone_before_the_next_step(pendulum, advance):
    sim = tinkertoy.Simulator(pendulum)
    q = sim.q
    np.asarray(q)[0] = np.nan  # the raw buffer: the view cannot see it
    np.asarray(sim.v)[1] = 0.25  # a finite write at the same time stays
    with pytest.raises(ValueError, match="left NaN or an infinity in the state"):
        advance(sim)
    assert np.array_equal(pendulum.model.q, [1.0, 0.0]) and pendulum.model.v[1] == 0.25
    assert sim.step_count == 0
    advance(sim)
    assert np.all(np.isfinite(pendulum.model.q))


# ---------------------------------------------------------------------------------------------
# 6. sim.settings


def test_simulator_settings_is_read_only_and_says_how_to_change_them(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    with pytest.raises(AttributeError, match=r"Simulator\.settings is read-only: .*tinkertoy\.Simulator\(scene, settings\)"):
        sim.settings = tinkertoy.Settings(dt=0.5)
    assert sim.settings.dt == pendulum.settings.dt


# ---------------------------------------------------------------------------------------------
# 7. run()'s arguments


@pytest.mark.parametrize(
    "duration, every, message",
    [
        (math.nan, 1, r"^run: duration must be a finite number of seconds ≥ 0, got nan$"),
        (math.inf, 1, r"^run: duration must be a finite number of seconds ≥ 0, got inf$"),
        (-0.1, 1, r"^run: duration must be a finite number of seconds ≥ 0, got -0\.1$"),
        (1e300, 1, r"^run: duration 1e\+300 s takes 1e\+303 steps of dt = 0\.001 s; a run takes at most 1e\+12$"),
        (1e9 + 0.5, 1, r"^run: duration 1e\+09 s takes 1e\+12 steps of dt = 0\.001 s; a run takes at most 1e\+12$"),
        (1.0, 0, r"^run: every must be at least 1, got 0$"),
        (1.0, -5, r"^run: every must be at least 1, got -5$"),
    ],
)
def test_run_refuses_a_bad_argument_naming_it_in_short_numbers(pendulum, duration, every, message):
    sim = tinkertoy.Simulator(pendulum)
    with pytest.raises(ValueError, match=message):
        sim.run(duration, every=every)
    assert sim.step_count == 0


def test_run_takes_an_every_beyond_an_int(pendulum):
    trajectory = tinkertoy.Simulator(pendulum).run(0.01, every=2**40)
    assert len(trajectory["time"]) == 2  # the start and the last step


# ---------------------------------------------------------------------------------------------
# 9. Names and numbers the core refuses


@pytest.mark.parametrize(
    "add",
    [
        lambda m, name: m.add_particle(1.0, [3, 0], name=name),
        lambda m, name: m.add_rigid_body(1.0, tinkertoy.Shape.circle(0.1), [3, 0], name=name),
        lambda m, name: m.add_fixed_point(m.bodies[0], name=name),
    ],
)
def test_a_name_with_a_nul_byte_or_not_utf8_is_a_clean_error(pendulum, add):
    m = pendulum.model
    before = (m.bodies, m.constraints)
    with pytest.raises(ValueError, match=r"name 'a\\x00b' holds a NUL byte"):
        add(m, "a\0b")
    with pytest.raises(ValueError, match=r"name '\\xff' is not UTF-8 text"):
        add(m, b"\xff")
    for surrogate in ("\udcff", "a\ud800"):  # a str that is no UTF-8 text: refused as a wrong argument
        with pytest.raises((ValueError, TypeError)) as caught:
            add(m, surrogate)
        assert not isinstance(caught.value, UnicodeError)
        assert "name" in str(caught.value)
    assert (m.bodies, m.constraints) == before


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.add_particle(1e-310, [3, 0]),
        lambda m: m.add_particle(5e-324, [3, 0]),
        lambda m: m.add_rigid_body(1e-310, tinkertoy.Shape.circle(0.1), [3, 0]),
        lambda m: m.add_rigid_body(1.0, tinkertoy.Shape.circle(0.1), [3, 0], inertia=1e-310),
    ],
)
def test_a_subnormal_mass_is_a_value_error(pendulum, call):
    with pytest.raises(ValueError, match="at least 2.2e-308"):
        call(pendulum.model)
    assert len(pendulum.model.bodies) == 1


@pytest.mark.parametrize("speed", [1.0000001e9, -2e9, 1e155, math.inf, math.nan])
def test_a_motor_speed_beyond_1e9_is_a_value_error(speed):
    scene = tinkertoy.Scene(settings=tinkertoy.Settings(formulation="velocity"))
    m = scene.model
    wheel = m.add_rigid_body(1.0, tinkertoy.Shape.circle(0.1), [0, 0])
    pin = m.add_revolute(wheel, anchor=[0, 0])
    with pytest.raises(ValueError, match="motor"):
        m.set_motor(pin, motor_speed=speed, max_motor_force=1.0)
    with pytest.raises(ValueError, match="motor"):
        m.add_revolute(wheel, anchor=[0, 0], motor_speed=speed, max_motor_force=1.0)
    m.set_motor(pin, motor_speed=1e9, max_motor_force=1.0)  # the limit itself is taken


# ---------------------------------------------------------------------------------------------
# 3 and 8. Sweeps: a bad call is refused before anything runs


def test_a_grid_of_more_than_a_million_cases_is_refused_before_it_is_built():
    axis = range(1001)
    with pytest.raises(ValueError, match=r"^grid: 1003003001 cases is more than the 1000000 a sweep takes"):
        tinkertoy.grid(a=axis, b=axis, c=axis)  # built, it would need gigabytes
    assert len(tinkertoy.grid(a=range(1000), b=range(1000))["a"]) == 1_000_000  # the limit itself is taken
    with pytest.raises(TypeError, match="^grid: b must be a list of values, not int$"):
        tinkertoy.grid(a=[1], b=5)


@pytest.mark.parametrize(
    "parameters",
    [
        {"settings.dt": range(1_000_001)},
        [{"settings.dt": 1e-3}] * 1_000_001,
    ],
    ids=["columns", "rows"],
)
def test_a_sweep_of_more_than_a_million_cases_is_refused(pendulum, parameters):
    with pytest.raises(ValueError, match=r"^sweep: 1000001 cases is more than the 1000000"):
        tinkertoy.sweep(pendulum, parameters, scheduler="serial")


@pytest.fixture
def no_dask(monkeypatch):
    """Makes any use of Dask fail the test: a bad call must be refused before it."""
    import dask.distributed

    def refuse(*args, **kwargs):
        raise AssertionError("Dask was started")

    monkeypatch.setattr(dask.distributed, "LocalCluster", refuse)
    monkeypatch.setattr(dask.distributed, "Client", refuse)


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        ({"parameters": {"particles[0].mass": [1.0, math.nan]}}, ValueError,
         r"^sweep: parameters\['particles\[0\]\.mass'\] holds nan \(case 1\); a parameter must be finite"),
        ({"parameters": [{"settings.dt": math.inf}]}, ValueError, r"^sweep: parameters\['settings\.dt'\] holds inf"),
        ({"parameters": {"particles[0].position": [[1.0, math.nan]]}}, ValueError, "holds"),
        ({"parameters": {"particles[0].mass": np.array([1.0, np.nan])}}, ValueError, "holds nan"),
        ({"duration": "2"}, TypeError, r"^sweep: duration must be a number of seconds or None, not str$"),
        ({"duration": math.nan}, ValueError, r"^sweep: duration must be finite and >= 0, not nan$"),
        ({"duration": -1.0}, ValueError, r"^sweep: duration must be finite and >= 0"),
        ({"every": 1.5}, TypeError, r"^sweep: every must be an int, not float$"),
        ({"every": "10"}, TypeError, r"^sweep: every must be an int, not str$"),
        ({"every": 0}, ValueError, r"^sweep: every must be at least 1, not 0$"),
        ({"parameters": 5}, TypeError, r"^sweep: parameters must be a dict of columns, a list of dicts or a DataFrame"),
        ({"parameters": "settings.dt"}, TypeError, r"^sweep: parameters must be"),
        ({"parameters": {"settings.dt": 1e-3}}, TypeError, r"^sweep: parameters\['settings\.dt'\] must be a list"),
        ({"parameters": [{"settings.dt": 1e-3}, 5]}, TypeError, r"^sweep: parameters\[1\] must be a dict"),
        ({"edit": "function"}, TypeError, r"^sweep: edit must be a function"),
        ({"workers": 0}, ValueError, r"^sweep: workers must be at least 1, not 0$"),
        ({"workers": 2.0}, TypeError, r"^sweep: workers must be an int, not float$"),
    ],
)
def test_a_bad_sweep_call_names_the_argument_before_any_dask_work(pendulum, no_dask, arguments, error, message):
    call = {"parameters": {"particles[0].mass": [1.0, 2.0]}, "duration": 0.01} | arguments
    with pytest.raises(error, match=message):
        tinkertoy.sweep(pendulum, call.pop("parameters"), **call)
