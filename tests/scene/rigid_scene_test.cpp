// Scene loading of rigid bodies and joints (docs/scene-format.md, "rigid" and "Joints"): the
// documented example, defaults, world anchors turned into body sites, the velocity-level
// settings and every shipped scene (bad input: rigid_scene_bad_input_test.cpp).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "scene/rigid_scene_text.hpp"
#include "tinkertoy/constraints/angle_joint.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/mouse_joint.hpp"
#include "tinkertoy/constraints/prismatic_joint.hpp"
#include "tinkertoy/constraints/pulley_joint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/constraints/weld_joint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

const std::filesystem::path kSceneDir = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";

using namespace rigid_scene_text;

// ---- loading -----------------------------------------------------------------------------

template <class T>
const T& constraintAs(const Scene& scene, std::size_t index) {
  return dynamic_cast<const T&>(scene.model.constraint(scene.model.constraintAt(index)));
}

// The settings of constraint `index`, which must be of type S.
template <class S>
S settingsOf(const Scene& scene, std::size_t index) {
  return std::get<S>(scene.model.constraint(scene.model.constraintAt(index)).settings());
}

const RigidBody& rigidBody(const Scene& scene, const std::string& id) {
  return dynamic_cast<const RigidBody&>(scene.model.body(*scene.model.findBody(id)));
}

// The documented example, word for word.
TEST(RigidScene, LoadsTheDocumentedExample) {
  const Scene scene = parseScene(sceneJson(
      R"({"id": "rod", "type": "rigid", "mass": 1, "position": [0.5, 0], "angle": 0, "velocity": [0, 0],
          "angular_velocity": 0, "shape": {"type": "box", "size": [1, 0.05]}})",
      R"({"type": "revolute", "a": "rod", "b": null, "anchor": [0, 0]})"));
  ASSERT_EQ(scene.model.bodyCount(), 1u);
  ASSERT_EQ(scene.model.constraintCount(), 1u);
  const BodyId rod = *scene.model.findBody("rod");
  const RigidBody& body = rigidBody(scene, "rod");
  EXPECT_EQ(body.mass(), 1.0);
  // No "inertia": the box's m (w² + h²) / 12.
  EXPECT_DOUBLE_EQ(body.inertia(), (1.0 + 0.05 * 0.05) / 12);
  EXPECT_EQ(body.motion(), RigidBody::Motion::Dynamic);
  EXPECT_EQ(body.shape().type(), Shape::Type::Box);
  EXPECT_EQ(scene.model.coordinates(rod), Eigen::Vector3d(0.5, 0, 0));
  EXPECT_EQ(scene.model.velocities(rod), Eigen::Vector3d::Zero());
  const auto& hinge = constraintAs<RevoluteJoint>(scene, 0);
  EXPECT_EQ(hinge.connection().a.body, rod);
  EXPECT_TRUE(hinge.connection().a.site.local.isApprox(Eigen::Vector2d(-0.5, 0)));
  EXPECT_FALSE(hinge.connection().b.has_value());
  EXPECT_EQ(hinge.connection().ground, Eigen::Vector2d::Zero());
  EXPECT_EQ(hinge.referenceAngle(), 0.0);
  EXPECT_EQ(hinge.rows(), 2);
  EXPECT_EQ(scene.model.describe(scene.model.constraintAt(0)), "constraints[0]");
}

TEST(RigidScene, InertiaFromEachShapeUnlessGiven) {
  const Scene scene = parseScene(sceneJson(
      rigid("disc", R"("mass": 2, "position": [0, 0], "shape": {"type": "circle", "radius": 0.5})") + ", " +
      rigid("plate", R"("mass": 3, "position": [1, 0], "shape": {"type": "box", "size": [0.4, 0.2]})") + ", " +
      rigid("square", R"("mass": 3, "position": [2, 0],
                         "shape": {"type": "polygon", "vertices": [[-0.2, -0.1], [0.2, -0.1], [0.2, 0.1], [-0.2, 0.1]]})") +
      ", " +
      rigid("clockwise", R"("mass": 3, "position": [3, 0],
                            "shape": {"type": "polygon", "vertices": [[-0.2, 0.1], [0.2, 0.1], [0.2, -0.1], [-0.2, -0.1]]})") +
      ", " + rigid("given", R"("mass": 1, "inertia": 0.25, "position": [4, 0], "shape": {"type": "circle", "radius": 0.1})")));
  EXPECT_DOUBLE_EQ(rigidBody(scene, "disc").inertia(), 0.5 * 2 * 0.25);
  EXPECT_DOUBLE_EQ(rigidBody(scene, "plate").inertia(), 3 * (0.16 + 0.04) / 12);
  EXPECT_NEAR(rigidBody(scene, "square").inertia(), 3 * (0.16 + 0.04) / 12, 1e-15);
  // Either winding is accepted, and gives the same body.
  EXPECT_NEAR(rigidBody(scene, "clockwise").inertia(), 3 * (0.16 + 0.04) / 12, 1e-15);
  EXPECT_EQ(rigidBody(scene, "given").inertia(), 0.25);
  // The shipped rigid pendulum gives its inertia explicitly.
  const Scene pendulum = loadScene(kSceneDir / "rigid_pendulum.json");
  EXPECT_DOUBLE_EQ(rigidBody(pendulum, "rod").inertia(), 0.08333333333333333);
}

TEST(RigidScene, StaticAndKinematicBodies) {
  const Scene scene = parseScene(sceneJson(
      rigid("ground", R"("mass": 1, "position": [0, 0], "static": true, "shape": {"type": "box", "size": [4, 0.1]})") +
          ", " +
          rigid("belt", R"("mass": 1, "position": [0, 1], "kinematic": true, "velocity": [0.5, 0], "angular_velocity": 2,
                           "shape": {"type": "box", "size": [1, 0.1]})") +
          ", " + rigid("free", R"("mass": 1, "position": [0, 2], "static": false, "kinematic": false,
                                 "shape": {"type": "circle", "radius": 0.1})"),
      R"({"type": "revolute", "a": "free", "b": "belt", "anchor": [0, 1.5]})"));
  EXPECT_EQ(rigidBody(scene, "ground").motion(), RigidBody::Motion::Static);
  EXPECT_EQ(rigidBody(scene, "belt").motion(), RigidBody::Motion::Kinematic);
  EXPECT_EQ(rigidBody(scene, "free").motion(), RigidBody::Motion::Dynamic);
  EXPECT_EQ(scene.model.velocities(*scene.model.findBody("belt")), Eigen::Vector3d(0.5, 0, 2));
  ConstraintSystem system;
  system.build(scene.model);
  EXPECT_EQ(system.blocks(0).rows, 2);
}

// A joint between a static and a kinematic body, or a rod from a static body to a fixed point,
// could hold nothing: nothing it pushes moves. The loader refuses it (issue #16, class 4) where
// it used to be dropped from the solve silently while the summary reported ‖C‖ = 0.
TEST(RigidScene, AConstraintThatNothingCanMoveIsRefused) {
  const std::string bodies =
      rigid("ground", R"("mass": 1, "position": [0, 0], "static": true, "shape": {"type": "box", "size": [4, 0.1]})") +
      ", " + rigid("belt", R"("mass": 1, "position": [0, 1], "kinematic": true, "velocity": [0.5, 0],
                              "shape": {"type": "box", "size": [1, 0.1]})");
  for (const char* c : {R"({"type": "weld", "a": "ground", "b": "belt", "anchor": [0, 0.5]})",
                        R"({"type": "distance", "a": "belt", "b": [3, 3]})",
                        R"({"type": "revolute", "a": "ground", "anchor": [1, 0]})"}) {
    try {
      (void)parseScene(sceneJson(bodies, c));
      ADD_FAILURE() << "accepted " << c;
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), "constraints[0]") << e.what();
      EXPECT_NE(std::string(e.what()).find("joins only static or kinematic bodies"), std::string::npos) << e.what();
    }
  }
}

// World anchors at the initial pose become sites in each body's frame: at the initial pose the
// joint's points sit on the anchor, and every joint the loader builds starts satisfied.
TEST(RigidScene, AnchorsBecomeBodySitesOfRotatedBodies) {
  const std::string bodies =
      rigid("a", R"("mass": 1, "position": [0.3, -0.2], "angle": 0.6, "shape": {"type": "box", "size": [1, 0.1]})") +
      ", " +
      rigid("b", R"("mass": 2, "position": [1.1, 0.4], "angle": -1.1, "shape": {"type": "box", "size": [1, 0.1]})") +
      ", " +
      rigid("c", R"("mass": 1, "position": [-0.7, 0.9], "angle": 2.3, "velocity": [0.1, 0.2],
                    "angular_velocity": 0.5, "shape": {"type": "circle", "radius": 0.2})");
  const Scene scene = parseScene(sceneJson(bodies, R"(
      {"type": "revolute", "a": "a", "b": "b", "anchor": [0.7, 0.1], "lower": -0.5, "upper": 0.5},
      {"type": "weld", "a": "b", "b": "c", "anchor": [0.2, 0.8]},
      {"type": "prismatic", "a": "a", "b": "b", "anchor": [0.5, -0.3], "axis": [1, 1], "lower": -0.2, "upper": 0.4,
       "motor_speed": 0.5, "max_motor_force": 10},
      {"type": "prismatic", "a": "c", "anchor": [-0.9, 1.0], "axis": [0, 2]},
      {"type": "revolute", "a": "c", "anchor": [-0.6, 0.7]},
      {"type": "angle", "a": "a", "b": "c", "ratio": -2},
      {"type": "distance", "a": "a", "anchor_a": [0.6, 0.0], "b": "c", "anchor_b": [-0.8, 1.1]},
      {"type": "pulley", "a": "a", "anchor_a": [0.1, -0.3], "b": "b", "anchor_b": [1.3, 0.2],
       "ground_a": [0, 3], "ground_b": [2, 3], "ratio": 2},
      {"type": "mouse", "a": "b", "anchor": [1.0, 0.6], "max_force": 50}
  )",
                                           R"("settings": {"formulation": "velocity"})"));
  const Model& model = scene.model;
  ASSERT_EQ(model.constraintCount(), 9u);
  const auto expectAt = [&](const BodyPoint& p, const Eigen::Vector2d& anchor, const char* what) {
    EXPECT_LT((model.position(p) - anchor).norm(), 1e-14) << what;
  };
  const auto& hinge = constraintAs<RevoluteJoint>(scene, 0);
  expectAt(hinge.connection().a, {0.7, 0.1}, "revolute a");
  expectAt(*hinge.connection().b, {0.7, 0.1}, "revolute b");
  EXPECT_NEAR(hinge.referenceAngle(), 0.6 - -1.1, 1e-15);
  // The site is the anchor in a's frame: R(−θ_a) (anchor − c_a).
  EXPECT_TRUE(hinge.connection().a.site.local.isApprox(Eigen::Rotation2Dd(-0.6) * Eigen::Vector2d(0.4, 0.3)));
  const auto& weld = constraintAs<WeldJoint>(scene, 1);
  expectAt(weld.connection().a, {0.2, 0.8}, "weld a");
  expectAt(*weld.connection().b, {0.2, 0.8}, "weld b");
  EXPECT_NEAR(weld.referenceAngle(), -1.1 - 2.3, 1e-15);
  const auto& slider = constraintAs<PrismaticJoint>(scene, 2);
  expectAt(slider.connection().a, {0.5, -0.3}, "prismatic a");
  expectAt(*slider.connection().b, {0.5, -0.3}, "prismatic b");
  // The axis is given in the world at the initial pose and kept in b's frame.
  EXPECT_TRUE(slider.axis().isApprox(Eigen::Rotation2Dd(1.1) * Eigen::Vector2d(1, 1).normalized()));
  EXPECT_EQ(slider.limits().lower, -0.2);
  EXPECT_EQ(slider.limits().upper, 0.4);
  ASSERT_TRUE(slider.motor().has_value());
  EXPECT_EQ(slider.motor()->speed, 0.5);
  EXPECT_EQ(slider.motor()->maxForce, 10.0);
  const auto& worldSlider = constraintAs<PrismaticJoint>(scene, 3);
  expectAt(worldSlider.connection().a, {-0.9, 1.0}, "prismatic to the world");
  EXPECT_EQ(worldSlider.connection().ground, Eigen::Vector2d(-0.9, 1.0));
  EXPECT_TRUE(worldSlider.axis().isApprox(Eigen::Vector2d(0, 1)));
  EXPECT_NEAR(worldSlider.referenceAngle(), 2.3, 1e-15);
  const auto& pin = constraintAs<RevoluteJoint>(scene, 4);
  expectAt(pin.connection().a, {-0.6, 0.7}, "revolute to the world (no b)");
  EXPECT_FALSE(pin.connection().b.has_value());
  const auto& gear = constraintAs<AngleJoint>(scene, 5);
  EXPECT_EQ(gear.ratio(), -2.0);
  EXPECT_NEAR(gear.referenceAngle(), 0.6 + 2 * 2.3, 1e-15);
  const auto rod = settingsOf<DistanceConstraintSettings>(scene, 6);
  expectAt(rod.a, {0.6, 0.0}, "distance a");
  expectAt(*rod.b, {-0.8, 1.1}, "distance b");
  EXPECT_NEAR(*rod.length, (Eigen::Vector2d(0.6, 0.0) - Eigen::Vector2d(-0.8, 1.1)).norm(), 1e-15);
  const auto& pulley = constraintAs<PulleyJoint>(scene, 7);
  expectAt(pulley.points()[0], {0.1, -0.3}, "pulley a");
  expectAt(pulley.points()[1], {1.3, 0.2}, "pulley b");
  // No "length": the initial |x_a − g_a| + r |x_b − g_b|.
  EXPECT_NEAR(pulley.length(),
              (Eigen::Vector2d(0.1, -3.3)).norm() + 2 * (Eigen::Vector2d(-0.7, -2.8)).norm(), 1e-14);
  const auto& mouse = constraintAs<MouseJoint>(scene, 8);
  expectAt(mouse.points()[0], {1.0, 0.6}, "mouse");
  // Defaults: the target is the anchor, 5 Hz, damping ratio 0.7.
  EXPECT_EQ(mouse.target(), Eigen::Vector2d(1.0, 0.6));
  EXPECT_EQ(mouse.spring().frequency, 5.0);
  EXPECT_EQ(mouse.spring().dampingRatio, 0.7);
  EXPECT_EQ(mouse.maxForce(), 50.0);

  // Every joint starts satisfied: equality rows at zero, limits at or inside their range.
  ConstraintSystem system;
  system.build(model);
  system.evaluate(model.state());
  EXPECT_LT(system.maxViolation(), 1e-14);
  // And every joint the loader built has correct derivatives at the initial state.
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    EXPECT_LT(auditConstraint(model, model.constraintAt(k)).worst(), kDerivativeAuditTolerance)
        << model.describe(model.constraintAt(k));
  }
}

// A distance joint without "anchor_a"/"anchor_b" acts on the body's center (joints with an
// "anchor" field require it: RejectsBadRigidScene/revolute_without_anchor).
TEST(RigidScene, DistanceJointsWithoutAnchorsActOnTheCenters) {
  const Scene scene = parseScene(joint(R"({"type": "distance", "a": "p", "b": "arm"})"));
  const auto rod = settingsOf<DistanceConstraintSettings>(scene, 0);
  EXPECT_EQ(rod.b->site.local, Eigen::Vector2d::Zero());
  EXPECT_NEAR(rod.length.value(), std::sqrt(0.5), 1e-15);
}

// Limits, motors and the mouse joint load at any formulation (the command line may switch it),
// but the acceleration level refuses them, naming the constraint, and `check` exits with 2.
// What the loader accepts, the simulator runs (issue #16, class 5): a limit, a mouse joint, a
// motor or a rope at the acceleration level is a SceneError at the constraint's JSON path, not an
// exception from the Simulator; the same scene loads and runs at the velocity level, also when a
// command line's flag sets it (SettingsAdjustment).
TEST(RigidScene, VelocityOnlyRowsAreRefusedByTheAccelerationLevel) {
  for (const char* c : {R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "lower": -1, "upper": 1})",
                        R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "motor_speed": 1, "max_motor_force": 5})",
                        R"({"type": "distance", "a": "rod", "b": [0, 1], "max_length": 2})",
                        R"({"type": "mouse", "a": "rod", "anchor": [0, 0], "max_force": 10})"}) {
    try {
      (void)parseScene(joint(c));
      ADD_FAILURE() << "accepted " << c;
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), "constraints[0]") << e.what();
      EXPECT_NE(std::string(e.what()).find(R"(needs "formulation": "velocity")"), std::string::npos) << e.what();
    }
    Scene scene = parseScene(joint(c), "<string>", [](SimulationSettings& s) { s.formulation = FormulationKind::Velocity; });
    EXPECT_NO_THROW(Simulator(scene.model, scene.settings));
    scene = parseScene(joint(c, R"({"formulation": "velocity"})"));
    EXPECT_NO_THROW(Simulator(scene.model, scene.settings));
  }
}

TEST(RigidScene, DistanceJointModes) {
  const Scene scene = parseScene(joint(R"(
      {"type": "distance", "id": "rope", "a": "rod", "anchor_a": [1, 0], "b": [1, 2], "max_length": 2.5},
      {"type": "distance", "a": "rod", "b": "arm", "min_length": 0.5},
      {"type": "distance", "a": "rod", "b": "arm", "min_length": 0.5, "max_length": 2, "break_force": 40},
      {"type": "distance", "a": "arm", "b": [0, 3], "frequency": 2, "damping_ratio": 0.3},
      {"type": "distance", "a": "arm", "b": "p", "length": 0.9, "frequency": 2, "min_length": 0.2, "max_length": 3})",
                                       R"({"formulation": "velocity"})"));
  const Model& model = scene.model;
  const auto kinds = [&](std::size_t k) {
    const Constraint& c = model.constraint(model.constraintAt(k));
    std::vector<RowKind> result;
    for (int r = 0; r < c.rows(); ++r) result.push_back(c.rowKind(r));
    return result;
  };
  using K = RowKind;
  EXPECT_EQ(kinds(0), (std::vector<RowKind>{K::Inequality}));
  EXPECT_EQ(model.describe(model.constraintAt(0)), "rope");
  EXPECT_EQ(kinds(1), (std::vector<RowKind>{K::Inequality}));
  EXPECT_EQ(kinds(2), (std::vector<RowKind>{K::Inequality, K::Inequality}));
  EXPECT_EQ(model.breakForce(model.constraintAt(2)), 40.0);
  EXPECT_TRUE(std::isinf(model.breakForce(model.constraintAt(1))));
  EXPECT_EQ(kinds(3), (std::vector<RowKind>{K::Spring}));
  // A spring's rest length defaults to the initial distance.
  const auto spring = settingsOf<DistanceConstraintSettings>(scene, 3);
  EXPECT_NEAR(spring.length.value(), (Eigen::Vector2d(1.5, 0.5) - Eigen::Vector2d(0, 3)).norm(), 1e-15);
  ASSERT_TRUE(spring.spring.has_value());
  EXPECT_EQ(spring.spring->frequency, 2.0);
  EXPECT_EQ(spring.spring->dampingRatio, 0.3);
  EXPECT_EQ(kinds(4), (std::vector<RowKind>{K::Spring, K::Inequality, K::Inequality}));
  EXPECT_EQ(settingsOf<DistanceConstraintSettings>(scene, 4).length, 0.9);
}

TEST(RigidScene, ReadsJointLimitsMotorsAndBreakForces) {
  const Scene scene = parseScene(joint(R"(
      {"type": "revolute", "a": "rod", "anchor": [0, 0], "lower": -1, "upper": 1.5, "motor_speed": -2,
       "max_motor_force": 0, "break_force": 100},
      {"type": "revolute", "a": "arm", "b": "rod", "anchor": [1, 0], "upper": 0},
      {"type": "prismatic", "a": "arm", "b": "rod", "anchor": [1, 0.2], "axis": [0, 3], "lower": 0, "upper": 0})",
                                       R"({"formulation": "velocity"})"));
  const auto& motorised = constraintAs<RevoluteJoint>(scene, 0);
  EXPECT_EQ(motorised.limits().lower, -1.0);
  EXPECT_EQ(motorised.limits().upper, 1.5);
  ASSERT_TRUE(motorised.motor().has_value());
  EXPECT_EQ(motorised.motor()->speed, -2.0);
  EXPECT_EQ(motorised.motor()->maxForce, 0.0);
  EXPECT_EQ(motorised.rows(), 5);
  EXPECT_EQ(scene.model.breakForce(scene.model.constraintAt(0)), 100.0);
  const auto& upperOnly = constraintAs<RevoluteJoint>(scene, 1);
  EXPECT_TRUE(std::isinf(upperOnly.limits().lower));
  EXPECT_EQ(upperOnly.limits().upper, 0.0);
  EXPECT_FALSE(upperOnly.motor().has_value());
  EXPECT_EQ(upperOnly.rows(), 3);
  EXPECT_NEAR(upperOnly.referenceAngle(), 0.6, 1e-15);
  // lower = upper is allowed: the slide is locked.
  EXPECT_EQ(constraintAs<PrismaticJoint>(scene, 2).rows(), 4);
}

TEST(RigidScene, ReadsTheVelocityLevelSettings) {
  const Scene scene = parseScene(settings(R"({"formulation": "velocity", "solver": "sequential", "iterations": 25,
                                               "substeps": 8, "warm_start": false, "position_correction": "projection"})"));
  EXPECT_EQ(scene.settings.formulation, FormulationKind::Velocity);
  EXPECT_EQ(scene.settings.solver.kind, SolverKind::SequentialImpulses);
  EXPECT_EQ(scene.settings.velocity.iterations, 25);
  EXPECT_EQ(scene.settings.velocity.substeps, 8);
  EXPECT_FALSE(scene.settings.velocity.warmStart);
  EXPECT_EQ(scene.settings.velocity.positionCorrection, PositionCorrection::Projection);
  const Scene other = parseScene(settings(R"({"formulation": "acceleration", "position_correction": "none"})"));
  EXPECT_EQ(other.settings.formulation, FormulationKind::Acceleration);
  EXPECT_EQ(other.settings.velocity.positionCorrection, PositionCorrection::None);
  // Defaults.
  const Scene defaults = parseScene("{}");
  EXPECT_EQ(defaults.settings.formulation, FormulationKind::Acceleration);
  EXPECT_EQ(defaults.settings.velocity.iterations, 10);
  EXPECT_EQ(defaults.settings.velocity.substeps, 1);
  EXPECT_TRUE(defaults.settings.velocity.warmStart);
  EXPECT_EQ(defaults.settings.velocity.positionCorrection, PositionCorrection::Baumgarte);
  EXPECT_EQ(parseScene(settings(R"({"position_correction": "baumgarte"})")).settings.velocity.positionCorrection,
            PositionCorrection::Baumgarte);
}

TEST(RigidScene, ReadsTheDirectSolversSettings) {
  const Scene scene =
      parseScene(settings(R"({"solver": "ldlt", "factorization": "supernodal", "reuse_iterations": 4, "threads": 2})"));
  EXPECT_EQ(scene.settings.solver.factorization, FactorizationKind::Supernodal);
  EXPECT_EQ(scene.settings.solver.reuseIterations, 4);
  EXPECT_EQ(scene.settings.threads, 2);
  EXPECT_EQ(parseScene(settings(R"({"reuse_iterations": "auto"})")).settings.solver.reuseIterations, -1);
  EXPECT_EQ(parseScene(settings(R"({"reuse_iterations": 0})")).settings.solver.reuseIterations, 0);
  const Scene defaults = parseScene("{}");
  EXPECT_EQ(defaults.settings.solver.factorization, FactorizationKind::Automatic);
  EXPECT_EQ(defaults.settings.solver.reuseIterations, -1);
  EXPECT_EQ(defaults.settings.threads, 1);
  // Written back as read.
  for (const char* text : {R"({"factorization": "simplicial", "reuse_iterations": 7, "threads": 2})",
                           R"({"reuse_iterations": "auto"})"}) {
    const Scene read = parseScene(settings(text));
    const Scene again = parseScene(writeScene(read));
    EXPECT_EQ(again.settings.solver.factorization, read.settings.solver.factorization) << text;
    EXPECT_EQ(again.settings.solver.reuseIterations, read.settings.solver.reuseIterations) << text;
    EXPECT_EQ(again.settings.threads, read.settings.threads) << text;
  }
}

TEST(RigidScene, ReadsAndWritesTheSoftStepsSettings) {
  for (const char* collisions : {"true", "false"}) {
    SCOPED_TRACE(collisions);
    const std::string text = R"({"formulation": "velocity", "solver": "sequential", "position_correction": "soft",
                                 "joint_hertz": 30, "joint_damping_ratio": 0.7, "contact_hertz": 45,
                                 "contact_damping_ratio": 3, "friction": 0.25, "collisions": )" +
                             std::string(collisions) + "}";
    const Scene read = parseScene(settings(text.c_str()));
    const Scene again = parseScene(writeScene(read));
    for (const Scene* scene : {&read, &again}) {
      EXPECT_EQ(scene->settings.velocity.positionCorrection, PositionCorrection::SoftStep);
      EXPECT_EQ(scene->settings.velocity.jointHertz, 30.0);
      EXPECT_EQ(scene->settings.velocity.jointDampingRatio, 0.7);
      EXPECT_EQ(scene->settings.velocity.contactHertz, 45.0) << "kept even while collisions are off";
      EXPECT_EQ(scene->settings.velocity.contactDampingRatio, 3.0);
      EXPECT_EQ(scene->settings.velocity.friction, 0.25);
    }
  }
  const Scene defaults = parseScene("{}");
  EXPECT_EQ(defaults.settings.velocity.jointHertz, 60.0);
  EXPECT_EQ(defaults.settings.velocity.jointDampingRatio, 2.0);
  EXPECT_EQ(defaults.settings.velocity.contactHertz, 30.0);
  EXPECT_EQ(defaults.settings.velocity.contactDampingRatio, 10.0);
  EXPECT_EQ(writeScene(defaults).find("contact_hertz"), std::string::npos) << "defaults without collisions stay out";
}

TEST(RigidScene, ReadsAndWritesTheSleepSettings) {
  const Scene read = parseScene(settings(R"({"formulation": "velocity", "solver": "sequential", "collisions": true,
                                              "sleep": true, "sleep_speed": 0.02, "sleep_time": 1.5})"));
  const Scene again = parseScene(writeScene(read));
  for (const Scene* scene : {&read, &again}) {
    EXPECT_TRUE(scene->settings.velocity.sleep);
    EXPECT_EQ(scene->settings.velocity.sleepSpeed, 0.02);
    EXPECT_EQ(scene->settings.velocity.sleepTime, 1.5);
  }
  const Scene defaults = parseScene("{}");
  EXPECT_FALSE(defaults.settings.velocity.sleep);
  EXPECT_EQ(defaults.settings.velocity.sleepSpeed, 0.05);
  EXPECT_EQ(defaults.settings.velocity.sleepTime, 0.5);
  EXPECT_EQ(writeScene(defaults).find("sleep"), std::string::npos) << "defaults stay out";
}

// Every shipped scene loads, every constraint and body in it passes the derivative audit at
// the initial state, every scene starts legal, and every scene can take a step.
TEST(RigidScene, EveryShippedSceneLoadsAuditsAndSteps) {
  int count = 0, rigidScenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSceneDir)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().filename().string());
    Scene scene = loadScene(entry.path());
    Model& model = scene.model;
    bool hasRigid = false;
    for (std::size_t b = 0; b < model.bodyCount(); ++b) {
      const BodyId id = model.bodyAt(b);
      hasRigid = hasRigid || model.body(id).type() == "rigid";
      EXPECT_LT(auditBody(model, id).worst(), kDerivativeAuditTolerance) << model.describe(id);
    }
    for (std::size_t k = 0; k < model.constraintCount(); ++k) {
      EXPECT_LT(auditConstraint(model, model.constraintAt(k)).worst(), kDerivativeAuditTolerance)
          << model.describe(model.constraintAt(k));
    }
    ConstraintSystem system;
    system.build(model);
    system.evaluate(model.state());
    EXPECT_LT(system.maxViolation(), 1e-6);
    Simulator sim(model, scene.settings);
    EXPECT_NO_THROW(sim.step());
    rigidScenes += hasRigid ? 1 : 0;
    ++count;
  }
  EXPECT_GE(count, 21);
  EXPECT_GE(rigidScenes, 7);
}

}  // namespace
}  // namespace tinkertoy
