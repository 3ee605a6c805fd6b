// Scene loading of rigid bodies and joints (docs/scene-format.md, "rigid" and "Joints"): the
// documented example, defaults, world anchors turned into body sites, the velocity-level
// settings, every shipped scene, and every kind of bad input rejected with its JSON path and a
// reason.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/scratch_directory.hpp"
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

// ---- building scene text -----------------------------------------------------------------

std::string rigid(const std::string& id, const std::string& fields) {
  return R"({"id": ")" + id + R"(", "type": "rigid", )" + fields + "}";
}

// A rod along x from the origin, and a disc turned by 0.6 rad: the bodies most joints join.
const std::string kRod = rigid("rod", R"("mass": 1, "position": [0.5, 0], "shape": {"type": "box", "size": [1, 0.05]})");
const std::string kArm =
    rigid("arm", R"("mass": 2, "position": [1.5, 0.5], "angle": 0.6, "shape": {"type": "circle", "radius": 0.2})");
const std::string kParticle = R"("particles": [{"id": "p", "mass": 1, "position": [1, 0]}])";

// {extra, "bodies": [bodies], "constraints": [constraints]}
std::string sceneJson(const std::string& bodies, const std::string& constraints = "", const std::string& extra = "") {
  return "{" + extra + (extra.empty() ? "" : ", ") + R"("bodies": [)" + bodies + R"(], "constraints": [)" + constraints +
         "]}";
}
// One rigid body "b" with the given fields.
std::string oneBody(const std::string& fields) { return sceneJson(rigid("b", fields)); }
// The rod, the arm and the particle "p", joined by one constraint.
std::string joint(const std::string& constraint, const std::string& settings = "") {
  return sceneJson(kRod + ", " + kArm, constraint, kParticle + (settings.empty() ? "" : ", \"settings\": " + settings));
}
// A scene with only settings.
std::string settings(const std::string& object) { return R"({"settings": )" + object + "}"; }

const std::string kBox = R"("mass": 1, "position": [0, 0], "shape": {"type": "box", "size": [1, 0.1]})";
std::string shape(const std::string& object) { return R"("mass": 1, "position": [0, 0], "shape": )" + object; }

// ---- loading -----------------------------------------------------------------------------

template <class T>
const T& constraintAs(const Scene& scene, std::size_t index) {
  return dynamic_cast<const T&>(scene.model.constraint(scene.model.constraintAt(index)));
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
      R"({"type": "weld", "a": "ground", "b": "belt", "anchor": [0, 0.5]},
         {"type": "revolute", "a": "free", "b": "belt", "anchor": [0, 1.5]})"));
  EXPECT_EQ(rigidBody(scene, "ground").motion(), RigidBody::Motion::Static);
  EXPECT_EQ(rigidBody(scene, "belt").motion(), RigidBody::Motion::Kinematic);
  EXPECT_EQ(rigidBody(scene, "free").motion(), RigidBody::Motion::Dynamic);
  EXPECT_EQ(scene.model.velocities(*scene.model.findBody("belt")), Eigen::Vector3d(0.5, 0, 2));
  // A joint between a static and a kinematic body moves nothing and gets no rows.
  ConstraintSystem system;
  system.build(scene.model);
  EXPECT_EQ(system.blocks(0).rows, 0);
  EXPECT_EQ(system.blocks(1).rows, 2);
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
  const auto& rod = constraintAs<DistanceConstraint>(scene, 6);
  expectAt(rod.points()[0], {0.6, 0.0}, "distance a");
  expectAt(rod.points()[1], {-0.8, 1.1}, "distance b");
  EXPECT_NEAR(rod.length(), (Eigen::Vector2d(0.6, 0.0) - Eigen::Vector2d(-0.8, 1.1)).norm(), 1e-15);
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
  system.evaluate(model, {model.time(), model.q(), model.v()});
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
  const auto& rod = constraintAs<DistanceConstraint>(scene, 0);
  EXPECT_EQ(rod.points()[1].site.local, Eigen::Vector2d::Zero());
  EXPECT_NEAR(rod.length(), std::sqrt(0.5), 1e-15);
}

// Limits, motors and the mouse joint load at any formulation (the command line may switch it),
// but the acceleration level refuses them, naming the constraint, and `check` exits with 2.
TEST(RigidScene, VelocityOnlyRowsAreRefusedByTheAccelerationLevel) {
  for (const char* c : {R"({"type": "revolute", "a": "rod", "anchor": [0, 0], "lower": -1, "upper": 1})",
                        R"({"type": "mouse", "a": "rod", "anchor": [0, 0], "max_force": 10})"}) {
    Scene scene = parseScene(joint(c));
    try {
      Simulator simulator(scene.model, scene.settings);
      ADD_FAILURE() << "accepted " << c;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("constraints[0]"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("use the velocity formulation"), std::string::npos) << e.what();
    }
    scene.settings.formulation = FormulationKind::Velocity;
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
  const auto& spring = constraintAs<DistanceConstraint>(scene, 3);
  EXPECT_NEAR(spring.length(), (Eigen::Vector2d(1.5, 0.5) - Eigen::Vector2d(0, 3)).norm(), 1e-15);
  ASSERT_TRUE(spring.settings().spring.has_value());
  EXPECT_EQ(spring.settings().spring->frequency, 2.0);
  EXPECT_EQ(spring.settings().spring->dampingRatio, 0.3);
  EXPECT_EQ(kinds(4), (std::vector<RowKind>{K::Spring, K::Inequality, K::Inequality}));
  EXPECT_EQ(constraintAs<DistanceConstraint>(scene, 4).length(), 0.9);
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
    system.evaluate(model, {model.time(), model.q(), model.v()});
    EXPECT_LT(system.maxViolation(), 1e-6);
    Simulator sim(model, scene.settings);
    EXPECT_NO_THROW(sim.step());
    rigidScenes += hasRigid ? 1 : 0;
    ++count;
  }
  EXPECT_GE(count, 21);
  EXPECT_GE(rigidScenes, 7);
}

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
      {"unknown shape type without a match", oneBody(shape(R"({"type": "capsule"})")), "bodies[0].shape.type",
       "known types: circle, box, polygon"},
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
      // Settings of the velocity level.
      {"unknown formulation", settings(R"({"formulation": "velocty"})"), "settings.formulation",
       "unknown formulation 'velocty'; expected acceleration or velocity"},
      {"formulation not a string", settings(R"({"formulation": 1})"), "settings.formulation", "expected a string"},
      {"unknown position correction", settings(R"({"position_correction": "baumgart"})"),
       "settings.position_correction", "unknown position correction 'baumgart'; expected none, baumgarte or projection"},
      {"zero iterations", settings(R"({"iterations": 0})"), "settings.iterations", "must be between 1 and 100000"},
      {"negative iterations", settings(R"({"iterations": -3})"), "settings.iterations", "must be between 1 and 100000"},
      {"fractional iterations", settings(R"({"iterations": 2.5})"), "settings.iterations", "expected an integer, got 2.5"},
      {"zero substeps", settings(R"({"substeps": 0})"), "settings.substeps", "must be between 1 and 10000"},
      {"substeps as a string", settings(R"({"substeps": "4"})"), "settings.substeps", "expected an integer, got a string"},
      {"warm_start not a boolean", settings(R"({"warm_start": 1})"), "settings.warm_start", "expected true or false"},
      {"setting typo", settings(R"({"substep": 4})"), "settings.substep", "did you mean 'substeps'"},
      {"sequential solver at the acceleration level", settings(R"({"solver": "sequential"})"), "settings",
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
                         [](const ::testing::TestParamInfo<BadRigidScene>& p) {
                           std::string name = p.param.label;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

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
