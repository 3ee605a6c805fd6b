// springForRod (model/spring_for_rod.hpp): a rigid rod swapped for a spring of its length. The
// swapped pendulum must move as the closed form of a mass on a spring says, and everything that
// is not a rigid rod must be refused with the model left as it was.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/spring_for_rod.hpp"

namespace tinkertoy {
namespace {

constexpr double kG = 9.81;

// Expects springForRod to refuse `rod` with a message containing `keyword`, changing nothing.
void expectRefused(Model& model, ConstraintId rod, SpringParameters settings, const std::string& keyword) {
  const std::size_t constraints = model.constraintCount(), forces = model.forceCount();
  try {
    springForRod(model, rod, settings);
    ADD_FAILURE() << "expected std::invalid_argument mentioning '" << keyword << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(keyword), std::string::npos) << e.what();
  }
  EXPECT_EQ(model.constraintCount(), constraints);
  EXPECT_EQ(model.forceCount(), forces);
}

// A bob of mass m hanging at rest on a rod of length L from a nail: swapped for a spring of
// stiffness k, it falls from the rod's length and oscillates about the static stretch m g / k,
//   ℓ(t) = L + (m g / k)(1 − cos ω t),   ω = √(k/m),
// so half a period later the spring is at its longest, L + 2 m g / k.
TEST(SpringForRod, AHangingBobOscillatesAboutTheStaticStretch) {
  constexpr double m = 0.5, L = 1.0, k = 200.0;
  Model model(2);
  const BodyId bob = model.addParticle(m, Eigen::Vector2d(0.0, -L));
  const ConstraintId rod = model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), L), "rod");
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  const ForceId spring = springForRod(model, rod, SpringParameters{.stiffness = k, .rest_length = 7.0});
  EXPECT_EQ(model.constraintCount(), 0u);
  EXPECT_FALSE(model.contains(rod));
  EXPECT_DOUBLE_EQ(std::get<SpringSettings>(model.force(spring).settings()).parameters.rest_length, L);

  SimulationSettings settings;
  settings.dt = 1e-4;
  Simulator simulator(model, settings);
  const double omega = std::sqrt(k / m), halfPeriod = std::numbers::pi / omega;
  while (model.time() + 0.5 * settings.dt < halfPeriod) simulator.step();
  const double length = -model.position({bob, 0})(1);
  const double longest = L + 2.0 * m * kG / k;
  // The bob is at rest at the turning point, so a step's timing error of dt/2 costs O(dt²).
  EXPECT_NEAR(length, longest - (m * kG / k) * (std::cos(omega * model.time()) + 1.0), 1e-9);
  EXPECT_NEAR(length, longest, 1e-6);
}

// Between two bodies the spring joins the rod's own two points and starts unstretched.
TEST(SpringForRod, TheSpringJoinsTheRodsPointsAtItsLength) {
  Model model(2);
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d(0.0, 0.0));
  const BodyId b = model.addParticle(2.0, Eigen::Vector2d(3.0, 4.0));
  const ConstraintId rod = model.addConstraint(std::make_unique<DistanceConstraint>(BodyPoint{a, 0}, BodyPoint{b, 0}, 5.0));
  const ForceId id = springForRod(model, rod, SpringParameters{.stiffness = 10.0, .damping = 0.5});
  const Force& spring = model.force(id);
  const auto settings = std::get<SpringSettings>(spring.settings());
  ASSERT_EQ(spring.points().size(), 2u);
  EXPECT_EQ(settings.a, (BodyPoint{a, 0}));
  EXPECT_EQ(settings.b, (BodyPoint{b, 0}));
  EXPECT_DOUBLE_EQ(settings.parameters.rest_length, 5.0);
  EXPECT_DOUBLE_EQ(settings.parameters.damping, 0.5);
  const Model& view = model;
  EXPECT_DOUBLE_EQ(spring.potentialEnergy(model.bodies(), StateView{0.0, view.q(), view.v()}), 0.0);
}

TEST(SpringForRod, RefusesWhatIsNotARigidRodAndChangesNothing) {
  Model model(2);
  const BodyId bob = model.addParticle(1.0, Eigen::Vector2d(1.0, 0.0));
  const ConstraintId nail = model.addConstraint(std::make_unique<FixedPointConstraint>(bob, Eigen::Vector2d(1, 0)), "nail");
  const ConstraintId rope = model.addConstraint(
      std::make_unique<DistanceConstraint>(DistanceConstraintSettings{.a = bob, .anchor = Eigen::Vector2d(0, 0), .maxLength = 2.0}),
      "rope");
  const ConstraintId strut = model.addConstraint(
      std::make_unique<DistanceConstraint>(DistanceConstraintSettings{.a = bob, .anchor = Eigen::Vector2d(0, 0), .minLength = 0.5}));
  const ConstraintId soft = model.addConstraint(std::make_unique<DistanceConstraint>(DistanceConstraintSettings{
      .a = bob, .anchor = Eigen::Vector2d(0, 0), .length = 1.0, .spring = JointSpring{.frequency = 2.0}}));
  const ConstraintId limited = model.addConstraint(std::make_unique<DistanceConstraint>(
      DistanceConstraintSettings{.a = bob, .anchor = Eigen::Vector2d(0, 0), .minLength = 0.5, .maxLength = 2.0}));
  const ConstraintId rod = model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0), "rod");

  expectRefused(model, nail, {.stiffness = 1.0}, "nail is a fixed constraint, not a rod");
  expectRefused(model, rope, {.stiffness = 1.0}, "rope is a rope (max_length)");
  expectRefused(model, strut, {.stiffness = 1.0}, "a strut (min_length)");
  expectRefused(model, soft, {.stiffness = 1.0}, "with a spring (frequency)");
  expectRefused(model, limited, {.stiffness = 1.0}, "with limits");
  model.setEnabled(rod, false);
  expectRefused(model, rod, {.stiffness = 1.0}, "rod is disabled (broken)");
  model.setEnabled(rod, true);
  expectRefused(model, rod, {.stiffness = -1.0}, "rod: ");
  expectRefused(model, rod, {.stiffness = 1.0, .damping = std::nan("")}, "damping");
}

}  // namespace
}  // namespace tinkertoy
