"""Simulator: step, run, diagnostics, λ and reactions, breaks, save and restore, the GIL."""

import json
import math
import pathlib
import time

import numpy as np
import pytest

import tinkertoy
from conftest import ticking


def test_run_records_the_same_states_as_stepping(scenes):
    a = tinkertoy.load_scene(scenes / "double_pendulum.json")
    b = tinkertoy.load_scene(scenes / "double_pendulum.json")
    sim_a, sim_b = tinkertoy.Simulator(a), tinkertoy.Simulator(b)
    trajectory = sim_a.run(0.105, every=10)  # 105 steps: rows at 0, 10, …, 100 and the last
    assert trajectory["time"].shape == (12,)
    assert trajectory["q"].shape == (12, 4) and trajectory["v"].shape == (12, 4)
    rows = []
    for i in range(1, 106):
        sim_b.step()
        if i % 10 == 0 or i == 105:
            rows.append(np.array(b.model.q))
    assert np.array_equal(trajectory["q"][1:], np.array(rows))
    assert np.array_equal(trajectory["q"][0], [1.0, 0.0, 2.0, 0.0])
    assert trajectory["time"][-1] == pytest.approx(0.105)
    assert np.all(trajectory["constraint_error"] < 1e-9)


def test_energy_is_conserved_to_rk4s_order(scenes):
    scene = tinkertoy.load_scene(scenes / "pendulum.json")
    sim = tinkertoy.Simulator(scene)
    trajectory = sim.run(2.0, every=100)
    energy = trajectory["kinetic_energy"] + trajectory["potential_energy"]
    # RK4 at h = 1e-3 on a pendulum of period ~2.4 s: the drift is O(h^4) ~ 1e-12 of 10 J.
    assert np.max(np.abs(energy - energy[0])) < 1e-9


def test_the_rods_lambda_is_its_tension(pendulum):
    # At the bottom of the swing from horizontal, the tension is 3 m g (λ < 0: tension).
    sim = tinkertoy.Simulator(pendulum)
    rod = pendulum.model.constraints[0]
    best = (math.inf, None)
    for _ in range(700):
        sim.step()
        y = pendulum.model.q[1]
        if y + 1.0 < best[0]:
            best = (y + 1.0, sim.constraint_lambda(rod)[0])
    assert best[1] == pytest.approx(-3 * 9.81, rel=1e-3)
    force, torque = sim.reaction(rod)
    assert force.shape == (2,) and torque == 0.0


def test_a_break_is_reported(pendulum):
    rod = pendulum.model.constraints[0]
    pendulum.model.set_break_force(rod, 15.0)  # below the 3 m g at the bottom
    sim = tinkertoy.Simulator(pendulum)
    sim.run(1.0, every=100)
    assert len(sim.breaks) == 1
    event = sim.breaks[0]
    assert event.constraint == rod and event.force > 15.0
    assert not pendulum.model.is_enabled(rod)


def test_save_and_restore_continue_bit_for_bit(scenes):
    straight = tinkertoy.load_scene(scenes / "four_bar.json")
    sim = tinkertoy.Simulator(straight)
    sim.run(1.0)
    state = sim.save_state()
    sim.run(1.0)

    resumed = tinkertoy.load_scene(scenes / "four_bar.json")
    other = tinkertoy.Simulator(resumed)
    other.restore_state(state)
    other.run(1.0)
    assert resumed.model.q.tobytes() == straight.model.q.tobytes()


def test_step_and_run_release_the_gil(scenes):
    scene = tinkertoy.load_scene(scenes / "cloth.json")
    sim = tinkertoy.Simulator(scene)
    with ticking() as ticks:
        start = time.perf_counter()
        sim.run(300 * scene.settings.dt)
        end = time.perf_counter()
    # While the run held the GIL the other thread could not tick; it ticked throughout.
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.05, "the run was too short to tell"
    assert len(during) >= 5


def test_diagnostics_report_the_step(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    assert sim.diagnostics.step == 0
    sim.step()
    d = sim.diagnostics
    assert d.step == 1 and d.time == pytest.approx(1e-3)
    assert d.solves > 0 and d.solver_iterations > 0
    assert set(d.work) == {"damping", "drag", "mouse", "motors", "springs", "driven", "impulses", "sleep"}
    assert d.total_energy == pytest.approx(d.kinetic_energy + d.potential_energy)


def pendulum_text(scenes, mass=1.0):
    document = json.loads((scenes / "pendulum.json").read_text())
    document["particles"][0]["mass"] = mass
    return json.dumps(document)


def stepped_state(scene):
    sim = tinkertoy.Simulator(scene)
    sim.run(0.1)
    return sim.save_state()


def test_a_state_from_a_scene_that_differs_in_a_mass_is_refused(scenes):
    # Same names, same sizes, same settings: only the model's hash tells them apart.
    state = stepped_state(tinkertoy.parse_scene(pendulum_text(scenes)))
    heavier = tinkertoy.Simulator(tinkertoy.parse_scene(pendulum_text(scenes, mass=1.5)))
    with pytest.raises(tinkertoy.StateError, match="origin"):
        heavier.restore_state(state)
    assert heavier.step_count == 0


def test_a_state_restores_into_the_same_scene_loaded_again_or_moved_before_the_simulator(scenes):
    state = stepped_state(tinkertoy.load_scene(scenes / "pendulum.json"))
    again = tinkertoy.Simulator(tinkertoy.load_scene(scenes / "pendulum.json"))
    again.restore_state(state)
    assert again.step_count == 100

    moved = tinkertoy.load_scene(scenes / "pendulum.json")
    bob = moved.model.find_body("bob")
    moved.model.set_position(bob, [0.0, -1.0])
    moved.model.set_velocity(bob, [1.0, 0.0])
    moved.name = "renamed"
    moved.duration = 3.0
    sim = tinkertoy.Simulator(moved)
    sim.restore_state(state)
    assert sim.step_count == 100 and moved.model.coordinates(bob)[0] != 0.0


def test_the_origin_is_a_hash_of_the_model_and_can_still_be_given(scenes):
    a = tinkertoy.Simulator(tinkertoy.load_scene(scenes / "pendulum.json"))
    b = tinkertoy.Simulator(tinkertoy.parse_scene(pendulum_text(scenes, mass=1.5)))
    assert a.origin.startswith("a model whose parameters hash to ") and a.origin != b.origin
    # An explicit origin (the command line's) is what the state records and requires.
    state = b.save_state(origin="a scene whose contents hash to 0123")
    with pytest.raises(tinkertoy.StateError):
        a.restore_state(state)
    a.restore_state(state, origin="a scene whose contents hash to 0123")


def test_a_model_the_writer_cannot_write_falls_back_to_the_fingerprint():
    scene = tinkertoy.Scene()
    box = scene.model.add_rigid_body(1.0, tinkertoy.Shape.box(1.0, 0.2), [0.0, 0.0])
    scene.model.add_fixed_point(tinkertoy.BodyPoint(box, local=[0.5, 0.0]))  # off-centre: not writable
    sim = tinkertoy.Simulator(scene)
    assert sim.origin == ""
    sim.step()
    state = sim.save_state()
    sim.restore_state(state)
    assert sim.step_count == 1


def test_a_state_saved_by_the_command_line_restores_in_python(scenes, tmp_path):
    """Both doors record the same origin (modelOrigin): the model's parameters, not the file."""
    import subprocess

    cli = pathlib.Path(tinkertoy.__file__).resolve().parents[2] / "tinkertoy"
    if not cli.exists():
        pytest.skip("the command line is not built beside the module")
    state = tmp_path / "pendulum.state"
    subprocess.run([str(cli), "run", str(scenes / "pendulum.json"), "--duration", "0.5", "--save-state", str(state)],
                   check=True, capture_output=True)
    sim = tinkertoy.Simulator(tinkertoy.load_scene(scenes / "pendulum.json"))
    sim.restore_state(state.read_bytes())
    assert sim.step_count == 500
    other = tinkertoy.Simulator(tinkertoy.parse_scene(pendulum_text(scenes, mass=1.5)))
    with pytest.raises(tinkertoy.StateError, match="origin"):
        other.restore_state(state.read_bytes())


def test_contacts_are_reported_with_their_impulses(scenes):
    scene = tinkertoy.load_scene(scenes / "contacts.json")
    sim = tinkertoy.Simulator(scene)
    for _ in range(240):
        sim.step()
    contacts = sim.contacts()
    assert 0 < len(contacts) <= sim.diagnostics.contact_points  # the last substep's, the step's most
    floor = scene.model.find_body("floor")
    on_floor = [c for c in contacts if floor in (c.a, c.b)]
    assert on_floor, "something rests on the floor"
    for c in contacts:
        assert abs(np.linalg.norm(c.normal) - 1.0) < 1e-12
        assert c.normal_impulse >= 0.0
        assert abs(c.tangent_impulse) <= 0.5 * c.normal_impulse * (1 + 1e-5) + 1e-12  # the scene's friction 0.5
        assert c.separation > -0.02
    plain = tinkertoy.Simulator(tinkertoy.load_scene(scenes / "pendulum.json"))
    plain.step()
    assert plain.contacts() == []


def test_the_exact_mode_holds_a_sliding_box_on_coulombs_law(scenes):
    """incline.json in the exact mode (ldlt with the projection): the slippery box's friction is μ
    times its normal impulse at every contact report, the sticky box does not move, and nothing
    sinks into the slope."""
    scene = tinkertoy.load_scene(scenes / "incline.json")
    scene.settings.solver.kind = "ldlt"
    scene.settings.velocity.position_correction = "projection"
    sim = tinkertoy.Simulator(scene)
    sticky, slippery = scene.model.find_body("sticky"), scene.model.find_body("slippery")
    for _ in range(30):
        sim.step()
    start = np.array(scene.model.coordinates(sticky))
    for _ in range(30):
        sim.step()
        faces = {}
        for c in sim.contacts():
            other = c.b if c.a == scene.model.find_body("slope") else c.a
            normal, tangent = faces.get(other, (0.0, 0.0))
            faces[other] = (normal + c.normal_impulse, tangent + c.tangent_impulse)
        normal, tangent = faces[slippery]
        assert abs(abs(tangent) - 0.3 * normal) <= 1e-12 * normal  # μ = √(0.09 · 1)
        assert sim.diagnostics.penetration < 1e-9
    assert np.linalg.norm(np.array(scene.model.coordinates(sticky)) - start) < 1e-9


def test_a_pile_falls_asleep_and_a_falling_box_wakes_it(scenes):
    """scenes/sleeping_pile.json: the pyramid sleeps before the dropped box reaches it, every box
    of it still where it was; the box's landing wakes it; at the end everything sleeps again, and
    the ledger's sleep line holds the little energy the sleepers had."""
    scene = tinkertoy.load_scene(scenes / "sleeping_pile.json")
    assert scene.settings.velocity.sleep
    sim = tinkertoy.Simulator(scene)
    m = scene.model
    dropped = m.find_body("dropped")
    for _ in range(90):  # 1.5 s: the pile asleep, the box still falling
        sim.step()
    assert sim.diagnostics.asleep == 55
    assert not sim.is_asleep(dropped)
    ground = m.find_body("ground")
    assert not sim.is_asleep(ground), "a static body never sleeps"
    held = np.array(m.q)
    sleep_work = 0.0
    woke = False
    for _ in range(270):
        sim.step()
        woke = woke or sim.diagnostics.asleep == 0
        sleep_work += sim.diagnostics.work["sleep"]
    assert woke
    assert sim.diagnostics.asleep == 56
    assert sim.is_asleep(dropped)
    assert -0.01 < sleep_work <= 0.0
    assert np.abs(np.array(m.q) - held).max() > 1e-3, "the landing moved the pile"
    assert len(sim.contacts()) > 100, "a sleeping pile still reports its contacts"


def test_a_bodys_collider_sets_its_surface_and_filter():
    """A disc particle with its own restitution bounces off a static box; one whose filter leaves out
    the box's category falls through it; joined bodies collide only when their constraint says so."""
    heights = {}
    for name, collider in [("bouncy", tinkertoy.Collider(restitution=0.9)),
                           ("ghost", tinkertoy.Collider(category=2, mask=2))]:
        settings = tinkertoy.Settings(dt=1 / 60, formulation="velocity")
        settings.solver.kind = "sequential"
        settings.velocity.collisions = True
        scene = tinkertoy.Scene(settings=settings)
        m = scene.model
        m.add_gravity([0, -9.81])
        m.add_rigid_body(1.0, tinkertoy.Shape.box(10, 1), [0, -0.5], motion="static")
        ball = m.add_particle(1.0, [0, 2], radius=0.1, collider=collider)
        assert m.collider(ball) == collider
        sim = tinkertoy.Simulator(scene)
        lowest = math.inf
        for _ in range(int(1.2 / settings.dt)):
            sim.step()
            lowest = min(lowest, m.coordinates(ball)[1])
        heights[name] = (lowest, m.coordinates(ball)[1])
    assert heights["bouncy"][0] > 0.09, "it never sank through"
    assert heights["bouncy"][1] > 0.5, "it bounced back up"
    assert heights["ghost"][1] < -1.0, "it fell through"

    m = tinkertoy.Scene().model
    a = m.add_rigid_body(1.0, tinkertoy.Shape.box(1, 1), [0, 0])
    with pytest.raises(ValueError, match="friction must not be negative"):
        tinkertoy.Collider(friction=-1)
    m.set_collider(a, tinkertoy.Collider(friction=0.5))
    assert m.collider(a).friction == 0.5
    with pytest.raises(ValueError, match="restitution must be at most 1"):
        tinkertoy.Collider(restitution=2)
    b = m.add_rigid_body(1.0, tinkertoy.Shape.box(1, 1), [2, 0])
    rope = m.add_distance(a, b, max_length=3)
    assert not m.collide_connected(rope)
    m.set_collide_connected(rope, True)
    assert m.collide_connected(rope)
    bead = m.add_bead(tinkertoy.LineCurve([0, 0], [1, 0]), 1.0, 0.0)
    assert m.collider(bead) is None
    with pytest.raises(ValueError, match="never collides"):
        m.set_collider(bead, tinkertoy.Collider())
