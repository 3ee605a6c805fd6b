"""Who owns a scene's model: one live Simulator steps it in place; Scene.copy() (and copy, pickle)
gives an independent scene through the scene writer."""

import copy
import gc
import json
import pickle

import numpy as np
import pytest

import tinkertoy


def same_document(a, b):
    """Equal JSON documents, numbers to 1e-12 (the writer's anchors go through a rotation and back)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same_document(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(same_document, a, b))
    if isinstance(a, float) or isinstance(b, float):
        return a == pytest.approx(b, rel=1e-12, abs=1e-12)
    return a == b


def test_a_second_simulator_of_a_scene_in_use_is_refused(pendulum):
    sim = tinkertoy.Simulator(pendulum)
    sim.run(0.1)
    with pytest.raises(ValueError, match=r"another Simulator is stepping this scene(.|\n)*scene\.copy\(\)"):
        tinkertoy.Simulator(pendulum)
    assert sim.step_count == 100  # the first one is untouched
    del sim
    gc.collect()
    again = tinkertoy.Simulator(pendulum)  # once the first is gone, the scene is free
    assert again.time == pytest.approx(0.1)  # and it goes on from where the first left the model


def test_a_simulator_whose_construction_failed_does_not_hold_the_scene(pendulum):
    with pytest.raises(ValueError):
        tinkertoy.Simulator(pendulum, tinkertoy.Settings(dt=-1.0))
    tinkertoy.Simulator(pendulum).step()


def test_simulators_of_copies_move_alike_and_apart(pendulum):
    twin = pendulum.copy()
    a, b = tinkertoy.Simulator(pendulum), tinkertoy.Simulator(twin)
    a.run(0.5)
    assert twin.model.time == 0.0  # the copy's model is its own
    b.run(0.5)
    assert pendulum.model.q.tobytes() == twin.model.q.tobytes()


@pytest.mark.parametrize(
    "duplicate",
    [lambda s: s.copy(), copy.copy, copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))],
    ids=["copy()", "copy.copy", "copy.deepcopy", "pickle"],
)
def test_a_duplicate_scene_is_the_scene_as_written(scenes, duplicate):
    scene = tinkertoy.load_scene(scenes / "four_bar.json")
    scene.settings.velocity.substeps = 8
    scene.name = "edited"
    tinkertoy.Simulator(scene).run(0.5)  # the duplicate starts from the state reached
    twin = duplicate(scene)
    assert type(twin) is tinkertoy.Scene and twin is not scene
    assert same_document(json.loads(twin.write()), json.loads(scene.write()))
    assert twin.settings.velocity.substeps == 8 and twin.name == "edited" and twin.period == scene.period
    assert twin.model.bodies == scene.model.bodies  # the same ids: no body was removed
    np.testing.assert_array_equal(twin.model.q, scene.model.q)
    twin.model.add_particle(1.0, [0.0, 0.0])
    twin.settings.dt = 0.5
    assert len(scene.model.bodies) == 3 and scene.settings.dt != 0.5


def test_ids_of_a_copy_are_those_of_the_scene_as_written(pendulum):
    extra = pendulum.model.add_particle(1.0, [2.0, 0.0], name="extra")
    pendulum.model.remove_body(pendulum.model.find_body("bob"))
    twin = pendulum.copy()
    assert twin.model.body_name(twin.model.bodies[0]) == "extra"
    assert twin.model.bodies[0] != extra  # renumbered: the removed body left a hole in the original


def test_a_model_the_writer_cannot_write_cannot_be_copied():
    scene = tinkertoy.Scene()
    box = scene.model.add_rigid_body(1.0, tinkertoy.Shape.box(1.0, 0.2), [0.0, 0.0])
    scene.model.add_fixed_point(tinkertoy.BodyPoint(box, local=[0.5, 0.0]))
    for duplicate in (lambda s: s.copy(), copy.deepcopy, pickle.dumps):
        with pytest.raises(ValueError, match="scene writer"):
            duplicate(scene)
