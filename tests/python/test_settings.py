"""Settings: keyword construction, the scene format's spellings, and what they refuse."""

import copy
import pickle

import numpy as np
import pytest

import tinkertoy


def test_keywords_set_the_attributes_of_those_names():
    s = tinkertoy.Settings(dt=0.01, formulation="velocity", threads=2)
    assert (s.dt, s.formulation, s.threads) == (0.01, "velocity", 2)
    s.solver = tinkertoy.SolverSettings(kind="sequential", tolerance=1e-8)
    s.velocity.substeps = 4
    s.velocity.position_correction = "soft"
    assert s.solver.kind == "sequential" and s.velocity.substeps == 4
    assert s.velocity.position_correction == "soft"


def test_an_unknown_keyword_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="'substep'"):
        tinkertoy.VelocitySettings(substep=4)


@pytest.mark.parametrize(
    "struct, attribute, good",
    [
        (tinkertoy.Settings, "formulation", ["acceleration", "velocity"]),
        (tinkertoy.Settings, "integrator", ["euler", "symplectic-euler", "midpoint", "rk4", "dopri5", "rattle"]),
        (tinkertoy.SolverSettings, "kind", ["cg", "ldlt", "sequential"]),
        (tinkertoy.VelocitySettings, "scheme", ["symplectic-euler", "verlet"]),
        (tinkertoy.VelocitySettings, "position_correction", ["none", "baumgarte", "projection", "soft"]),
    ],
)
def test_each_choice_takes_the_scene_formats_spellings_and_lists_them_when_wrong(struct, attribute, good):
    s = struct()
    for name in good:
        setattr(s, attribute, name)
        assert getattr(s, attribute) == name
    with pytest.raises(ValueError) as caught:
        setattr(s, attribute, "nonsense")
    for name in good:
        assert f"'{name}'" in str(caught.value)


def test_a_scenes_settings_are_edited_in_place(pendulum):
    pendulum.settings.solver.kind = "ldlt"
    pendulum.settings.dt = 2e-3
    sim = tinkertoy.Simulator(pendulum)
    assert sim.settings.solver.kind == "ldlt" and sim.settings.dt == 2e-3


def test_validate_names_the_bad_setting():
    with pytest.raises(ValueError, match="substeps"):
        tinkertoy.Settings(formulation="velocity", velocity=tinkertoy.VelocitySettings(substeps=0)).validate()


def velocity_settings(**velocity):
    settings = tinkertoy.Settings(formulation="velocity", solver=tinkertoy.SolverSettings(kind="sequential"))
    for name, value in velocity.items():
        setattr(settings.velocity, name, value)
    return settings


@pytest.mark.parametrize(
    "settings, path, reason",
    [
        (velocity_settings(substeps=10**9), "settings.velocity.substeps", "must be between 1 and 10000, got 1000000000"),
        (velocity_settings(iterations=0), "settings.velocity.iterations", "must be between 1 and 100000, got 0"),
        (velocity_settings(iterations=1000, substeps=1001), "settings.velocity.iterations",
         "iterations × substeps is 1001000 passes per step; at most 1000000 are allowed"),
        (tinkertoy.Settings(threads=65), "settings.threads", "must be between 1 and 64, got 65"),
        (tinkertoy.Settings(projection=tinkertoy.ProjectionSettings(max_iterations=0)),
         "settings.projection.max_iterations", "must be between 1 and 1000, got 0"),
        (tinkertoy.Settings(dt=-1e-3), "settings.dt", "must be positive, got -0.001"),
        (velocity_settings(collisions=True, position_correction="projection"), "settings.velocity.collisions",
         "the projection holds contacts with solver ldlt or cg (the exact mode); with solver sequential use "
         "position correction soft, baumgarte or none"),
        (velocity_settings(restitution=2.0), "settings.velocity.restitution",
         "must be at most 1, got 2 (1 bounces back at the speed of approach)"),
        (velocity_settings(contact_hertz=0.0), "settings.velocity.contact_hertz", "must be positive, got 0"),
        (velocity_settings(contact_damping_ratio=-1.0), "settings.velocity.contact_damping_ratio",
         "must not be negative, got -1"),
        (velocity_settings(sleep_speed=-1.0), "settings.velocity.sleep_speed", "must not be negative, got -1"),
        (velocity_settings(sleep_time=0.0), "settings.velocity.sleep_time", "must be positive, got 0"),
    ],
)
def test_bad_settings_are_a_value_error_naming_the_attribute_path(pendulum, settings, path, reason):
    for check in (settings.validate, lambda: tinkertoy.Simulator(pendulum, settings)):
        with pytest.raises(tinkertoy.SettingsError) as caught:
            check()
        error = caught.value
        assert isinstance(error, ValueError) and isinstance(error, tinkertoy.TinkertoyError)
        assert str(error) == f"{path}: {reason}"
        assert error.settings[0] == path and error.reason == reason


def test_iterations_times_substeps_names_both_settings():
    with pytest.raises(tinkertoy.SettingsError) as caught:
        velocity_settings(iterations=1000, substeps=1001).validate()
    assert caught.value.settings == ("settings.velocity.iterations", "settings.velocity.substeps")


def test_a_simulator_with_a_billion_substeps_is_refused_at_once(pendulum):
    # It used to be accepted, and the first step() never returned.
    pendulum.settings.formulation = "velocity"
    pendulum.settings.solver.kind = "sequential"
    s = tinkertoy.Settings()
    s.velocity.substeps = 10**9  # fits an int: accepted here, refused by validate()
    with pytest.raises(ValueError, match=r"^settings\.velocity\.substeps: "):
        tinkertoy.Simulator(pendulum, s)


@pytest.mark.parametrize(
    "struct, attribute, path",
    [
        (tinkertoy.VelocitySettings, "substeps", "settings.velocity.substeps"),
        (tinkertoy.VelocitySettings, "iterations", "settings.velocity.iterations"),
        (tinkertoy.SolverSettings, "max_iterations", "settings.solver.max_iterations"),
        (tinkertoy.SolverSettings, "reuse_iterations", "settings.solver.reuse_iterations"),
        (tinkertoy.ProjectionSettings, "max_iterations", "settings.projection.max_iterations"),
        (tinkertoy.Settings, "threads", "settings.threads"),
    ],
)
def test_an_integer_setting_refuses_what_an_int_cannot_hold_and_names_itself(struct, attribute, path):
    s = struct()
    before = getattr(s, attribute)
    for huge in (10**12, -(10**12), 10**30, 10**10000):
        with pytest.raises(OverflowError, match="^" + path.replace(".", r"\.") + ": .* does not fit in an int"):
            setattr(s, attribute, huge)
        assert getattr(s, attribute) == before  # never a wrapped value
    for wrong in (2.5, "3", None, [1]):
        with pytest.raises(TypeError, match="^" + path.replace(".", r"\.") + " must be an int, not "):
            setattr(s, attribute, wrong)
    setattr(s, attribute, np.int64(7))
    assert getattr(s, attribute) == 7
    with pytest.raises(OverflowError):
        struct(**{attribute: 2**31})


def nondefault_settings():
    s = tinkertoy.Settings(dt=0.01, formulation="velocity", threads=3, ks=0.5)
    s.solver = tinkertoy.SolverSettings(kind="ldlt", factorization="tree", max_iterations=7, tolerance=1e-9)
    s.velocity.substeps = 4
    s.velocity.position_correction = "projection"
    s.projection.max_iterations = 9
    s.error_tolerance.relative = 1e-5
    return s


def fields(s):
    return {name: fields(value) if type(value).__module__.startswith("tinkertoy") else value
            for name in dir(s) if not name.startswith("_") and not callable(value := getattr(s, name))}


@pytest.mark.parametrize("duplicate", [pickle_round_trip := (lambda s: pickle.loads(pickle.dumps(s))), copy.copy,
                                       copy.deepcopy])
def test_settings_pickle_and_copy_field_by_field_and_independently(duplicate):
    s = nondefault_settings()
    twin = duplicate(s)
    assert type(twin) is tinkertoy.Settings and fields(twin) == fields(s)
    assert fields(twin)["velocity"]["substeps"] == 4 and twin.solver.factorization == "tree"
    twin.velocity.substeps = 5
    twin.solver.kind = "cg"
    assert s.velocity.substeps == 4 and s.solver.kind == "ldlt"
    for struct in (s.solver, s.velocity, s.projection, s.error_tolerance):
        assert fields(duplicate(struct)) == fields(struct)
