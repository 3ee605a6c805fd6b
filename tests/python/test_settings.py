"""Settings: keyword construction, the scene format's spellings, and what they refuse."""

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
