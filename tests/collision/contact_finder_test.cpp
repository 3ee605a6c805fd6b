// The contacts of a model (dynamics/contact_finder.hpp): the pairs of rigid bodies within the
// speculative distance with their manifolds, leaving out what never collides (two bodies nothing
// moves, two bodies a constraint joins), sorted so that the result depends on the state alone.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "tinkertoy/constraints/make_constraint.hpp"
#include "tinkertoy/dynamics/contact_finder.hpp"
#include "tinkertoy/model/make_body.hpp"

namespace tinkertoy {
namespace {

BodyId addBox(Model& model, double x, double y, double angle, RigidBodyMotion motion = RigidBodyMotion::Dynamic,
              double width = 1.0, double height = 1.0) {
  return model.addBody(makeBody(RigidBodySettings{.shape = Shape::box(width, height), .motion = motion}),
                       Eigen::Vector3d(x, y, angle), Eigen::Vector3d::Zero());
}

// A box resting 1 cm deep on a static ground, another 4 cm above it, a third far away.
TEST(ContactFinder, FindsWhatTouchesAndWhatIsAboutTo) {
  Model model(2);
  const BodyId ground = addBox(model, 0.0, -0.5, 0.0, RigidBodyMotion::Static, 10.0, 1.0);
  const BodyId resting = addBox(model, 0.0, 0.49, 0.0);
  const BodyId above = addBox(model, 0.0, 1.53, 0.0);
  addBox(model, 20.0, 0.0, 0.3);
  ContactFinder finder;
  finder.build(model);
  EXPECT_EQ(finder.colliderCount(), 4u);

  const auto contacts = finder.find(model.state(), 0.01, 0.02 / 4);
  ASSERT_EQ(contacts.size(), 1u) << "the box above is 4 cm off, beyond 2 cm (the margins of two bodies at rest)";
  EXPECT_EQ(contacts[0].a, model.indexOf(ground));
  EXPECT_EQ(contacts[0].b, model.indexOf(resting));
  EXPECT_EQ(contacts[0].manifold.count, 2);
  EXPECT_NEAR(contacts[0].manifold.points[0].separation, -0.01, 1e-12);

  const auto wider = finder.find(model.state(), 0.01, 0.05 / 4);
  ASSERT_EQ(wider.size(), 2u);
  EXPECT_EQ(wider[1].a, model.indexOf(resting));
  EXPECT_EQ(wider[1].b, model.indexOf(above));
  EXPECT_NEAR(wider[1].manifold.points[0].separation, 0.04, 1e-12);
}

// withinLeeway: a shape whose drift since the find, |x − x₀| + reach |θ − θ₀| + h (|v| + |ω| reach),
// is at most min(2 slop, slop + m₀), m₀ = h (|v₀| + |ω₀| reach) at the find. A unit box (reach
// √½ m) at h = 1/60 s and a slop of 5 mm: at rest its leeway is the slop; gliding at 0.3 m/s it
// is 2 slop (m₀ = 5 mm), of which its glide in the coming step takes 5 mm; turning at 0.3 rad/s
// it is slop + 3.5 mm; and a box gliding at 1.2 m/s (m₀ = 2 cm) is out of it at once.
TEST(ContactFinder, EachShapeKeepsALeewayOfTheSlopAndItsMoveAtTheSearch) {
  constexpr double h = 1.0 / 60.0, slop = 0.005, reach = 0.70710678118654752;
  const auto within = [&](const Eigen::Vector3d& velocity, const Eigen::Vector3d& displacement) {
    Model model(2);
    model.addBody(makeBody(RigidBodySettings{.shape = Shape::box(1.0, 1.0)}), Eigen::Vector3d::Zero(), velocity);
    ContactFinder finder;
    finder.build(model);
    finder.find(model.state(), h, slop);
    const Eigen::VectorXd q = model.q() + displacement, v = model.v();
    return finder.withinLeeway({0.0, q, v}, h, slop);
  };
  const Eigen::Vector3d rest = Eigen::Vector3d::Zero();
  EXPECT_TRUE(within(rest, rest));
  EXPECT_TRUE(within(rest, {0.0, 0.0049, 0.0}));
  EXPECT_FALSE(within(rest, {0.0, 0.0051, 0.0}));
  const Eigen::Vector3d gliding(0.3, 0.0, 0.0);
  EXPECT_TRUE(within(gliding, {0.0049, 0.0, 0.0}));
  EXPECT_FALSE(within(gliding, {0.0051, 0.0, 0.0}));
  const Eigen::Vector3d turning(0.0, 0.0, 0.3);  // m₀ = h 0.3 reach = 3.54 mm
  EXPECT_TRUE(within(turning, {0.0, 0.0, 0.0049 / reach}));
  EXPECT_FALSE(within(turning, {0.0, 0.0, 0.0051 / reach}));
  EXPECT_FALSE(within({1.2, 0.0, 0.0}, rest));
}

// Two static boxes overlapping, and two boxes overlapping at a hinge: neither pair collides. With
// the hinge disabled (a broken joint), after the next build, the second pair does.
TEST(ContactFinder, WhatNothingMovesAndWhatAJointJoinsDoNotCollide) {
  Model model(2);
  addBox(model, 0.0, 0.0, 0.0, RigidBodyMotion::Static);
  addBox(model, 0.5, 0.0, 0.0, RigidBodyMotion::Kinematic);
  const BodyId a = addBox(model, 5.0, 0.0, 0.0), b = addBox(model, 5.8, 0.0, 0.0);
  const ConstraintId hinge = model.addConstraint(makeConstraint(
      RevoluteJointSettings{.connection = {.a = BodyPoint(a, Eigen::Vector2d(0.4, 0.0)), .b = BodyPoint(b, Eigen::Vector2d(-0.4, 0.0))}}));
  ContactFinder finder;
  finder.build(model);
  EXPECT_TRUE(finder.find(model.state(), 0.01, 0.0).empty());
  model.setEnabled(hinge, false);
  finder.build(model);
  const auto contacts = finder.find(model.state(), 0.01, 0.0);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].a, model.indexOf(a));
  EXPECT_EQ(contacts[0].b, model.indexOf(b));
}

// A pile of boxes: every pair the finder gives is one that collide() gives when tried pair by pair,
// and the other way round; the result is the same from a fresh finder as from one that has
// followed the bodies for a while (the broadphase's history does not show).
TEST(ContactFinder, AgreesWithEveryPairTriedAndForgetsItsHistory) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> where(0.0, 6.0), angle(-3.0, 3.0), step(-0.05, 0.05);
  Model model(2);
  std::vector<BodyId> boxes;
  for (int i = 0; i < 60; ++i) boxes.push_back(addBox(model, where(rng), where(rng), angle(rng), RigidBodyMotion::Dynamic, 0.6, 0.4));
  ContactFinder following;
  following.build(model);
  constexpr double speculative = 0.05;
  for (int frame = 0; frame < 30; ++frame) {
    Eigen::VectorXd q = model.q();
    for (Eigen::Index k = 0; k < q.size(); ++k) q[k] += step(rng);
    model.setState(0.0, q, model.v());
    const auto found = following.find(model.state(), 0.01, speculative / 4);
    std::vector<std::pair<std::size_t, std::size_t>> expected;
    const Convex shape = convexOf(Shape::box(0.6, 0.4));
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      for (std::size_t j = i + 1; j < boxes.size(); ++j) {
        const Eigen::VectorXd qi = model.coordinates(boxes[i]), qj = model.coordinates(boxes[j]);
        if (collide(shape, Placement::of(qi[0], qi[1], qi[2]), shape, Placement::of(qj[0], qj[1], qj[2]), speculative).count > 0) {
          expected.emplace_back(i, j);
        }
      }
    }
    std::vector<std::pair<std::size_t, std::size_t>> got;
    for (const BodyContact& c : found) got.emplace_back(c.a, c.b);
    ASSERT_EQ(got, expected) << "frame " << frame;
    ContactFinder fresh;
    fresh.build(model);
    const auto again = fresh.find(model.state(), 0.01, speculative / 4);
    ASSERT_EQ(again.size(), found.size());
    for (std::size_t k = 0; k < found.size(); ++k) {
      EXPECT_EQ(again[k].manifold.count, found[k].manifold.count);
      EXPECT_EQ(again[k].manifold.points[0].separation, found[k].manifold.points[0].separation);
      EXPECT_EQ(again[k].manifold.points[0].id, found[k].manifold.points[0].id);
    }
  }
}

}  // namespace
}  // namespace tinkertoy
