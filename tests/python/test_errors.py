"""The library's errors as Python exceptions, with what they know as attributes."""

import math

import numpy as np
import pytest

import tinkertoy
import tinkertoy._pickling


def test_a_scene_error_carries_the_json_path_and_the_reason():
    text = '{"dimension": 2, "particles": [{"id": "a", "mass": 1, "position": [0, 0]}],' \
           ' "constraints": [{"type": "distance", "a": "a", "b": "p9", "length": 1}]}'
    with pytest.raises(tinkertoy.SceneError) as caught:
        tinkertoy.parse_scene(text, source="inline")
    assert caught.value.path == "constraints[0].b"
    assert "p9" in caught.value.reason
    assert str(caught.value).startswith("inline: constraints[0].b: ")
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, tinkertoy.TinkertoyError)


def test_a_missing_scene_file_is_a_scene_error(tmp_path):
    with pytest.raises(tinkertoy.SceneError, match="no-such.json"):
        tinkertoy.load_scene(tmp_path / "no-such.json")


def test_a_blow_up_is_a_simulation_error_that_keeps_the_last_good_state(pendulum):
    pendulum.settings.dt = 1e-3
    sim = tinkertoy.Simulator(pendulum)
    for _ in range(5):
        sim.step()
    good_q, good_t = pendulum.model.q, pendulum.model.time
    # A force that overflows the state in one step.
    pendulum.model.add_constant_force(pendulum.model.bodies[0], [1e308, 1e308])
    with pytest.raises(tinkertoy.SimulationError) as caught:
        sim.step()
    error = caught.value
    assert error.step == 6
    assert error.time == pytest.approx(good_t)
    assert error.body is None or isinstance(error.body, tinkertoy.BodyId)
    assert np.array_equal(pendulum.model.q, good_q)
    assert pendulum.model.time == good_t


def test_run_reports_the_trajectory_up_to_a_blow_up(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    pendulum.model.add_constant_force(pendulum.model.bodies[0], [1e308, 1e308])
    with pytest.raises(tinkertoy.SimulationError) as caught:
        sim.run(1.0, every=1)
    trajectory = caught.value.trajectory
    assert trajectory["q"].shape == (1, 2)  # the start; the first step failed
    assert np.all(np.isfinite(trajectory["q"]))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m: m.add_particle(-1.0, [0, 0]), "mass"),
        (lambda m: m.add_particle(1.0, [0, 0, 0]), "position"),
        (lambda m: m.add_particle(float("nan"), [0, 0]), "mass"),
        (lambda m: m.add_distance(m.bodies[0], anchor=[0, 0], length=0.0), "length"),
        (lambda m: m.add_distance(m.bodies[0]), "exactly one of b and anchor"),
        (lambda m: m.add_rigid_body(1.0, tinkertoy.Shape.circle(0.1), [0, 0], motion="floating"), "motion"),
        (lambda m: m.add_revolute(m.bodies[0], anchor=[5, 5]), "has no frame"),
        (lambda m: m.add_revolute(m.bodies[0], anchor=[1, 0], motor_speed=1.0), "max_motor_force"),
        (lambda m: m.set_break_force(m.constraints[0], -1.0), "break force"),
        (lambda m: m.set_radius(m.constraints[0], 1.0), "is a distance constraint, not a circle one"),
        (lambda m: m.set_length(m.constraints[0], -1.0), "rod length must be positive"),
        (lambda m: m.set_length_range(m.constraints[0], max_length=2.0), "cannot also have a minimum or maximum"),
        (lambda m: m.set_motor(m.constraints[0], motor_speed=1.0, max_motor_force=1.0), "not a revolute one"),
        (lambda m: m.set_spring(m.constraints[0], 0.0), "spring frequency must be positive"),
    ],
)
def test_a_bad_argument_is_a_value_error_that_says_why(pendulum, call, message):
    with pytest.raises(ValueError, match=message):
        call(pendulum.model)


def test_a_removed_body_id_is_refused(pendulum):
    extra = pendulum.model.add_particle(1.0, [2, 0])
    pendulum.model.remove_body(extra)
    with pytest.raises((ValueError, IndexError)):
        pendulum.model.coordinates(extra)


@pytest.mark.parametrize("duration, every", [(-1.0, 1), (math.nan, 1), (math.inf, 1), (1.0, 0)])
def test_run_refuses_bad_arguments(pendulum, duration, every):
    sim = tinkertoy.Simulator(pendulum)
    with pytest.raises(ValueError):
        sim.run(duration, every=every)
    assert sim.step_count == 0


def test_settings_that_cannot_run_are_refused_by_the_simulator(pendulum):
    with pytest.raises(ValueError, match="dt"):
        tinkertoy.Simulator(pendulum, tinkertoy.Settings(dt=-1.0))


def test_a_state_from_another_model_is_a_state_error(scenes):
    a = tinkertoy.Simulator(tinkertoy.load_scene(scenes / "pendulum.json"))
    b = tinkertoy.Simulator(tinkertoy.load_scene(scenes / "double_pendulum.json"))
    with pytest.raises(tinkertoy.StateError):
        b.restore_state(a.save_state())
    with pytest.raises(tinkertoy.StateError):
        a.restore_state(b"not a state file")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s: tinkertoy.Simulator("scene.json"),
         r"^Simulator: scene must be a tinkertoy\.Scene \(load one with tinkertoy\.load_scene\(path\)\), not str$"),
        (lambda s: tinkertoy.Simulator(42), "scene must be a tinkertoy.Scene .*, not int$"),
        (lambda s: tinkertoy.Simulator(None), "scene must be a tinkertoy.Scene .*, not NoneType$"),
        (lambda s: tinkertoy.Simulator(s.model), "scene must be a tinkertoy.Scene .*, not Model$"),
        (lambda s: tinkertoy.Simulator(s, 5), "^Simulator: settings must be a tinkertoy.Settings or None, not int$"),
        (lambda s: tinkertoy._pickling.rebuild(tinkertoy.BodyId, ("a", 0)),
         "^BodyId: slot must be an int from 0 to 2\\*\\*32 - 1, not str$"),
    ],
)
def test_an_argument_cast_by_hand_is_a_type_error_that_names_it(pendulum, call, message):
    with pytest.raises(TypeError, match=message):
        call(pendulum)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.model.add_particle("heavy", [0, 0]),
        lambda s: s.model.add_particle(1.0, "here"),
        lambda s: s.model.add_distance("bob", anchor=[0, 0]),
        lambda s: s.model.remove_body(3),
        lambda s: s.model.set_coordinates(s.model.bodies[0], {"x": 1}),
        lambda s: tinkertoy.Simulator(s).run("1"),
        lambda s: tinkertoy.Simulator(s).restore_state("not bytes"),
        lambda s: tinkertoy.load_scene(42),
        lambda s: tinkertoy.parse_scene(None),
        lambda s: tinkertoy.Scene(settings=5),
        lambda s: tinkertoy.Settings(dt="fast"),
        lambda s: tinkertoy.Settings(solver=3),
        lambda s: setattr(s, "settings", "fast"),
        lambda s: setattr(s, "duration", "long"),
        lambda s: tinkertoy.BodyPoint("bob"),
        lambda s: tinkertoy.Shape.circle("big"),
        lambda s: tinkertoy.sweep(s, 5, scheduler="serial"),
    ],
)
def test_a_wrong_argument_type_anywhere_is_a_type_error(pendulum, call):
    with pytest.raises(TypeError):
        call(pendulum)


@pytest.mark.parametrize(
    "call, error, shown",
    [
        (lambda s: tinkertoy.parse_scene(b'{"dimension": 2, "name": "\xff"}'), tinkertoy.SceneError, r"\xff"),
        (lambda s: tinkertoy.parse_scene(b'{"\xfe\xff": 1}'), tinkertoy.SceneError, r"\xfe"),
        (lambda s: tinkertoy.load_scene(b"/nowhere/\xff.json"), tinkertoy.SceneError, r"/nowhere/\xff.json"),
        (lambda s: s.model.add_rigid_body(1.0, tinkertoy.Shape.circle(0.1), [0, 0], motion=b"\xff"), ValueError,
         r"motion: '\xff'"),
        (lambda s: s.model.add_formula([("p", s.model.bodies[0])], [b"xp - \xff"]), ValueError, r"\xff"),
        (lambda s: s.model.add_formula([("p", s.model.bodies[0])], ["xp"], kind=b"\xc3"), ValueError, r"'\xc3'"),
    ],
)
def test_a_message_that_quotes_user_bytes_is_the_intended_exception(pendulum, call, error, shown):
    # Invalid UTF-8 in the message (user text given as bytes) is escaped: \xff, never a
    # UnicodeDecodeError in place of the exception meant.
    with pytest.raises(error) as caught:
        call(pendulum)
    assert not isinstance(caught.value, UnicodeError)
    assert shown in str(caught.value)
