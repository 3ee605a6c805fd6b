// The velocity level's energy safeguard (velocity_formulation.hpp, step 3): a substep's solve is
// redone linearized at the predicted state when its passive rows (equalities and inequalities)
// did positive work, a sign that the motion outran the linearization. Motors and springs do work
// on purpose, and a kinematic body does work through the rows that tie it to others; none of
// that may set it off (each redo costs a second solve). A whipping cloth still does.
//
// The work is ΔK = Σ_r λ_r J_r (v* + v⁺)/2 split by row kind; the old check, on ΔK as a whole,
// redid about a fifth of a motor's spin-up steps.
#include <gtest/gtest.h>

#include "physics/rigid_models.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"

namespace tinkertoy::test {
namespace {

// Steps `sim` n times; returns the solves the safeguard redid.
int redoneSolves(Simulator& sim, int n) {
  int redone = 0;
  for (int i = 0; i < n; ++i) {
    sim.step();
    redone += sim.diagnostics().relinearizedSolves;
  }
  return redone;
}

// A disk (I = 0.25 kg m²) pinned at its center, spun up by a motor (ω = 3 rad/s, T = 0.5 N·m)
// from rest: the kinetic energy grows from zero by the motor's work at every substep.
TEST(EnergySafeguard, IgnoresAMotorSpinningUp) {
  const Shape disk = Shape::circle(0.5);
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const BodyId wheel = addRigid(model, 2.0, disk.inertia(2.0), disk, Eigen::Vector3d::Zero());
    model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, wheel, Eigen::Vector2d::Zero()), 0.0,
                                                        JointLimits{}, JointMotor{.speed = 3.0, .maxForce = 0.5}));
    Simulator sim(model, velocityLevel(1e-3, variant));
    EXPECT_EQ(redoneSolves(sim, 1000), 0) << variant.name;
    EXPECT_NEAR(model.velocities(wheel)[2], 1000 * 1e-3 * 0.5 / disk.inertia(2.0), 1e-9) << variant.name;
  }
}

// A 1 kg disk on a 2 Hz distance spring of rest length 1 m, released 0.5 m stretched, with
// gravity: the spring's energy turns into kinetic energy and back.
TEST(EnergySafeguard, IgnoresASpring) {
  const Shape disk = Shape::circle(0.1);
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const BodyId bob = addRigid(model, 1.0, disk.inertia(1.0), disk, Eigen::Vector3d(1.5, 0.0, 0.0));
    addGravity(model);
    model.addConstraint(std::make_unique<DistanceConstraint>(
        DistanceConstraintSettings{.a = bob, .anchor = Eigen::Vector2d(0.0, 0.0), .length = 1.0,
                                   .spring = JointSpring{.frequency = 2.0, .dampingRatio = 0.0}}));
    Simulator sim(model, velocityLevel(1e-3, variant));
    EXPECT_EQ(redoneSolves(sim, 1000), 0) << variant.name;
    EXPECT_GT(sim.diagnostics().kineticEnergy, 0.1) << variant.name << ": the spring should have moved the disk";
  }
}

// A kinematic bar moving at 2 m/s drags a resting disk by a 1 m rod: the bar's work goes into
// the disk's kinetic energy through a rigid (passive) row.
TEST(EnergySafeguard, IgnoresTheWorkOfAKinematicBody) {
  const Shape bar = Shape::box(0.5, 0.1);
  const Shape disk = Shape::circle(0.1);
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const BodyId driver = addRigid(model, 1.0, bar.inertia(1.0), bar, Eigen::Vector3d::Zero(),
                                   Eigen::Vector3d(2.0, 0.0, 0.0), Motion::Kinematic);
    const BodyId dragged = addRigid(model, 1.0, disk.inertia(1.0), disk, Eigen::Vector3d(-1.0, 0.0, 0.0));
    model.addConstraint(std::make_unique<DistanceConstraint>(BodyPoint{driver}, BodyPoint{dragged}, 1.0));
    Simulator sim(model, velocityLevel(1e-3, variant));
    EXPECT_EQ(redoneSolves(sim, 500), 0) << variant.name;
    EXPECT_NEAR(model.velocities(dragged)[0], 2.0, 1e-6) << variant.name << ": the disk should follow the bar";
  }
}

}  // namespace
}  // namespace tinkertoy::test
