// Bad rigid-body scenes (docs/scene-format.md, "rigid" and "Joints"): every kind is rejected
// with its JSON path and a reason, from text and from a file.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/test_name.hpp"
#include "scene/rigid_scene_text.hpp"
#include "support/scratch_directory.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

using namespace rigid_scene_text;

// ---- bad input ---------------------------------------------------------------------------

struct BadRigidScene {
  std::string label;
  std::string json;
  std::string path;    // expected SceneError::path()
  std::string reason;  // expected in the message
};

void PrintTo(const BadRigidScene& bad, std::ostream* os) { *os << bad.label; }

const std::vector<BadRigidScene>& badRigidScenes() {
  static const std::vector<BadRigidScene> cases = {
      // Rigid bodies.
      {"missing mass", oneBody(R"("position": [0, 0], "shape": {"type": "circle", "radius": 1})"), "bodies[0].mass",
       "required field is missing"},
      {"negative mass", oneBody(R"("mass": -1, "position": [0, 0], "shape": {"type": "circle", "radius": 1})"),
       "bodies[0].mass", "must be positive, got -1"},
      {"zero mass", oneBody(R"("mass": 0, "position": [0, 0], "shape": {"type": "circle", "radius": 1})"),
       "bodies[0].mass", "must be positive"},
      {"negative inertia", oneBody(kBox + R"(, "inertia": -0.5)"), "bodies[0].inertia", "must be positive, got -0.5"},
      {"zero inertia", oneBody(kBox + R"(, "inertia": 0)"), "bodies[0].inertia", "must be positive"},
      {"missing position", oneBody(R"("mass": 1, "shape": {"type": "circle", "radius": 1})"), "bodies[0].position",
       "required field is missing"},
      {"position of the wrong size", oneBody(R"("mass": 1, "position": [0, 0, 0], "shape": {"type": "circle", "radius": 1})"),
       "bodies[0].position", "expected 2 numbers"},
      {"angle not a number", oneBody(kBox + R"(, "angle": "0")"), "bodies[0].angle", "expected a number, got a string"},
      {"unknown rigid field", oneBody(kBox + R"(, "angular_velocty": 1)"), "bodies[0].angular_velocty",
       "did you mean 'angular_velocity'"},
      {"rigid type typo", R"({"bodies": [{"id": "b", "type": "rigd"}]})", "bodies[0].type", "did you mean 'rigid'"},
      {"rigid body in 3D", R"({"dimension": 3, "bodies": [)" + rigid("b", kBox) + "]}", "bodies[0].type",
       "rigid bodies need \"dimension\": 2"},
      {"static with a velocity", oneBody(kBox + R"(, "static": true, "velocity": [1, 0])"), "bodies[0].static",
       "a static body cannot move"},
      {"static with an angular velocity", oneBody(kBox + R"(, "static": true, "angular_velocity": 0.1)"),
       "bodies[0].static", "a static body cannot move"},
      {"static and kinematic", oneBody(kBox + R"(, "static": true, "kinematic": true)"), "bodies[0].kinematic",
       "static or kinematic, not both"},
      {"static not a boolean", oneBody(kBox + R"(, "static": 1)"), "bodies[0].static", "expected true or false"},
      // Shapes.
      {"missing shape", oneBody(R"("mass": 1, "position": [0, 0])"), "bodies[0].shape", "required field is missing"},
      {"shape not an object", oneBody(R"("mass": 1, "position": [0, 0], "shape": "box")"), "bodies[0].shape",
       "expected an object, got a string"},
      {"unknown shape type", oneBody(shape(R"({"type": "boxx", "size": [1, 1]})")), "bodies[0].shape.type",
       "unknown shape type 'boxx'; did you mean 'box'"},
      {"unknown shape type without a match", oneBody(shape(R"({"type": "wedge"})")), "bodies[0].shape.type",
       "known types: circle, box, polygon, capsule"},
      {"capsule of zero length", oneBody(shape(R"({"type": "capsule", "length": 0, "radius": 0.1})")),
       "bodies[0].shape.length", "must be positive"},
      {"capsule of negative radius", oneBody(shape(R"({"type": "capsule", "length": 1, "radius": -0.1})")),
       "bodies[0].shape.radius", "must be positive"},
      {"capsule without radius", oneBody(shape(R"({"type": "capsule", "length": 1})")), "bodies[0].shape.radius",
       "required field is missing"},
      {"capsule with a box's size", oneBody(shape(R"({"type": "capsule", "length": 1, "radius": 0.1, "size": [1, 1]})")),
       "bodies[0].shape.size", "unknown field"},
      {"unknown shape field", oneBody(shape(R"({"type": "box", "size": [1, 1], "radius": 1})")),
       "bodies[0].shape.radius", "unknown field"},
      {"zero-size box", oneBody(shape(R"({"type": "box", "size": [0, 0]})")), "bodies[0].shape.size",
       "width and height must be positive"},
      {"box of negative height", oneBody(shape(R"({"type": "box", "size": [1, -0.1]})")), "bodies[0].shape.size",
       "width and height must be positive"},
      {"box size of the wrong length", oneBody(shape(R"({"type": "box", "size": [1]})")), "bodies[0].shape.size",
       "expected 2 numbers"},
      {"box without size", oneBody(shape(R"({"type": "box"})")), "bodies[0].shape.size", "required field is missing"},
      {"zero circle radius", oneBody(shape(R"({"type": "circle", "radius": 0})")), "bodies[0].shape.radius",
       "must be positive"},
      {"polygon with two vertices", oneBody(shape(R"({"type": "polygon", "vertices": [[-1, 0], [1, 0]]})")),
       "bodies[0].shape.vertices", "at least 3 vertices, got 2"},
      {"polygon with collinear vertices", oneBody(shape(R"({"type": "polygon", "vertices": [[-1, 0], [0, 0], [1, 0]]})")),
       "bodies[0].shape.vertices", "no area"},
      {"non-convex polygon",
       oneBody(shape(R"({"type": "polygon", "vertices": [[-1, -1], [1, -1], [0.2, 0], [1, 1], [-1, 1]]})")),
       "bodies[0].shape.vertices", "not convex at vertex 2"},
      {"polygon off its centroid", oneBody(shape(R"({"type": "polygon", "vertices": [[0, 0], [1, 0], [1, 1], [0, 1]]})")),
       "bodies[0].shape.vertices", "centroid is at (0.5, 0.5)"},
      // A self-intersecting star (the pentagram {5/2}, centred) turns left at every vertex and
      // has a positive signed area, but its turning angles sum to 4π.
      {"self-intersecting star polygon",
       oneBody(shape(R"({"type": "polygon", "vertices": [[0, 1], [-0.5877852522924732, -0.8090169943749473],
                   [0.9510565162951536, 0.3090169943749472], [-0.9510565162951535, 0.3090169943749472],
                   [0.5877852522924732, -0.8090169943749473]]})")),
       "bodies[0].shape.vertices", "not convex"},
      {"polygon vertex of the wrong size",
       oneBody(shape(R"({"type": "polygon", "vertices": [[-1, -1], [1, -1, 0], [0, 1]]})")),
       "bodies[0].shape.vertices[1]", "expected 2 numbers"},

      // Joints: which type, which fields.
      {"unknown joint type", joint(R"({"type": "revolut", "a": "rod", "anchor": [0, 0]})"), "constraints[0].type",
       "unknown constraint type 'revolut'; did you mean 'revolute'"},
      {"unknown joint type without a match", joint(R"({"type": "hinge", "a": "rod"})"), "constraints[0].type",
       "unknown constraint type 'hinge'"},
      {"unknown joint field", joint(R"({"type": "revolute", "a": "rod", "anchr": [0, 0]})"), "constraints[0].anchr",
       "did you mean 'anchor'"},
      {"prismatic field typo", joint(R"({"type": "prismatic", "a": "rod", "anchor": [0, 0], "axes": [1, 0]})"),
       "constraints[0].axes", "did you mean 'axis'"},
      {"motor field typo", joint(R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "motor_sped": 1})"),
       "constraints[0].motor_sped", "did you mean 'motor_speed'"},
      {"field of another joint type", joint(R"({"type": "weld", "a": "rod", "anchor": [0, 0], "lower": 0})"),
       "constraints[0].lower", "unknown field"},
      {"break force on a mouse joint",
       joint(R"({"type": "mouse", "a": "rod", "anchor": [0, 0], "max_force": 1, "break_force": 1})"),
       "constraints[0].break_force", "unknown field"},
      // Joints: ends and anchors.
      {"revolute without anchor", joint(R"({"type": "revolute", "a": "rod", "b": "arm"})"), "constraints[0].anchor",
       "required field is missing"},
      {"weld without anchor", joint(R"({"type": "weld", "a": "rod", "b": null})"), "constraints[0].anchor",
       "required field is missing"},
      {"joint without a", joint(R"({"type": "revolute", "b": "rod", "anchor": [0, 0]})"), "constraints[0].a",
       "required field is missing"},
      {"unknown body in a", joint(R"({"type": "revolute", "a": "rdo", "anchor": [0, 0]})"), "constraints[0].a",
       "no particle or body with id 'rdo'"},
      {"unknown body in b", joint(R"({"type": "weld", "a": "rod", "b": "amr", "anchor": [0, 0]})"), "constraints[0].b",
       "no particle or body with id 'amr'"},
      {"unknown body in a point reference", joint(R"({"type": "revolute", "a": {"body": "rdo"}, "anchor": [0, 0]})"),
       "constraints[0].a.body", "no particle or body with id 'rdo'"},
      {"world as a", joint(R"({"type": "revolute", "a": null, "b": "rod", "anchor": [0, 0]})"), "constraints[0].a",
       "got null"},
      {"joint of a body to itself", joint(R"({"type": "revolute", "a": "rod", "b": "rod", "anchor": [0, 0]})"),
       "constraints[0]", "cannot join a point to itself"},
      {"anchor of the wrong size", joint(R"({"type": "revolute", "a": "rod", "anchor": [0, 0, 0]})"),
       "constraints[0].anchor", "expected 2 numbers"},
      {"anchor away from a particle", joint(R"({"type": "revolute", "a": "rod", "b": "p", "anchor": [0, 0]})"),
       "constraints[0].b", "particle 'p' has no frame, so it can be held only at its own position"},
      {"weld on a particle", joint(R"({"type": "weld", "a": "p", "b": "rod", "anchor": [1, 0]})"), "constraints[0]",
       "acts on the orientation of particle 'p'"},
      {"revolute limits on a particle",
       joint(R"({"type": "revolute", "a": "rod", "b": "p", "anchor": [1, 0], "lower": 0})", R"({"formulation": "velocity"})"),
       "constraints[0]", "acts on the orientation of particle 'p'"},
      {"angle joint on a particle", joint(R"({"type": "angle", "a": "rod", "b": "p"})"), "constraints[0]",
       "acts on the orientation of particle 'p'"},
      {"revolute in a 3D scene",
       R"({"dimension": 3, "particles": [{"id": "p", "mass": 1, "position": [1, 0, 0]}],
           "constraints": [{"type": "revolute", "a": "p", "anchor": [1, 0]}]})",
       "constraints[0]", "needs a 2D model"},
      {"distance anchor on a fixed end",
       joint(R"({"type": "distance", "a": "rod", "b": [0, 1], "anchor_b": [0, 1]})"), "constraints[0].anchor_b",
       "a fixed point needs no anchor"},
      // Joints: axes, limits, motors.
      {"prismatic without axis", joint(R"({"type": "prismatic", "a": "rod", "anchor": [0, 0]})"), "constraints[0].axis",
       "required field is missing"},
      {"zero prismatic axis", joint(R"({"type": "prismatic", "a": "rod", "anchor": [0, 0], "axis": [0, 0]})"),
       "constraints[0].axis", "must be non-zero"},
      {"revolute lower above upper",
       joint(R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "lower": 1, "upper": -1})"), "constraints[0].upper",
       "must not be below \"lower\""},
      {"prismatic lower above upper",
       joint(R"({"type": "prismatic", "a": "rod", "anchor": [0, 0], "axis": [1, 0], "lower": 0.5, "upper": 0.4})"),
       "constraints[0].upper", "must not be below \"lower\""},
      {"limit not a number", joint(R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "lower": "-1"})"),
       "constraints[0].lower", "expected a number"},
      {"negative max_motor_force",
       joint(R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "motor_speed": 1, "max_motor_force": -5})"),
       "constraints[0].max_motor_force", "must not be negative, got -5"},
      {"motor speed without a force", joint(R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "motor_speed": 1})"),
       "constraints[0].max_motor_force", "required field is missing"},
      {"motor force without a speed",
       joint(R"({"type": "prismatic", "a": "rod", "anchor": [0, 0], "axis": [1, 0], "max_motor_force": 1})"),
       "constraints[0].motor_speed", "required field is missing"},
      {"angle joint ratio not a number", joint(R"({"type": "angle", "a": "rod", "b": "arm", "ratio": null})"),
       "constraints[0].ratio", "expected a number, got null"},
      {"angle joint ratio too large", joint(R"({"type": "angle", "a": "rod", "b": "arm", "ratio": 1e300})"),
       "constraints[0]", "angle joint ratio must be at most 1e6 in size"},
      {"pulley ratio too large",
       joint(R"({"type": "pulley", "a": "rod", "b": "arm", "ground_a": [0, 2], "ground_b": [1, 2], "ratio": 2e6})"),
       "constraints[0]", "pulley ratio must be at most 1e6 in size"},
      // Distance joints.
      {"distance min above max", joint(R"({"type": "distance", "a": "rod", "b": "arm", "min_length": 2, "max_length": 1})"),
       "constraints[0].min_length", "must be below \"max_length\""},
      {"distance min equal to max",
       joint(R"({"type": "distance", "a": "rod", "b": "arm", "min_length": 1, "max_length": 1})"),
       "constraints[0].min_length", "must be below \"max_length\""},
      {"negative min_length", joint(R"({"type": "distance", "a": "rod", "b": "arm", "min_length": -1})"),
       "constraints[0].min_length", "must not be negative"},
      {"zero max_length", joint(R"({"type": "distance", "a": "rod", "b": "arm", "max_length": 0})"),
       "constraints[0].max_length", "must be positive"},
      {"negative frequency", joint(R"({"type": "distance", "a": "rod", "b": "arm", "frequency": -1})"),
       "constraints[0].frequency", "must be positive"},
      {"zero frequency", joint(R"({"type": "distance", "a": "rod", "b": "arm", "frequency": 0})"),
       "constraints[0].frequency", "must be positive"},
      {"negative damping ratio",
       joint(R"({"type": "distance", "a": "rod", "b": "arm", "frequency": 1, "damping_ratio": -0.1})"),
       "constraints[0].damping_ratio", "must not be negative"},
      {"damping ratio without frequency", joint(R"({"type": "distance", "a": "rod", "b": "arm", "damping_ratio": 0.5})"),
       "constraints[0].damping_ratio", "needs a \"frequency\""},
      {"rigid rod with a maximum", joint(R"({"type": "distance", "a": "rod", "b": "arm", "length": 1, "max_length": 2})"),
       "constraints[0]", "a rigid rod cannot also have \"min_length\" or \"max_length\""},
      // Ends that start together have no direction between them, whatever the joint's mode.
      {"zero-length spring", joint(R"({"type": "distance", "a": "p", "b": [1, 0], "frequency": 1})"), "constraints[0]",
       "start at the same position"},
      {"rope between coincident ends",
       joint(R"({"type": "distance", "a": "p", "b": [1, 0], "max_length": 1})", R"({"formulation": "velocity"})"),
       "constraints[0]", "start at the same position"},
      {"rod of given length between coincident ends",
       joint(R"({"type": "distance", "a": "p", "b": [1, 0], "length": 1})"), "constraints[0]",
       "start at the same position"},
      // Break forces (JSON has no NaN or infinity; an overflowing literal is malformed JSON).
      {"zero break force", joint(R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "break_force": 0})"),
       "constraints[0].break_force", "must be positive, got 0"},
      {"negative break force", joint(R"({"type": "weld", "a": "rod", "anchor": [0, 0], "break_force": -10})"),
       "constraints[0].break_force", "must be positive"},
      {"break force as a string",
       joint(R"({"type": "distance", "a": "rod", "b": "arm", "break_force": "NaN"})"), "constraints[0].break_force",
       "expected a number, got a string"},
      {"break force as null", joint(R"({"type": "distance", "a": "rod", "b": "arm", "break_force": null})"),
       "constraints[0].break_force", "expected a number, got null"},
      {"overflowing break force", joint(R"({"type": "angle", "a": "rod", "break_force": 1e999})"), "",
       "number overflow"},
      // Mouse joints.
      {"mouse joint without anchor", joint(R"({"type": "mouse", "a": "rod", "max_force": 1})"),
       "constraints[0].anchor", "required field is missing"},
      {"mouse joint without max_force", joint(R"({"type": "mouse", "a": "rod", "anchor": [0, 0], "target": [1, 1]})"),
       "constraints[0].max_force", "required field is missing"},
      {"mouse joint with zero max_force", joint(R"({"type": "mouse", "a": "rod", "anchor": [0, 0], "max_force": 0})"),
       "constraints[0].max_force", "must be positive"},
      {"mouse joint with zero frequency",
       joint(R"({"type": "mouse", "a": "rod", "anchor": [0, 0], "max_force": 1, "frequency": 0})"),
       "constraints[0].frequency", "must be positive"},
      {"mouse joint with negative damping",
       joint(R"({"type": "mouse", "a": "rod", "anchor": [0, 0], "max_force": 1, "damping_ratio": -1})"),
       "constraints[0].damping_ratio", "must not be negative"},
      {"mouse joint with a b", joint(R"({"type": "mouse", "a": "rod", "b": "arm", "max_force": 1})"), "constraints[0].b",
       "unknown field"},
      // Pulleys.
      {"pulley with a world b",
       joint(R"({"type": "pulley", "a": "rod", "b": [1, 1], "ground_a": [0, 2], "ground_b": [1, 2]})"),
       "constraints[0].b", "a pulley joins two body points"},
      {"pulley with a world a",
       joint(R"({"type": "pulley", "a": [1, 1], "b": "rod", "ground_a": [0, 2], "ground_b": [1, 2]})"),
       "constraints[0].a", "a pulley joins two body points"},
      {"pulley without ground_a", joint(R"({"type": "pulley", "a": "rod", "b": "arm", "ground_b": [1, 2]})"),
       "constraints[0].ground_a", "required field is missing"},
      {"pulley with zero ratio",
       joint(R"({"type": "pulley", "a": "rod", "b": "arm", "ground_a": [0, 2], "ground_b": [1, 2], "ratio": 0})"),
       "constraints[0].ratio", "must be positive"},
      {"pulley with negative length",
       joint(R"({"type": "pulley", "a": "rod", "b": "arm", "ground_a": [0, 2], "ground_b": [1, 2], "length": -1})"),
       "constraints[0].length", "must be positive"},
      {"pulley joining a body to itself",
       joint(R"({"type": "pulley", "a": "rod", "b": "rod", "ground_a": [0, 2], "ground_b": [1, 2]})"),
       "constraints[0].b", "cannot join"},
      // A pulley end on its fixed pulley has no rope direction.
      {"pulley end on its ground point",
       joint(R"({"type": "pulley", "a": "p", "b": "arm", "ground_a": [1, 0], "ground_b": [1, 2]})"),
       "constraints[0].ground_a", "starts on its pulley"},
      // Torques and springs on rigid bodies.
      {"torque on a particle", forces(R"({"type": "torque", "body": "p", "torque": 1})"), "forces[0]",
       "torque force acts on the orientation of particle 'p', which has none"},
      {"torque without a body", forces(R"({"type": "torque", "torque": 1})"), "forces[0].body",
       "required field is missing"},
      {"torque on an unknown body", forces(R"({"type": "torque", "body": "crank", "torque": 1})"), "forces[0].body",
       "no particle or body with id 'crank'"},
      {"torque as a string", forces(R"({"type": "torque", "body": "rod", "torque": "1"})"), "forces[0].torque",
       "expected a number, got a string"},
      {"torque with a point field", forces(R"({"type": "torque", "body": "rod", "torque": 1, "anchor": [0, 0]})"),
       "forces[0].anchor", "unknown field"},
      {"torque in 3D", R"({"dimension": 3, "particles": [{"id": "p", "mass": 1, "position": [0, 0, 0]}],
                          "forces": [{"type": "torque", "body": "p", "torque": 1}]})",
       "forces[0]", "a torque needs a 2D model"},
      {"spring anchor away from a particle", forces(R"({"type": "spring", "a": "p", "anchor_a": [2, 0], "b": "rod",
                                                       "stiffness": 1})"),
       "forces[0].a", "has no frame, so it can be held only at its own position"},
      // Settings of the velocity level.
      {"unknown formulation", settings(R"({"formulation": "velocty"})"), "settings.formulation",
       "unknown formulation 'velocty'; expected acceleration or velocity"},
      {"formulation not a string", settings(R"({"formulation": 1})"), "settings.formulation", "expected a string"},
      {"unknown position correction", settings(R"({"position_correction": "baumgart"})"),
       "settings.position_correction", "unknown position correction 'baumgart'; expected none, baumgarte, projection or soft"},
      {"zero joint hertz", settings(R"({"joint_hertz": 0})"), "settings.joint_hertz", "must be positive, got 0"},
      {"joint hertz as a string", settings(R"({"joint_hertz": "60"})"), "settings.joint_hertz", "expected a number"},
      {"negative joint damping ratio", settings(R"({"joint_damping_ratio": -1})"), "settings.joint_damping_ratio",
       "must not be negative, got -1"},
      {"zero contact hertz", settings(R"({"contact_hertz": 0})"), "settings.contact_hertz", "must be positive, got 0"},
      {"contact hertz as a string", settings(R"({"contact_hertz": "30"})"), "settings.contact_hertz", "expected a number"},
      {"negative contact damping ratio", settings(R"({"contact_damping_ratio": -1})"), "settings.contact_damping_ratio",
       "must not be negative, got -1"},
      {"sleep as a number", settings(R"({"sleep": 1})"), "settings.sleep", "expected true or false"},
      {"negative sleep speed", settings(R"({"sleep_speed": -0.1})"), "settings.sleep_speed", "must not be negative, got -0.1"},
      {"zero sleep time", settings(R"({"sleep_time": 0})"), "settings.sleep_time", "must be positive, got 0"},
      {"sleep time as a string", settings(R"({"sleep_time": "1"})"), "settings.sleep_time", "expected a number"},
      {"soft step with a global solve",
       settings(R"({"formulation": "velocity", "solver": "ldlt", "position_correction": "soft"})"), "settings.position_correction",
       "the soft step is a sequential-impulse scheme"},
      {"zero iterations", settings(R"({"iterations": 0})"), "settings.iterations", "must be between 1 and 100000"},
      {"negative iterations", settings(R"({"iterations": -3})"), "settings.iterations", "must be between 1 and 100000"},
      {"fractional iterations", settings(R"({"iterations": 2.5})"), "settings.iterations", "expected an integer, got 2.5"},
      {"zero substeps", settings(R"({"substeps": 0})"), "settings.substeps", "must be between 1 and 10000"},
      {"substeps as a string", settings(R"({"substeps": "4"})"), "settings.substeps", "expected an integer, got a string"},
      {"warm_start not a boolean", settings(R"({"warm_start": 1})"), "settings.warm_start", "expected true or false"},
      {"setting typo", settings(R"({"substep": 4})"), "settings.substep", "did you mean 'substeps'"},
      {"sequential solver at the acceleration level", settings(R"({"solver": "sequential"})"), "settings.solver",
       "the sequential solver works at the velocity level"},
  };
  return cases;
}

class RejectsBadRigidScene : public ::testing::TestWithParam<BadRigidScene> {};

TEST_P(RejectsBadRigidScene, NamingThePathAndTheReason) {
  const BadRigidScene& bad = GetParam();
  try {
    parseScene(bad.json, "bad.json");
    FAIL() << "accepted: " << bad.json;
  } catch (const SceneError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.path(), bad.path) << what;
    EXPECT_NE(what.find(bad.path), std::string::npos) << what;
    EXPECT_NE(what.find(bad.reason), std::string::npos) << what;
    EXPECT_EQ(what.rfind("bad.json: ", 0), 0u) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(RigidScene, RejectsBadRigidScene, ::testing::ValuesIn(badRigidScenes()),
                         [](const ::testing::TestParamInfo<BadRigidScene>& p) { return testing_support::testName(p.param.label); });

// Through a file too: the message starts with the file's name.
TEST(RigidScene, ReportsTheFileOfABadScene) {
  const testing_support::ScratchDirectory scratch;
  const std::filesystem::path file = scratch.path() / "bad.json";
  {
    std::ofstream out(file);
    out << oneBody(R"("mass": -2, "position": [0, 0], "shape": {"type": "circle", "radius": 1})");
  }
  try {
    loadScene(file);
    FAIL() << "accepted a negative mass";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()), file.string() + ": bodies[0].mass: must be positive, got -2");
  }
}

}  // namespace
}  // namespace tinkertoy
