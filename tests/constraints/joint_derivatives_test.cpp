// Finite-difference checks of every rigid-body joint and of the distance joint's modes, at
// random states of rigid bodies (positions, angles far outside [−π, π], velocities, angular
// velocities) and between particles and rigid bodies; the rows' meaning (C, Ċ, kinds and
// parameters) at known states; the chain rule through rigid bodies in the assembled system;
// the rigid body's point kinematics and mass terms; and closed forms of Shape::inertia.
//
// The joint parts in src/constraints/parts/ are audited on their own (JointParts, below), and
// every part is also reached through a public joint:
//
//   axisTerm, world axis            revolute and weld rows 0–1, mouse rows, prismatic to the world
//   axisTerm, axis in b's frame     prismatic between two bodies (rows 0, limits, motor)
//   axisTerm with a world end       revolute/weld/prismatic to the ground, mouse joint
//   angleTerm (ratio 1, r ≠ 1)      weld row 2, revolute/prismatic limits and motor, angle joint
//   angleTerm with a world end      angle joint to the world, weld to the world
//   distanceTerm                    distance joint (rigid, spring, min, max), pulley (two ends)
//   CoordinateRows                  lower only, lower and upper, motor, limits and motor
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "constraints/parts/angle_term.hpp"
#include "constraints/parts/axis_term.hpp"
#include "constraints/parts/distance_term.hpp"
#include "tinkertoy/constraints/angle_joint.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/mouse_joint.hpp"
#include "tinkertoy/constraints/prismatic_joint.hpp"
#include "tinkertoy/constraints/pulley_joint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/constraints/weld_joint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "support/system_differences.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy {
namespace {

constexpr double kPi = std::numbers::pi;

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

Eigen::Vector2d random2(std::mt19937& rng, double scale) { return {uniform(rng, -scale, scale), uniform(rng, -scale, scale)}; }

Eigen::Vector2d rotated(double angle, const Eigen::Vector2d& x) { return Eigen::Rotation2Dd(angle) * x; }

// Two dynamic rigid bodies and a particle, all at random states. Angles range over several
// turns so that nothing may silently wrap them.
struct RigidPair {
  Model model{2};
  BodyId a, b, particle;
  // Off-centre sites, in each body's frame.
  BodyPoint siteA, siteB;

  explicit RigidPair(std::mt19937& rng) {
    a = addRandomRigid(rng, 2.0, Shape::box(1.0, 0.2));
    b = addRandomRigid(rng, 1.5, Shape::circle(0.3));
    particle = model.addParticle(0.7, random2(rng, 2.0), random2(rng, 3.0));
    siteA = BodyPoint{a, Eigen::Vector2d(0.4, -0.1)};
    siteB = BodyPoint{b, Eigen::Vector2d(-0.2, 0.25)};
    model.setTime(0.4);
  }

  BodyId addRandomRigid(std::mt19937& rng, double mass, Shape shape) {
    const double inertia = shape.inertia(mass);
    const Eigen::Vector2d x = random2(rng, 2.0), v = random2(rng, 3.0);
    const Eigen::Vector3d q(x.x(), x.y(), uniform(rng, -7.0, 7.0));
    const Eigen::Vector3d qDot(v.x(), v.y(), uniform(rng, -5.0, 5.0));
    return model.addBody(std::make_unique<RigidBody>(mass, inertia, std::move(shape)), q, qDot);
  }

  [[nodiscard]] double angle(BodyId id) const { return model.coordinates(id)[2]; }
  [[nodiscard]] double angularVelocity(BodyId id) const { return model.velocities(id)[2]; }
  [[nodiscard]] Eigen::Vector2d position(const BodyPoint& p) const { return model.position(p); }
  [[nodiscard]] Eigen::Vector2d velocity(const BodyPoint& p) const { return model.velocity(p); }
};

void expectDerivativesMatch(const Model& model, ConstraintId id, const std::string& label) {
  const DerivativeAuditResult r = auditConstraint(model, id);
  EXPECT_LT(r.jacobian, kDerivativeAuditTolerance) << label;
  EXPECT_LT(r.velocity, kDerivativeAuditTolerance) << label;
  EXPECT_LT(r.jacobianDot, kDerivativeAuditTolerance) << label;
  EXPECT_LT(r.acceleration, kDerivativeAuditTolerance) << label;
}

// C, Ċ, the row kinds and the row parameters of a model's constraints, as the engine assembles them.
struct Rows {
  Eigen::VectorXd C, Cdot;
  std::vector<RowKind> kinds;
  std::vector<RowParameters> parameters;
};

Rows evaluateRows(const Model& model) {
  ConstraintSystem system;
  system.build(model);
  system.evaluate(model.state());
  return {system.value(), system.velocity(), {system.kinds().begin(), system.kinds().end()},
          {system.parameters().begin(), system.parameters().end()}};
}

// ---- every joint at random states --------------------------------------------------------

constexpr RowKind E = RowKind::Equality, I = RowKind::Inequality, M = RowKind::Motor, S = RowKind::Spring;

struct JointCase {
  const char* label;
  std::function<std::unique_ptr<Constraint>(const RigidPair&)> make;
  std::vector<RowKind> kinds;
};

const JointLimits kAngleLimits{.lower = -0.4, .upper = 0.9};
const JointLimits kSlideLimits{.lower = -0.5, .upper = 0.7};
const JointMotor kMotor{.speed = 2.0, .maxForce = 50.0};
const JointSpring kSpring{.frequency = 3.0, .dampingRatio = 0.4};

JointConnection between(const RigidPair& s) { return {.a = s.siteA, .b = s.siteB}; }
JointConnection toWorld(const BodyPoint& a) { return {.a = a, .ground = Eigen::Vector2d(0.3, -0.2)}; }

const std::vector<JointCase>& jointCases() {
  static const std::vector<JointCase> cases = {
      {"revolute", [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(between(s)); }, {E, E}},
      {"revolute_limits",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(between(s), 0.3, kAngleLimits); },
       {E, E, I, I}},
      {"revolute_lower_limit_only",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(between(s), 0.3, JointLimits{.lower = -0.2}); },
       {E, E, I}},
      {"revolute_upper_limit_only",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(between(s), -0.1, JointLimits{.upper = 0.2}); },
       {E, E, I}},
      {"revolute_motor",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(between(s), 0.0, JointLimits{}, kMotor); },
       {E, E, M}},
      {"revolute_limits_and_motor",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(between(s), 0.3, kAngleLimits, kMotor); },
       {E, E, I, I, M}},
      {"revolute_to_world",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(toWorld(s.siteA)); }, {E, E}},
      {"revolute_to_world_with_limits_and_motor",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(toWorld(s.siteA), 1.1, kAngleLimits, kMotor); },
       {E, E, I, I, M}},
      {"revolute_particle_to_rigid",
       [](const RigidPair& s) {
         return std::make_unique<RevoluteJoint>(JointConnection{.a = s.particle, .b = s.siteB});
       },
       {E, E}},
      {"revolute_rigid_to_particle",
       [](const RigidPair& s) {
         return std::make_unique<RevoluteJoint>(JointConnection{.a = s.siteA, .b = BodyPoint{s.particle}});
       },
       {E, E}},
      {"revolute_particle_to_world",
       [](const RigidPair& s) { return std::make_unique<RevoluteJoint>(toWorld(s.particle)); }, {E, E}},
      {"weld", [](const RigidPair& s) { return std::make_unique<WeldJoint>(between(s), 0.7); }, {E, E, E}},
      {"weld_to_world", [](const RigidPair& s) { return std::make_unique<WeldJoint>(toWorld(s.siteB), -0.3); },
       {E, E, E}},
      {"prismatic",
       [](const RigidPair& s) { return std::make_unique<PrismaticJoint>(between(s), Eigen::Vector2d(0.6, 0.8)); },
       {E, E}},
      {"prismatic_limits_and_motor",
       [](const RigidPair& s) {
         return std::make_unique<PrismaticJoint>(between(s), Eigen::Vector2d(0.6, 0.8), 0.2, kSlideLimits, kMotor);
       },
       {E, E, I, I, M}},
      {"prismatic_unnormalized_axis_with_upper_limit",
       [](const RigidPair& s) {
         return std::make_unique<PrismaticJoint>(between(s), Eigen::Vector2d(-3.0, 1.0), -0.4, JointLimits{.upper = 0.3});
       },
       {E, E, I}},
      {"prismatic_to_world",
       [](const RigidPair& s) {
         return std::make_unique<PrismaticJoint>(toWorld(s.siteA), Eigen::Vector2d(-0.28, 0.96), 0.5, kSlideLimits,
                                                 kMotor);
       },
       {E, E, I, I, M}},
      {"angle", [](const RigidPair& s) { return std::make_unique<AngleJoint>(between(s)); }, {E}},
      {"angle_gear_ratio", [](const RigidPair& s) { return std::make_unique<AngleJoint>(between(s), -2.5, 0.4); }, {E}},
      {"angle_to_world", [](const RigidPair& s) { return std::make_unique<AngleJoint>(toWorld(s.siteA), 3.0, 0.2); },
       {E}},
      {"pulley",
       [](const RigidPair& s) {
         return std::make_unique<PulleyJoint>(s.siteA, s.siteB, Eigen::Vector2d(-1, 3), Eigen::Vector2d(2, 3.5), 1.7, 5.0);
       },
       {E}},
      {"pulley_particle_and_rigid",
       [](const RigidPair& s) {
         return std::make_unique<PulleyJoint>(s.particle, s.siteB, Eigen::Vector2d(-1, 3), Eigen::Vector2d(2, 3.5), 0.6,
                                              4.0);
       },
       {E}},
      {"mouse",
       [](const RigidPair& s) {
         return std::make_unique<MouseJoint>(s.siteA, Eigen::Vector2d(0.5, 1.0), JointSpring{4.0, 0.6}, 100.0);
       },
       {S, S}},
      {"mouse_on_particle",
       [](const RigidPair& s) {
         return std::make_unique<MouseJoint>(s.particle, Eigen::Vector2d(-0.5, 1.0), JointSpring{4.0, 0.6}, 100.0);
       },
       {S, S}},
      {"distance_rigid",
       [](const RigidPair& s) { return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.siteB, .length = 1.2}); },
       {E}},
      {"distance_spring",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.siteB, .length = 1.0, .spring = kSpring});
       },
       {S}},
      {"distance_min_only",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.siteB, .minLength = 0.5});
       },
       {I}},
      {"distance_max_only_rope",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.siteB, .maxLength = 2.0});
       },
       {I}},
      {"distance_min_and_max",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.siteB, .minLength = 0.3, .maxLength = 2.5});
       },
       {I, I}},
      {"distance_spring_min_and_max",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.siteB, .length = 1.0, .spring = kSpring, .minLength = 0.3, .maxLength = 2.5});
       },
       {S, I, I}},
      {"distance_rope_to_world",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .anchor = Eigen::VectorXd(Eigen::Vector2d(0.2, 0.1)), .maxLength = 2.0});
       },
       {I}},
      {"distance_spring_to_world",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteB, .anchor = Eigen::VectorXd(Eigen::Vector2d(-0.4, 0.6)), .length = 0.5, .spring = kSpring});
       },
       {S}},
      {"distance_particle_and_rigid",
       [](const RigidPair& s) { return std::make_unique<DistanceConstraint>(s.particle, s.siteB, 1.1); }, {E}},
      {"distance_rope_particle_and_rigid",
       [](const RigidPair& s) {
         return std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.particle, .maxLength = 1.5});
       },
       {I}},
  };
  return cases;
}

class JointDerivatives : public ::testing::TestWithParam<std::size_t> {};

TEST_P(JointDerivatives, MatchFiniteDifferencesAtRandomStates) {
  const JointCase& c = jointCases()[GetParam()];
  std::mt19937 rng(100 + static_cast<unsigned>(GetParam()));
  for (int trial = 0; trial < 20; ++trial) {
    RigidPair s(rng);
    const ConstraintId id = s.model.addConstraint(c.make(s));
    const Constraint& constraint = s.model.constraint(id);
    ASSERT_EQ(constraint.rows(), static_cast<int>(c.kinds.size())) << c.label;
    for (int r = 0; r < constraint.rows(); ++r) {
      EXPECT_EQ(constraint.rowKind(r), c.kinds[static_cast<std::size_t>(r)]) << c.label << " row " << r;
    }
    expectDerivativesMatch(s.model, id, std::string(c.label) + ", trial " + std::to_string(trial));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryJoint, JointDerivatives, ::testing::Range<std::size_t>(0, jointCases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) { return jointCases()[p.param].label; });

// A joint that reads an orientation cannot hold a particle, which has none.
TEST(JointEnds, OrientationJointsRejectParticles) {
  std::mt19937 rng(7);
  RigidPair s(rng);
  const JointConnection withParticle{.a = s.particle, .b = s.siteB};
  EXPECT_THROW(s.model.addConstraint(std::make_unique<WeldJoint>(withParticle)), std::invalid_argument);
  EXPECT_THROW(s.model.addConstraint(std::make_unique<AngleJoint>(withParticle)), std::invalid_argument);
  EXPECT_THROW(s.model.addConstraint(std::make_unique<PrismaticJoint>(withParticle, Eigen::Vector2d(1, 0))),
               std::invalid_argument);
  EXPECT_THROW(s.model.addConstraint(std::make_unique<RevoluteJoint>(withParticle, 0.0, kAngleLimits)),
               std::invalid_argument);
  // Without limits or motor a revolute joint is a pin: a particle is fine.
  EXPECT_NO_THROW(s.model.addConstraint(std::make_unique<RevoluteJoint>(withParticle)));
}

// ---- what the rows mean ------------------------------------------------------------------

// Rows 0, 1 are x_a − x_b; the limits measure θ = φ_a − φ_b − θ_ref; the motor row has C = 0,
// Ċ = θ̇ and carries its target and bound.
TEST(JointRows, RevoluteRowsAreTheOffsetAndTheRelativeAngle) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    RigidPair s(rng);
    const double reference = 0.3;
    s.model.addConstraint(std::make_unique<RevoluteJoint>(between(s), reference, kAngleLimits, kMotor));
    const Rows rows = evaluateRows(s.model);
    ASSERT_EQ(rows.C.size(), 5);
    const Eigen::Vector2d offset = s.position(s.siteA) - s.position(s.siteB);
    const Eigen::Vector2d offsetRate = s.velocity(s.siteA) - s.velocity(s.siteB);
    const double theta = s.angle(s.a) - s.angle(s.b) - reference;
    const double thetaDot = s.angularVelocity(s.a) - s.angularVelocity(s.b);
    EXPECT_NEAR(rows.C[0], offset.x(), 1e-12);
    EXPECT_NEAR(rows.C[1], offset.y(), 1e-12);
    EXPECT_NEAR(rows.Cdot[0], offsetRate.x(), 1e-12);
    EXPECT_NEAR(rows.Cdot[1], offsetRate.y(), 1e-12);
    EXPECT_NEAR(rows.C[2], theta - kAngleLimits.lower, 1e-12);
    EXPECT_NEAR(rows.C[3], kAngleLimits.upper - theta, 1e-12);
    EXPECT_NEAR(rows.Cdot[2], thetaDot, 1e-12);
    EXPECT_NEAR(rows.Cdot[3], -thetaDot, 1e-12);
    EXPECT_EQ(rows.C[4], 0.0);
    EXPECT_NEAR(rows.Cdot[4], thetaDot, 1e-12);
    EXPECT_EQ(rows.parameters[4].targetSpeed, kMotor.speed);
    EXPECT_EQ(rows.parameters[4].maxForce, kMotor.maxForce);
  }
}

// The limit rows are smooth functions of the state whether they are active (C < 0, past the
// limit) or not: the audit passes on both sides, and the sign says which side the joint is on.
TEST(JointRows, LimitRowsActiveAndInactive) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 10; ++trial) {
    for (const bool active : {false, true}) {
      RigidPair s(rng);
      // Revolute: θ = φ_a − φ_b with θ_ref = 0.
      const double theta = s.angle(s.a) - s.angle(s.b);
      const JointLimits angleLimits = active ? JointLimits{.lower = theta + 0.1, .upper = theta + 0.3}
                                             : JointLimits{.lower = theta - 0.1, .upper = theta + 0.1};
      // Prismatic to the world along û: s = û·(x_a − g).
      const Eigen::Vector2d axis(0.6, -0.8), ground(0.3, -0.2);
      const double slide = axis.dot(s.position(s.siteA) - ground);
      const JointLimits slideLimits = active ? JointLimits{.lower = slide - 0.3, .upper = slide - 0.1}
                                             : JointLimits{.lower = slide - 0.1, .upper = slide + 0.1};
      const ConstraintId hinge = s.model.addConstraint(std::make_unique<RevoluteJoint>(between(s), 0.0, angleLimits));
      const ConstraintId slider = s.model.addConstraint(
          std::make_unique<PrismaticJoint>(toWorld(s.siteA), axis, s.angle(s.a), slideLimits));
      const Rows rows = evaluateRows(s.model);
      ASSERT_EQ(rows.C.size(), 8);
      // Revolute rows 2, 3; prismatic rows 4 + 2, 4 + 3.
      EXPECT_NEAR(rows.C[2], active ? -0.1 : 0.1, 1e-12);
      EXPECT_NEAR(rows.C[3], active ? 0.3 : 0.1, 1e-12);
      EXPECT_NEAR(rows.C[6], active ? 0.3 : 0.1, 1e-12);
      EXPECT_NEAR(rows.C[7], active ? -0.1 : 0.1, 1e-12);
      const std::string label = active ? "active" : "inactive";
      expectDerivativesMatch(s.model, hinge, "revolute limits " + label);
      expectDerivativesMatch(s.model, slider, "prismatic limits " + label);
    }
  }
}

// Row 0 is the offset along the normal that turns with b, row 1 the relative angle, and the
// limits and motor act on the slide s = û·(x_a − x_b) with û turning with b.
TEST(JointRows, PrismaticRowsTurnWithB) {
  std::mt19937 rng(13);
  const Eigen::Vector2d axis = Eigen::Vector2d(0.6, 0.8);
  for (int trial = 0; trial < 5; ++trial) {
    RigidPair s(rng);
    s.model.addConstraint(std::make_unique<PrismaticJoint>(between(s), Eigen::Vector2d(3.0, 4.0), 0.2, kSlideLimits, kMotor));
    const Rows rows = evaluateRows(s.model);
    ASSERT_EQ(rows.C.size(), 5);
    const double phiB = s.angle(s.b), omegaB = s.angularVelocity(s.b);
    const Eigen::Vector2d u = rotated(phiB, axis), n(-u.y(), u.x());
    const Eigen::Vector2d d = s.position(s.siteA) - s.position(s.siteB);
    const Eigen::Vector2d dDot = s.velocity(s.siteA) - s.velocity(s.siteB);
    const double slide = u.dot(d);
    // d/dt (û·d) = û·ḋ + ω_b û⊥·d, and û⊥ = n.
    const double slideRate = u.dot(dDot) + omegaB * n.dot(d);
    EXPECT_NEAR(rows.C[0], n.dot(d), 1e-12);
    EXPECT_NEAR(rows.C[1], s.angle(s.a) - phiB - 0.2, 1e-12);
    EXPECT_NEAR(rows.C[2], slide - kSlideLimits.lower, 1e-12);
    EXPECT_NEAR(rows.C[3], kSlideLimits.upper - slide, 1e-12);
    EXPECT_EQ(rows.C[4], 0.0);
    EXPECT_NEAR(rows.Cdot[4], slideRate, 1e-12);
    EXPECT_EQ(rows.parameters[4].targetSpeed, kMotor.speed);
  }
}

TEST(JointRows, WeldAngleAndGearRows) {
  std::mt19937 rng(14);
  RigidPair s(rng);
  s.model.addConstraint(std::make_unique<WeldJoint>(between(s), 0.7));
  s.model.addConstraint(std::make_unique<AngleJoint>(between(s), -2.5, 0.4));
  s.model.addConstraint(std::make_unique<AngleJoint>(toWorld(s.siteA), 3.0, 0.2));
  const Rows rows = evaluateRows(s.model);
  ASSERT_EQ(rows.C.size(), 5);
  const double phiA = s.angle(s.a), phiB = s.angle(s.b);
  const double omegaA = s.angularVelocity(s.a), omegaB = s.angularVelocity(s.b);
  const Eigen::Vector2d offset = s.position(s.siteA) - s.position(s.siteB);
  EXPECT_NEAR(rows.C[0], offset.x(), 1e-12);
  EXPECT_NEAR(rows.C[1], offset.y(), 1e-12);
  EXPECT_NEAR(rows.C[2], phiA - phiB - 0.7, 1e-12);
  EXPECT_NEAR(rows.C[3], phiA + 2.5 * phiB - 0.4, 1e-12);
  EXPECT_NEAR(rows.Cdot[3], omegaA + 2.5 * omegaB, 1e-12);
  // To the world the ratio multiplies the world's angle, 0.
  EXPECT_NEAR(rows.C[4], phiA - 0.2, 1e-12);
  EXPECT_NEAR(rows.Cdot[4], omegaA, 1e-12);
}

TEST(JointRows, PulleyMouseAndDistanceRows) {
  std::mt19937 rng(15);
  RigidPair s(rng);
  const Eigen::Vector2d gA(-1, 3), gB(2, 3.5), target(0.5, 1.0), anchor(0.2, 0.1);
  s.model.addConstraint(std::make_unique<PulleyJoint>(s.siteA, s.siteB, gA, gB, 1.7, 5.0));
  s.model.addConstraint(std::make_unique<MouseJoint>(s.siteA, target, JointSpring{4.0, 0.6}, 100.0));
  s.model.addConstraint(std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = s.siteB, .length = 1.0, .spring = kSpring, .minLength = 0.3, .maxLength = 2.5}));
  s.model.addConstraint(std::make_unique<DistanceConstraint>(
      DistanceConstraintSettings{.a = s.siteA, .anchor = Eigen::VectorXd(anchor), .maxLength = 2.0}));
  const Rows rows = evaluateRows(s.model);
  ASSERT_EQ(rows.C.size(), 1 + 2 + 3 + 1);
  const Eigen::Vector2d xa = s.position(s.siteA), xb = s.position(s.siteB);
  EXPECT_NEAR(rows.C[0], (xa - gA).norm() + 1.7 * (xb - gB).norm() - 5.0, 1e-12);
  EXPECT_NEAR(rows.C[1], xa.x() - target.x(), 1e-12);
  EXPECT_NEAR(rows.C[2], xa.y() - target.y(), 1e-12);
  for (const int r : {1, 2}) {
    EXPECT_EQ(rows.kinds[static_cast<std::size_t>(r)], RowKind::Spring);
    EXPECT_EQ(rows.parameters[static_cast<std::size_t>(r)].frequency, 4.0);
    EXPECT_EQ(rows.parameters[static_cast<std::size_t>(r)].dampingRatio, 0.6);
    EXPECT_EQ(rows.parameters[static_cast<std::size_t>(r)].maxForce, 100.0);
  }
  const double l = (xa - xb).norm();
  EXPECT_NEAR(rows.C[3], l - 1.0, 1e-12);
  EXPECT_EQ(rows.parameters[3].frequency, kSpring.frequency);
  EXPECT_EQ(rows.parameters[3].dampingRatio, kSpring.dampingRatio);
  EXPECT_NEAR(rows.C[4], l - 0.3, 1e-12);
  EXPECT_NEAR(rows.C[5], 2.5 - l, 1e-12);
  EXPECT_NEAR(rows.C[6], 2.0 - (xa - anchor).norm(), 1e-12);
}

// ---- the chain rule through rigid bodies ----------------------------------------------------

using test_support::differencedJacobian;
using test_support::evaluateSystem;
using test_support::SystemEvaluation;

double relativeError(const Eigen::MatrixXd& analytic, const Eigen::MatrixXd& numeric) {
  const double scale = std::max({1.0, analytic.cwiseAbs().maxCoeff(), numeric.cwiseAbs().maxCoeff()});
  return (analytic - numeric).cwiseAbs().maxCoeff() / scale;
}

// Three rigid bodies and a particle joined by every joint, evaluated (never simulated: it is
// over-constrained on purpose) at random states. The assembled J in body coordinates (x, y, θ)
// against central differences of C, column by column; Ċ against J q̇ (no joint depends on t);
// J̇ and J̇ q̇ + Ctt against differences along the motion. Motor rows have no position (C ≡ 0),
// so their J is checked through Ċ = J q̇ only.
TEST(JointChainRule, AssembledJacobianMatchesDifferencesInBodyCoordinates) {
  std::mt19937 rng(21);
  for (int trial = 0; trial < 5; ++trial) {
    RigidPair s(rng);
    Model& model = s.model;
    const BodyId c = s.addRandomRigid(rng, 0.8, Shape::polygon({{-0.3, -0.2}, {0.3, -0.2}, {0.3, 0.2}, {-0.3, 0.2}}));
    const BodyPoint siteC{c, Eigen::Vector2d(0.25, 0.15)};
    model.addConstraint(std::make_unique<RevoluteJoint>(between(s), 0.3, kAngleLimits, kMotor));
    model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(siteC), 0.0, kAngleLimits));
    model.addConstraint(std::make_unique<WeldJoint>(JointConnection{.a = siteC, .b = s.siteA}, 0.5));
    model.addConstraint(std::make_unique<WeldJoint>(toWorld(s.siteB), 0.1));
    model.addConstraint(std::make_unique<PrismaticJoint>(JointConnection{.a = s.siteB, .b = siteC},
                                                         Eigen::Vector2d(0.6, 0.8), 0.2, kSlideLimits, kMotor));
    model.addConstraint(std::make_unique<PrismaticJoint>(toWorld(s.siteA), Eigen::Vector2d(-0.28, 0.96), 0.5,
                                                         kSlideLimits, kMotor));
    model.addConstraint(std::make_unique<AngleJoint>(JointConnection{.a = siteC, .b = s.siteB}, -2.5, 0.4));
    model.addConstraint(std::make_unique<AngleJoint>(toWorld(s.siteA), 1.0, 0.2));
    model.addConstraint(std::make_unique<PulleyJoint>(s.particle, siteC, Eigen::Vector2d(-1, 3), Eigen::Vector2d(2, 3.5),
                                                      1.7, 5.0));
    model.addConstraint(std::make_unique<MouseJoint>(s.siteB, Eigen::Vector2d(0.5, 1.0), JointSpring{4.0, 0.6}, 100.0));
    model.addConstraint(std::make_unique<DistanceConstraint>(
             DistanceConstraintSettings{.a = s.siteA, .b = siteC, .length = 1.0, .spring = kSpring, .minLength = 0.3, .maxLength = 2.5}));
    model.addConstraint(std::make_unique<DistanceConstraint>(s.particle, s.siteB, 1.1));
    model.addConstraint(std::make_unique<RevoluteJoint>(JointConnection{.a = s.particle, .b = siteC}));
    // Two sites of one body in one constraint: its block sums both points' terms, and a rod
    // inside one rigid body has a constant length, so its row of J vanishes.
    model.addConstraint(std::make_unique<DistanceConstraint>(BodyPoint{c, Eigen::Vector2d(-0.3, 0.1)}, siteC, 0.5));

    const double t = model.time(), e = 1e-6;
    const Eigen::VectorXd q = model.q(), v = model.v();
    const SystemEvaluation at = evaluateSystem(model, t, q, v);
    ASSERT_EQ(at.J.cols(), 3 + 3 + 2 + 3);
    ASSERT_EQ(at.J.rows(), 5 + 4 + 3 + 3 + 5 + 5 + 1 + 1 + 1 + 2 + 3 + 1 + 2 + 1);
    std::vector<Eigen::Index> positional;
    for (Eigen::Index r = 0; r < at.J.rows(); ++r) {
      if (at.kinds[static_cast<std::size_t>(r)] != RowKind::Motor) positional.push_back(r);
    }
    ASSERT_EQ(positional.size(), static_cast<std::size_t>(at.J.rows()) - 3);
    const Eigen::MatrixXd J = differencedJacobian(model, t, q, v, e);
    const Eigen::MatrixXd analytic = at.J(positional, Eigen::all), numeric = J(positional, Eigen::all);
    for (Eigen::Index j = 0; j < q.size(); ++j) {
      EXPECT_LT(relativeError(analytic.col(j), numeric.col(j)), 1e-6) << "column " << j << ", trial " << trial;
    }
    EXPECT_LT(at.J.row(at.J.rows() - 1).cwiseAbs().maxCoeff(), 1e-12);
    // No joint depends on time: Ċ = J q̇ for every row, motors included.
    EXPECT_LT(relativeError(at.Cdot, at.J * v), 1e-12);
    EXPECT_EQ(at.Ctt.cwiseAbs().maxCoeff(), 0.0);
    const double k = 1e-6 / std::max(1.0, v.cwiseAbs().maxCoeff());
    const SystemEvaluation ahead = evaluateSystem(model, t + k, q + k * v, v);
    const SystemEvaluation behind = evaluateSystem(model, t - k, q - k * v, v);
    EXPECT_LT(relativeError(at.Jdot, (ahead.J - behind.J) / (2 * k)), 1e-6);
    EXPECT_LT(relativeError(at.Jdot * v + at.Ctt, (ahead.Cdot - behind.Cdot) / (2 * k)), 1e-6);
  }
}

// ---- rigid bodies and shapes ------------------------------------------------------------

Shape centredTriangle() {
  const std::vector<Eigen::Vector2d> corners = {{0.0, 0.0}, {1.2, 0.1}, {0.3, 0.9}};
  const Eigen::Vector2d centroid = (corners[0] + corners[1] + corners[2]) / 3.0;
  std::vector<Eigen::Vector2d> centred;
  for (const Eigen::Vector2d& p : corners) centred.push_back(p - centroid);
  return Shape::polygon(centred);
}

TEST(RigidBodyKinematics, PointsAndMassTermsMatchFiniteDifferences) {
  std::mt19937 rng(31);
  const std::vector<Shape> shapes = {Shape::circle(0.4), Shape::box(1.0, 0.3), centredTriangle(),
                                     Shape::polygon({{-0.5, 0.0}, {0.0, -0.4}, {0.5, 0.0}, {0.0, 0.4}})};
  for (const Shape& shape : shapes) {
    for (const auto motion : {RigidBody::Motion::Dynamic, RigidBody::Motion::Static, RigidBody::Motion::Kinematic}) {
      const RigidBody body(1.7, shape.inertia(1.7), shape, motion);
      for (int trial = 0; trial < 10; ++trial) {
        const Eigen::VectorXd q = Eigen::Vector3d(uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -7, 7));
        const Eigen::VectorXd v = Eigen::Vector3d(uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -5, 5));
        for (const Site& site : {Site(0), Site(Eigen::Vector2d(0.4, -0.25)), Site(random2(rng, 1.0))}) {
          const DerivativeAuditResult r = auditBody(body, site, q, v);
          EXPECT_LT(r.worst(), kDerivativeAuditTolerance) << shape.name() << " at (" << site.local.transpose() << ")";
        }
      }
    }
  }
  // The model-level audit visits the body's point and an off-origin site, at rest and moving.
  Model model(2);
  const BodyId rod = model.addBody(std::make_unique<RigidBody>(2.0, 0.3, Shape::box(1.0, 0.1)),
                                   Eigen::Vector3d(0.5, -0.2, 2.0), Eigen::Vector3d(0.1, 0.2, -3.0));
  EXPECT_LT(auditBody(model, rod).worst(), kDerivativeAuditTolerance);
  EXPECT_THROW((void)auditBody(model.body(rod), Site(1), model.coordinates(rod), model.velocities(rod)),
               std::invalid_argument);
}

// x_p = c + R(θ) r, J_p = [I | R r⊥], and the frame angle is θ, at a known state.
TEST(RigidBodyKinematics, PointOfAQuarterTurnedBody) {
  const RigidBody body(1.0, 0.1, Shape::box(1.0, 0.1));
  PointKinematics k;
  const Eigen::VectorXd q = Eigen::Vector3d(1.0, 2.0, kPi / 2), v = Eigen::Vector3d(0.5, -0.5, 2.0);
  body.pointKinematics(Site(Eigen::Vector2d(0.5, 0.0)), q, v, k);
  EXPECT_NEAR((k.position - Eigen::Vector3d(1.0, 2.5, 0.0)).norm(), 0.0, 1e-15);
  // ẋ = v + ω (−r_y, r_x) with r_w = (0, 0.5).
  EXPECT_NEAR((k.velocity - Eigen::Vector3d(0.5 - 1.0, -0.5, 0.0)).norm(), 0.0, 1e-15);
  EXPECT_TRUE(k.oriented);
  EXPECT_EQ(k.angle, kPi / 2);
  EXPECT_EQ(k.angularVelocity, 2.0);
  ASSERT_EQ(k.angleJacobian.cols(), 3);
  EXPECT_EQ(k.angleJacobian(0, 0), 0.0);
  EXPECT_EQ(k.angleJacobian(0, 1), 0.0);
  EXPECT_EQ(k.angleJacobian(0, 2), 1.0);
}

TEST(ShapeInertia, MatchesClosedForms) {
  const double m = 2.5;
  EXPECT_DOUBLE_EQ(Shape::circle(0.4).inertia(m), m * 0.4 * 0.4 / 2);
  EXPECT_DOUBLE_EQ(Shape::box(1.0, 0.3).inertia(m), m * (1.0 + 0.09) / 12);
  // A rectangle given as a polygon, in either winding and from any starting vertex, is the box.
  const std::vector<Eigen::Vector2d> rectangle = {{-0.5, -0.15}, {0.5, -0.15}, {0.5, 0.15}, {-0.5, 0.15}};
  const double box = Shape::box(1.0, 0.3).inertia(m);
  EXPECT_NEAR(Shape::polygon(rectangle).inertia(m), box, 1e-14);
  EXPECT_NEAR(Shape::polygon({rectangle.rbegin(), rectangle.rend()}).inertia(m), box, 1e-14);
  EXPECT_NEAR(Shape::polygon({rectangle[2], rectangle[3], rectangle[0], rectangle[1]}).inertia(m), box, 1e-14);
  EXPECT_NEAR(Shape::polygon({{-0.3, -0.3}, {0.3, -0.3}, {0.3, 0.3}, {-0.3, 0.3}}).inertia(m),
              Shape::box(0.6, 0.6).inertia(m), 1e-14);
  // A triangle about its centroid: m (a² + b² + c²) / 36 with a, b, c its sides.
  const Shape triangle = centredTriangle();
  ASSERT_NO_THROW(triangle.validate());
  const auto& p = triangle.vertices();
  const double sides = (p[0] - p[1]).squaredNorm() + (p[1] - p[2]).squaredNorm() + (p[2] - p[0]).squaredNorm();
  EXPECT_NEAR(triangle.inertia(m), m * sides / 36, 1e-14);
  // A regular hexagon of side s: 5 m s² / 12.
  std::vector<Eigen::Vector2d> hexagon;
  for (int i = 0; i < 6; ++i) hexagon.push_back(rotated(i * kPi / 3, Eigen::Vector2d(0.7, 0.0)));
  EXPECT_NEAR(Shape::polygon(hexagon).inertia(m), 5 * m * 0.49 / 12, 1e-14);
  // The inertia does not depend on the body's rotation of the outline.
  std::vector<Eigen::Vector2d> turned;
  for (const Eigen::Vector2d& x : rectangle) turned.push_back(rotated(0.7, x));
  EXPECT_NEAR(Shape::polygon(turned).inertia(m), box, 1e-14);
}

TEST(ShapeInertia, PolygonsAreStoredCounterClockwise) {
  const Shape cw = Shape::polygon({{-0.5, 0.5}, {0.5, 0.5}, {0.5, -0.5}, {-0.5, -0.5}});
  const auto& p = cw.vertices();
  double twiceArea = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Eigen::Vector2d& a = p[i];
    const Eigen::Vector2d& b = p[(i + 1) % p.size()];
    twiceArea += a.x() * b.y() - a.y() * b.x();
  }
  EXPECT_NEAR(twiceArea, 2.0, 1e-15);
  EXPECT_NO_THROW(cw.validate());
  EXPECT_EQ(Shape::box(1.0, 0.5).vertices().size(), 4u);
  EXPECT_TRUE(Shape::circle(1.0).vertices().empty());
}

// ---- the joint parts on their own ----------------------------------------------------------

// One scalar term of two ends as a one-row constraint: C = s. End b is point 1, or a fixed
// world point (no gradient) when `worldB`.
class TermConstraint final : public Constraint {
 public:
  using Term = std::function<detail::ScalarTerm(const detail::JointEnd&, const detail::JointEnd&)>;
  TermConstraint(Term term, bool worldB) : term_(std::move(term)), worldB_(worldB) {}
  std::string_view type() const override { return "term"; }
  int rows() const override { return 1; }
  std::span<const BodyPoint> points() const override { return {points_.data(), worldB_ ? 1u : 2u}; }
  bool usesAngle(std::size_t /*point*/) const override { return true; }
  void validate(int /*dimension*/) const override {}
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override {
    const detail::JointEnd a = detail::pointEnd(input, 0);
    const detail::JointEnd b = worldB_ ? detail::worldEnd(Eigen::Vector3d(0.3, -0.7, 0.0)) : detail::pointEnd(input, 1);
    detail::writeRow(output, 0, term_(a, b), 1.0, 0.0, worldB_ ? 1 : 2);
  }

 private:
  Term term_;
  bool worldB_;
  std::array<BodyPoint, 2> points_{};
};

// Each part's value, rate, gradient (with its angle component) and their derivatives against
// differences, for two free points with frames at random states: the world axis, an axis turning
// with b, the angle with ratio 1 and a gear ratio, and the distance, each also with a world end.
TEST(JointParts, MatchFiniteDifferencesAtRandomStates) {
  const Eigen::Vector2d slanted = Eigen::Vector2d(0.6, -0.8);
  const std::vector<std::pair<const char*, TermConstraint::Term>> terms = {
      {"axis along x", [](const auto& a, const auto& b) { return detail::axisTerm(a, b, Eigen::Vector2d::UnitX(), false); }},
      {"axis in b's frame",
       [&](const auto& a, const auto& b) { return detail::axisTerm(a, b, slanted, true); }},
      {"angle", [](const auto& a, const auto& b) { return detail::angleTerm(a, b); }},
      {"angle with ratio -2.5", [](const auto& a, const auto& b) { return detail::angleTerm(a, b, -2.5); }},
      {"distance", [](const auto& a, const auto& b) { return detail::distanceTerm(a, b); }},
  };
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (const auto& [name, term] : terms) {
    for (const bool worldB : {false, true}) {
      const TermConstraint constraint(term, worldB);
      for (int trial = 0; trial < 20; ++trial) {
        const std::size_t count = worldB ? 1 : 2;
        std::vector<Eigen::Vector3d> positions, velocities;
        std::vector<double> angles, rates;
        for (std::size_t k = 0; k < count; ++k) {
          positions.emplace_back(u(rng), u(rng), 0.0);
          velocities.emplace_back(u(rng), u(rng), 0.0);
          angles.push_back(2.0 * u(rng));
          rates.push_back(u(rng));
        }
        const DerivativeAuditResult r =
            auditConstraint(constraint, {0.4, 2, positions, velocities, angles, rates});
        EXPECT_LT(r.worst(), kDerivativeAuditTolerance) << name << (worldB ? ", world b" : "") << ", trial " << trial;
      }
    }
  }
}

// ---- the audit catches wrong joints -----------------------------------------------------

// A joint that delegates to a correct one and then spoils one entry of its output.
class SpoiledJoint final : public Constraint {
 public:
  SpoiledJoint(std::unique_ptr<Joint> inner, std::function<void(ConstraintOutput&)> spoil)
      : inner_(std::move(inner)), spoil_(std::move(spoil)) {}
  std::string_view type() const override { return "spoiled"; }
  int rows() const override { return inner_->rows(); }
  RowKind rowKind(int row) const override { return inner_->rowKind(row); }
  std::span<const BodyPoint> points() const override { return inner_->points(); }
  bool usesAngle(std::size_t point) const override { return inner_->usesAngle(point); }
  void validate(int dimension) const override { inner_->validate(dimension); }
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override {
    inner_->evaluate(input, output);
    spoil_(output);
  }

 private:
  std::unique_ptr<Joint> inner_;
  std::function<void(ConstraintOutput&)> spoil_;
};

// A prismatic joint whose normal row forgets that its axis turns with b (∂C/∂φ_b = n⊥·d):
// the classic slip when a world-axis derivation is reused for a frame-fixed axis.
TEST(JointAudit, CatchesAFrameFixedAxisWithoutItsAngleGradient) {
  std::mt19937 rng(41);
  RigidPair s(rng);
  const ConstraintId id = s.model.addConstraint(std::make_unique<SpoiledJoint>(
      std::make_unique<PrismaticJoint>(between(s), Eigen::Vector2d(0.6, 0.8)),
      [](ConstraintOutput& out) { out.setAngleJacobian(1, 0, 0.0); }));
  const DerivativeAuditResult r = auditConstraint(s.model, id);
  EXPECT_GT(r.jacobian, 1e-2);
}

// The same joint with its J̇ missing the −ω_b n·d + n⊥·ḋ term of ∂C/∂φ_b.
TEST(JointAudit, CatchesAMissingJacobianDotOfTheAngle) {
  std::mt19937 rng(42);
  RigidPair s(rng);
  const ConstraintId id = s.model.addConstraint(std::make_unique<SpoiledJoint>(
      std::make_unique<PrismaticJoint>(between(s), Eigen::Vector2d(0.6, 0.8)),
      [](ConstraintOutput& out) { out.setAngleJacobianDot(1, 0, 0.0); }));
  const DerivativeAuditResult r = auditConstraint(s.model, id);
  EXPECT_LT(r.jacobian, kDerivativeAuditTolerance);
  EXPECT_LT(r.velocity, kDerivativeAuditTolerance);
  EXPECT_GT(r.jacobianDot, 1e-2);
  EXPECT_GT(r.acceleration, 1e-2);
}

// A weld whose angle row has the wrong sign for b.
TEST(JointAudit, CatchesAWrongAngleSign) {
  std::mt19937 rng(43);
  RigidPair s(rng);
  const ConstraintId id = s.model.addConstraint(std::make_unique<SpoiledJoint>(
      std::make_unique<WeldJoint>(between(s)), [](ConstraintOutput& out) { out.setAngleJacobian(1, 2, 1.0); }));
  EXPECT_GT(auditConstraint(s.model, id).jacobian, 0.5);
}

// A motor row has no C to difference, so its J is held to Ċ = J ẋ: a J that disagrees with Ċ
// must be caught.
TEST(JointAudit, CatchesAMotorRowWhoseJacobianDisagreesWithItsRate) {
  std::mt19937 rng(44);
  RigidPair s(rng);
  const ConstraintId id = s.model.addConstraint(std::make_unique<SpoiledJoint>(
      std::make_unique<RevoluteJoint>(between(s), 0.0, JointLimits{}, kMotor),
      [](ConstraintOutput& out) { out.setAngleJacobian(0, 2, 2.0); }));
  ASSERT_EQ(s.model.constraint(id).rowKind(2), RowKind::Motor);
  EXPECT_GT(auditConstraint(s.model, id).jacobian, 1e-2);
}

}  // namespace
}  // namespace tinkertoy
