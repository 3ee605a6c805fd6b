"""Models built in Python are the models scene files describe, to the last bit."""

import numpy as np
import pytest

import tinkertoy


def double_pendulum_in_code(second_link=lambda m, p1, p2: m.add_distance(p1, b=p2)):
    scene = tinkertoy.Scene(dimension=2, settings=tinkertoy.Settings(dt=0.001, integrator="rk4"), name="code")
    m = scene.model
    p1 = m.add_particle(1.0, [1.0, 0.0], name="p1")
    p2 = m.add_particle(1.0, [2.0, 0.0], name="p2")
    m.add_gravity([0.0, -9.81])
    m.add_distance(p1, anchor=[0.0, 0.0], length=1.0)
    second_link(m, p1, p2)  # a rod of the current distance, 1, unless given another
    return scene


def four_bar_in_code():
    settings = tinkertoy.Settings(dt=0.016666666667, formulation="velocity")
    settings.solver.kind = "sequential"
    settings.velocity.iterations = 10
    settings.velocity.substeps = 4
    settings.velocity.position_correction = "projection"
    scene = tinkertoy.Scene(settings=settings)
    m = scene.model
    box = tinkertoy.Shape.box
    crank = m.add_rigid_body(0.48, box(0.6, 0.08), [0.15, 0.259807621135], angle=1.047197551197, name="crank")
    coupler = m.add_rigid_body(1.76, box(2.2, 0.08), [1.291312572704, 0.996374493046], angle=0.448281529357,
                               name="coupler")
    rocker = m.add_rigid_body(1.2, box(1.5, 0.08), [2.141312572704, 0.73656687191], angle=1.38124654099,
                              name="rocker")
    m.add_gravity([0.0, -9.81])
    m.add_revolute(crank, anchor=[0, 0], motor_speed=3.14159265359, max_motor_force=50, name="crank_bearing")
    m.add_revolute(crank, coupler, anchor=[0.3, 0.519615242271], name="crank_pin")
    m.add_revolute(coupler, rocker, anchor=[2.282625145407, 1.473133743821], name="coupler_pin")
    m.add_revolute(rocker, anchor=[2, 0], name="rocker_bearing")
    return scene


@pytest.mark.parametrize(
    "file, build, steps",
    [("double_pendulum.json", double_pendulum_in_code, 1000), ("four_bar.json", four_bar_in_code, 1000)],
)
def test_a_model_built_in_python_moves_as_its_scene_file_does_to_the_last_bit(scenes, file, build, steps):
    loaded = tinkertoy.load_scene(scenes / file)
    built = build()
    runs = [tinkertoy.Simulator(scene) for scene in (loaded, built)]
    for sim in runs:
        for _ in range(steps):
            sim.step()
    assert loaded.model.q.tobytes() == built.model.q.tobytes()
    assert loaded.model.v.tobytes() == built.model.v.tobytes()
    assert runs[0].diagnostics.total_energy == runs[1].diagnostics.total_energy


def test_a_model_built_in_python_writes_a_scene_that_loads_back_the_same(tmp_path):
    built = four_bar_in_code()
    path = tmp_path / "four_bar.json"
    built.save(path)
    again = tinkertoy.load_scene(path)
    assert again.model.q.tobytes() == built.model.q.tobytes()
    assert [again.model.constraint_type(c) for c in again.model.constraints] == ["revolute"] * 4
    assert again.settings.formulation == "velocity" and again.settings.velocity.substeps == 4


def test_every_body_force_and_constraint_can_be_built_and_stepped():
    scene = tinkertoy.Scene(settings=tinkertoy.Settings(dt=1e-3, formulation="velocity"))
    m = scene.model
    m.add_gravity([0, -9.81])
    m.add_drag(0.01)
    ball = m.add_particle(1.0, [0.0, 0.0])
    m.add_distance(ball, anchor=[0.0, 1.0], max_length=1.5)  # a rope
    m.add_point_on_line(ball, origin=[0, 0], direction=[1, 0])
    wheel = m.add_rigid_body(2.0, tinkertoy.Shape.circle(0.25), [2.0, 0.0])
    assert m.mass(wheel) == 2.0
    m.add_revolute(wheel, anchor=[2.0, 0.0], lower=-1.0, upper=1.0)
    m.add_torque(wheel, 0.5)
    gear = m.add_rigid_body(1.0, tinkertoy.Shape.polygon([[-0.1, -0.1], [0.1, -0.1], [0.1, 0.1], [-0.1, 0.1]]), [3.0, 0.0])
    m.add_revolute(gear, anchor=[3.0, 0.0])
    m.add_angle(wheel, gear, ratio=-2.0)
    slider = m.add_rigid_body(1.0, tinkertoy.Shape.box(0.2, 0.1), [4.0, 0.0])
    m.add_prismatic(slider, anchor=[4.0, 0.0], axis=[1, 0], lower=-0.5, upper=0.5, motor_speed=0.2, max_motor_force=10)
    plate = m.add_rigid_body(1.0, tinkertoy.Shape.box(0.4, 0.1), [5.0, 0.0])
    m.add_weld(plate, slider, anchor=[4.5, 0.0])
    left = m.add_particle(1.0, [6.0, 0.0])
    right = m.add_particle(1.0, [8.0, 0.0])
    m.add_pulley(left, right, ground_a=[6.0, 1.0], ground_b=[8.0, 1.0])
    m.add_spring(left, b=right, stiffness=10.0, damping=0.1, rest_length=2.0)
    bead = m.add_bead(tinkertoy.CircleCurve([0.0, -3.0], 1.0), 1.0, u=0.0)
    m.add_constant_force(bead, [0.1, 0.0])
    driven = m.add_particle(1.0, [10.0, 0.0])
    m.add_driven_point(driven, curve=tinkertoy.CircleCurve([9.0, 0.0], 1.0), speed=1.0)
    chain = m.add_chain([12.0, 0.0], lengths=[1.0, 1.0], masses=[1.0, 1.0], angles=[1.5, 1.5])
    m.add_fixed_point(tinkertoy.BodyPoint(chain, 1), at=None)
    grab = m.add_particle(1.0, [14.0, 0.0])
    mouse = m.add_mouse_joint(grab, anchor=[14.0, 0.0], max_force=100.0)
    m.set_mouse_target(mouse, [14.0, 0.5])
    sim = tinkertoy.Simulator(scene)
    trajectory = sim.run(0.2, every=50)
    assert np.all(np.isfinite(trajectory["q"]))
    assert len(m.constraints) == 11 and len(m.forces) == 5
    assert sim.diagnostics.constraint_error < 1e-2


def test_point_on_circle_and_plane_in_3d():
    scene = tinkertoy.Scene(dimension=3)
    m = scene.model
    p = m.add_particle(1.0, [1.0, 0.0, 0.0], velocity=[0.0, 1.0, 0.0])
    m.add_point_on_plane(p, origin=[0, 0, 0], normal=[0, 0, 1])
    circle = m.add_point_on_circle(p, center=[0, 0, 0])
    m.set_radius(circle, 1.0)
    sim = tinkertoy.Simulator(scene)
    sim.run(1.0)
    assert sim.diagnostics.constraint_error < 1e-8
    assert np.linalg.norm(m.q) == pytest.approx(1.0, abs=1e-8)


def test_joint_settings_change_while_running():
    """A motor's new speed is reached at its torque bound; limits added to a hinge that had none
    (its rows go from 3 to 4) stop it; a rope let out lets its bob fall further."""
    settings = tinkertoy.Settings(dt=1e-3, formulation="velocity")
    settings.solver.kind = "ldlt"
    settings.velocity.position_correction = "projection"
    scene = tinkertoy.Scene(settings=settings)
    m = scene.model
    wheel = m.add_rigid_body(2.0, tinkertoy.Shape.circle(0.5), [0, 0])  # I = 0.25 kg m²
    hinge = m.add_revolute(wheel, anchor=[0, 0], motor_speed=3.0, max_motor_force=0.5)
    sim = tinkertoy.Simulator(scene)

    def steps(n):
        for _ in range(n):
            sim.step()

    steps(2000)  # spun up at T / I = 2 rad/s² for 1.5 s, then held
    assert m.velocities(wheel)[2] == pytest.approx(3.0, abs=1e-10)
    m.set_motor(hinge, motor_speed=-1.0, max_motor_force=0.5)  # brakes at 2 rad/s²
    steps(1000)
    assert m.velocities(wheel)[2] == pytest.approx(1.0, abs=1e-10)
    steps(1500)
    assert m.velocities(wheel)[2] == pytest.approx(-1.0, abs=1e-10)
    angle = m.coordinates(wheel)[2]
    assert m.constraint_rows(hinge) == 3
    m.set_limits(hinge, lower=angle - 0.2)
    assert m.constraint_rows(hinge) == 4
    steps(1000)
    assert m.coordinates(wheel)[2] == pytest.approx(angle - 0.2, abs=1e-10)
    assert m.velocities(wheel)[2] == pytest.approx(0.0, abs=1e-10)
    m.set_motor(hinge)  # no motor any more
    assert m.constraint_rows(hinge) == 3

    bob = m.add_particle(1.0, [3.0, -1.0])
    m.add_gravity([0, -9.81])
    rope = m.add_distance(bob, anchor=[3.0, 0.0], max_length=1.0)
    steps(500)
    assert m.position(bob)[1] == pytest.approx(-1.0, abs=1e-8)
    m.set_length_range(rope, max_length=1.5)
    steps(1000)
    assert m.position(bob)[1] == pytest.approx(-1.5, abs=1e-8)  # fell 0.5 m in 0.32 s, then held
    with pytest.raises(ValueError, match="needs a length, a minimum or a maximum"):
        m.set_length_range(rope)
    assert m.constraint_rows(rope) == 1


def test_a_rod_written_as_a_formula_moves_as_the_built_in_rod():
    def pendulum(formula):
        scene = tinkertoy.Scene(settings=tinkertoy.Settings(dt=1e-3, integrator="rk4"))
        m = scene.model
        bob = m.add_particle(1.0, [1.0, 0.0])
        m.add_gravity([0, -9.81])
        if formula:
            m.add_formula([("p", bob)], ["hypot(xp, yp) - L"], parameters={"L": 1.0}, name="rod")
        else:
            m.add_distance(bob, anchor=[0.0, 0.0], length=1.0)
        simulator = tinkertoy.Simulator(scene)
        simulator.run(1.0)
        return m.coordinates(bob)

    assert np.max(np.abs(pendulum(True) - pendulum(False))) < 1e-12
    scene = tinkertoy.Scene()
    bob = scene.model.add_particle(1.0, [1.0, 0.0])
    with pytest.raises(ValueError, match=r"unknown name 'xq'(.|\n)*\^"):
        scene.model.add_formula([("p", bob)], ["hypot(xq, yp) - 1"])
    with pytest.raises(ValueError, match="kind must be"):
        scene.model.add_formula([("p", bob)], ["yp"], kind="soft")


def test_a_potential_written_as_a_formula_is_a_harmonic_well():
    """V = 1/2 k (x - 1)^2 on 1 kg, k = 4 N/m, released 0.5 m out: x(1 s) = 1 + 0.5 cos 2, E = 0.5 J."""
    scene = tinkertoy.Scene(settings=tinkertoy.Settings(dt=1e-3, integrator="rk4"))
    m = scene.model
    ball = m.add_particle(1.0, [1.5, 0.0])
    m.add_formula_potential([("p", ball)], "0.5*k*(xp - 1)^2", parameters={"k": 4.0})
    simulator = tinkertoy.Simulator(scene)
    simulator.run(1.0)
    assert m.coordinates(ball)[0] == pytest.approx(1.0 + 0.5 * np.cos(2.0), abs=1e-11)
    assert simulator.diagnostics.total_energy == pytest.approx(0.5, abs=1e-11)
    with pytest.raises(ValueError, match="unknown name 'xq'"):
        m.add_formula_potential([("p", ball)], "xq^2")


def test_a_bead_on_a_formula_curve_moves_as_on_the_built_in_curve():
    def slide(curve):
        scene = tinkertoy.Scene(settings=tinkertoy.Settings(dt=1e-3, integrator="rk4"))
        m = scene.model
        bead = m.add_bead(curve, 1.2, u=0.3, u_dot=0.5)
        m.add_gravity([0, -9.81])
        tinkertoy.Simulator(scene).run(1.0)
        return m.coordinates(bead)

    ellipse = tinkertoy.FormulaCurve(["a*cos(u)", "0.75*sin(u)"], parameters={"a": 2.0}, period=2 * np.pi)
    c, tangent, curvature = ellipse.evaluate(0.4)
    assert np.allclose(tangent[:2], [-2 * np.sin(0.4), 0.75 * np.cos(0.4)], atol=1e-15)
    assert np.allclose(curvature[:2], [-2 * np.cos(0.4), -0.75 * np.sin(0.4)], atol=1e-15)
    built_in = slide(tinkertoy.EllipseCurve([0.0, 0.0], 2.0, 0.75))
    assert np.max(np.abs(slide(ellipse) - built_in)) < 1e-12
    with pytest.raises(ValueError, match=r"unknown name 'v'(.|\n)*\^"):
        tinkertoy.FormulaCurve(["cos(u)", "sin(v)"])
    with pytest.raises(ValueError, match="does not close after its period"):
        tinkertoy.FormulaCurve(["cos(u)", "u"], period=1.0)


def test_a_rod_made_a_spring_moves_as_a_spring_built_in_its_place():
    swapped = double_pendulum_in_code()
    m = swapped.model
    spring = m.spring_for_rod(m.constraints[1], stiffness=300.0, damping=0.5)
    assert m.force_type(spring) == "spring" and len(m.constraints) == 1

    built = double_pendulum_in_code(lambda b, p1, p2: b.add_spring(p1, p2, stiffness=300.0, damping=0.5, rest_length=1.0))

    runs = [tinkertoy.Simulator(scene) for scene in (swapped, built)]
    for sim in runs:
        for _ in range(500):
            sim.step()
    assert swapped.model.q.tobytes() == built.model.q.tobytes()
    stretch = np.linalg.norm(swapped.model.q[2:4] - swapped.model.q[0:2]) - 1.0
    assert abs(stretch) > 1e-3, "a 300 N/m spring under a swinging 1 kg mass stretches"


def test_only_a_rigid_rod_can_be_made_a_spring():
    scene = double_pendulum_in_code()
    m = scene.model
    rope = m.add_distance(m.find_body("p2"), anchor=[0.0, 0.0], max_length=3.0)
    with pytest.raises(ValueError, match="a rope"):
        m.spring_for_rod(rope, stiffness=10.0)
    with pytest.raises(ValueError, match="stiffness"):
        m.spring_for_rod(m.constraints[0], stiffness=-1.0)
    assert len(m.constraints) == 3 and len(m.forces) == 1
