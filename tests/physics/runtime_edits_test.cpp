// What users change while a model runs (Model::editConstraint): a motor's speed, limits added
// to a joint that had none (its rows go from 3 to 4), a rope shortened, a mouse target moved.
// Each is checked against the closed form of the motion it should produce from then on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "rigid_models.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"

namespace tinkertoy::test {
namespace {

// The disk of Motor.SpinsUpAtItsTorqueBoundAndHoldsItsSpeed (m = 2 kg, r = 0.5 m, I = 0.25
// kg m², pinned at its center, no gravity), its motor at ω₁ = 3 rad/s with at most T = 0.5 N·m.
// Held at ω₁, the speed is set to ω₂ = −1 rad/s: the motor brakes at T / I = 2 rad/s², so k
// substeps after the edit
//   ω = max(ω₂, ω₁ − k h T / I)
// exactly, up to the round-off of adding the impulses (bound 1e-10 rad/s, as there). Then a lower
// limit 0.2 rad below the current angle is added: the limit row is new (3 rows become 4), and the
// disk, still driven at −1 rad/s with all of T, lands on the limit and stays there at rest.
TEST(RuntimeEdits, AMotorsNewSpeedAndANewLimitTakeEffectAtTheNextStep) {
  const double mass = 2.0, torque = 0.5, h = 1e-3, first = 3.0, second = -1.0;
  const Shape disk = Shape::circle(0.5);
  const double inertia = disk.inertia(mass);
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const BodyId wheel = addRigid(model, mass, inertia, disk, Eigen::Vector3d::Zero());
    const ConstraintId hinge = model.addConstraint(std::make_unique<RevoluteJoint>(
        toWorld(model, wheel, Eigen::Vector2d::Zero()), 0.0, JointLimits{},
        JointMotor{.speed = first, .maxForce = torque}));
    Simulator sim(model, velocityLevel(h, variant));
    for (int n = 0; n < 2000; ++n) sim.step();
    ASSERT_NEAR(model.velocities(wheel)[2], first, 1e-10) << variant.name;

    const auto structure = model.structureVersion();
    model.editConstraint<RevoluteJointSettings>(hinge, [&](RevoluteJointSettings& s) { s.motor->speed = second; });
    EXPECT_GT(model.structureVersion(), structure) << variant.name;
    double worst = 0.0;
    for (int k = 1; k <= 2500; ++k) {
      sim.step();
      const double expected = std::max(second, first - k * h * torque / inertia);
      worst = std::max(worst, std::abs(model.velocities(wheel)[2] - expected));
    }
    report(std::string("new_motor_speed_error_rad_per_s_") + variant.name, worst);
    EXPECT_LT(worst, 1e-10) << variant.name;

    const double lower = angleOf(model, wheel) - 0.2;
    ASSERT_EQ(model.constraint(hinge).rows(), 3);
    model.editConstraint<RevoluteJointSettings>(hinge, [&](RevoluteJointSettings& s) { s.limits.lower = lower; });
    ASSERT_EQ(model.constraint(hinge).rows(), 4);
    for (int k = 0; k < 1000; ++k) ASSERT_NO_THROW(sim.step()) << variant.name << ", step " << k;
    EXPECT_NEAR(angleOf(model, wheel), lower, 1e-11) << variant.name;
    EXPECT_NEAR(model.velocities(wheel)[2], 0.0, 1e-11) << variant.name;
    const auto lambda = sim.lambda(hinge);  // pin x, pin y, lower limit, motor
    ASSERT_EQ(lambda.size(), 4u);
    EXPECT_NEAR(lambda[3], -torque, 1e-9 * torque) << variant.name << ": the motor should pull with all it has";
    EXPECT_NEAR(lambda[2], torque, 1e-9 * torque) << variant.name << ": the limit should push back as much";
  }
}

// A particle hanging on a rope of 1 m at rest; the rope is shortened to 0.6 m by an edit, and
// the acceleration level's projection puts the particle on the new length at the next step,
// where it then hangs: ‖C‖ at the settings' tolerance, the tension m g.
TEST(RuntimeEdits, ARodShortenedWhileRunningHoldsTheNewLength) {
  Model model(2);
  const BodyId bob = model.addParticle(1.0, Eigen::Vector2d(0.0, -1.0));
  const ConstraintId rod = model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));
  addGravity(model);
  Simulator sim(model, accelerationLevel(1e-3));
  for (int n = 0; n < 10; ++n) sim.step();
  model.editConstraint<DistanceConstraintSettings>(rod, [](DistanceConstraintSettings& s) { s.length = 0.6; });
  for (int n = 0; n < 2000; ++n) sim.step();
  EXPECT_NEAR(model.coordinates(bob).norm(), 0.6, 1e-8);
  EXPECT_NEAR(std::abs(sim.lambda(rod)[0]), kGravity, 1e-6);
}

// An edit that fails (a negative length, settings of the wrong type, or settings of a
// constraint defined outside the library) throws and leaves the constraint as it was, with its
// id, name, enabled flag and break force; a good edit keeps all four.
TEST(RuntimeEdits, AFailedEditChangesNothingAndAGoodOneKeepsTheConstraintsIdentity) {
  Model model(2);
  const BodyId bob = model.addParticle(1.0, Eigen::Vector2d(0.0, -1.0));
  const ConstraintId rod =
      model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0), "the rod");
  model.setBreakForce(rod, 50.0);
  const auto length = [&] {
    return std::get<DistanceConstraintSettings>(model.constraint(rod).settings()).length;
  };

  EXPECT_THROW(model.editConstraint<DistanceConstraintSettings>(rod, [](auto& s) { s.length = -1.0; }),
               std::invalid_argument);
  EXPECT_THROW(model.editConstraint<DistanceConstraintSettings>(rod, [](auto& s) { s.maxLength = 0.5; }),
               std::invalid_argument);  // a rigid rod cannot also have a maximum
  try {
    model.editConstraint<RevoluteJointSettings>(rod, [](auto& s) { s.referenceAngle = 1.0; });
    ADD_FAILURE() << "a distance constraint edited as a revolute joint";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "the rod is a distance constraint, not a revolute one");
  }
  EXPECT_THROW(model.setConstraintSettings(rod, std::monostate{}), std::invalid_argument);
  EXPECT_EQ(length(), 1.0);

  model.editConstraint<DistanceConstraintSettings>(rod, [](auto& s) { s.length = 0.8; });
  EXPECT_EQ(length(), 0.8);
  EXPECT_TRUE(model.contains(rod));
  EXPECT_EQ(model.name(rod), "the rod");
  EXPECT_EQ(model.breakForce(rod), 50.0);
  model.setEnabled(rod, false);
  model.editConstraint<DistanceConstraintSettings>(rod, [](auto& s) { s.length = 0.7; });
  EXPECT_FALSE(model.isEnabled(rod));
}

// The simulator looks at reactions only while some constraint has a finite break force: the
// count behind that must follow every way a break force comes and goes (set, set back to ∞,
// its constraint removed), or a joint would silently stop breaking.
TEST(RuntimeEdits, BreakForcesKeepBreakingAfterTheyAreSetClearedAndRemoved) {
  Model model(2);
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d(0.0, -1.0));
  const BodyId b = model.addParticle(1.0, Eigen::Vector2d(2.0, -1.0));
  const ConstraintId rodA = model.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector2d(0, 0), 1.0));
  const ConstraintId rodB = model.addConstraint(std::make_unique<DistanceConstraint>(b, Eigen::Vector2d(2, 0), 1.0));
  addGravity(model);
  EXPECT_FALSE(model.anyBreakForce());
  model.setBreakForce(rodA, 1.0);
  model.setBreakForce(rodA, 2.0);  // set twice: still one
  model.setBreakForce(rodB, 1.0);
  model.setBreakForce(rodB, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(model.anyBreakForce());
  EXPECT_THROW(model.setBreakForce(rodB, -1.0), std::invalid_argument);  // refused: counts nothing
  model.removeConstraint(rodA);
  EXPECT_FALSE(model.anyBreakForce());
  model.setBreakForce(rodB, 1.0);  // below the bob's weight, 9.81 N
  EXPECT_TRUE(model.anyBreakForce());
  Simulator sim(model, accelerationLevel(1e-3));
  sim.step();
  EXPECT_FALSE(model.isEnabled(rodB)) << "a rod loaded above its break force must break";
}

}  // namespace
}  // namespace tinkertoy::test
