// Sequential impulses for contacts (dynamics/contact_solver.hpp) in a small stepper of their own
// (gravity, the contacts' passes, symplectic Euler): a box comes to rest on the ground, a box on a
// slope sticks or slides as Coulomb says, a ball bounces back with its restitution, and a resting
// contact keeps its impulses from step to step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "tinkertoy/dynamics/contact_solver.hpp"
#include "tinkertoy/model/make_body.hpp"

namespace tinkertoy {
namespace {

constexpr double kG = 9.81;
constexpr double kH = 1.0 / 60.0;

struct World {
  Model model{2};
  ContactFinder finder;
  ContactSolver solver;
  ContactMaterial material;
  int iterations = 10;
  std::vector<std::vector<ContactSolver::PointImpulse>> history;

  BodyId add(const Shape& shape, double x, double y, double angle, RigidBodyMotion motion = RigidBodyMotion::Dynamic) {
    return model.addBody(makeBody(RigidBodySettings{.shape = shape, .motion = motion}), Eigen::Vector3d(x, y, angle),
                         Eigen::Vector3d::Zero());
  }
  void start() {
    finder.build(model);
    solver.build(model, material);
  }
  void step() {
    Eigen::VectorXd q = model.q(), v = model.v();
    for (std::size_t i = 0; i < model.bodyCount(); ++i) {
      if (!model.body(model.bodyAt(i)).isDriven()) v[static_cast<Eigen::Index>(model.offsetOf(model.bodyAt(i))) + 1] -= kH * kG;
    }
    solver.prepare(finder.find({model.time(), model.q(), v}, kH, material.slop), model.state(), v, kH);
    for (int k = 0; k < iterations; ++k) solver.solve(v, ContactPass::Solve);
    solver.restitute(v);
    history.push_back(solver.impulses());
    q += kH * v;
    model.setState(model.time() + kH, q, v);
  }
  [[nodiscard]] Eigen::Vector3d pose(BodyId id) const { return model.coordinates(id); }
};

// A unit box dropped from 10 cm onto the ground comes to rest on it: the speculative contact stops
// it at the surface, level, and its contacts hold it with its weight: two points, m g h between
// them. Each point is a soft spring (the default push, the soft step's) and sits where it holds
// its half of the weight, s = −k (m g / 2) / ω², with k = 1/m + (r × n)²/I = 1 + 0.25 · 6 = 2.5 /kg
// and ω = 2π · 2 · min(30 Hz, 1/(4h)) against the static ground. The two points' passes in turn
// leave a trace of asymmetry, micrometres.
TEST(ContactSolver, ABoxComesToRestOnTheGround) {
  World w;
  w.add(Shape::box(10.0, 1.0), 0.0, -0.5, 0.0, RigidBodyMotion::Static);
  const BodyId box = w.add(Shape::box(1.0, 1.0), 0.3, 0.6, 0.0);
  w.start();
  for (int k = 0; k < 180; ++k) w.step();
  const Eigen::Vector3d q = w.pose(box);
  const double omega = 2.0 * std::numbers::pi * 2.0 * std::min(w.material.contactHertz, 0.25 / kH);
  EXPECT_NEAR(q[1], 0.5 - 2.5 * (kG / 2.0) / (omega * omega), 1e-7);
  EXPECT_NEAR(q[0], 0.3, 1e-4);
  EXPECT_NEAR(q[2], 0.0, 1e-4);
  EXPECT_LT(w.model.velocities(box).norm(), 1e-3);
  ASSERT_EQ(w.history.back().size(), 2u);
  EXPECT_NEAR(w.history.back()[0].normal + w.history.back()[1].normal, 1.0 * kG * kH, 1e-3 * kG * kH);
}

// A resting contact keeps its impulses: what prepare applies as the warm start is what the last
// step ended with, so the passes have little left to do.
TEST(ContactSolver, ARestingContactIsWarmStarted) {
  World w;
  w.add(Shape::box(10.0, 1.0), 0.0, -0.5, 0.0, RigidBodyMotion::Static);
  w.add(Shape::box(1.0, 1.0), 0.0, 0.5, 0.0);
  w.start();
  for (int k = 0; k < 120; ++k) w.step();
  w.iterations = 0;  // no passes: the warm start alone
  w.step();
  const auto& warm = w.history.back();
  const auto& before = w.history[w.history.size() - 2];
  ASSERT_EQ(warm.size(), before.size());
  for (std::size_t k = 0; k < warm.size(); ++k) EXPECT_EQ(warm[k].normal, before[k].normal);
}

// The soft step carries a step's points through its later substeps (ContactSolver::carry): each
// gap moved on by the substep's motion, s + h v_n. For a body that translates, that is exactly
// the gap found again at the moved positions: a box sliding into the ground, half a centimetre
// in, carried and found afresh, agrees to round-off, and so do the targets it sets.
TEST(ContactSolver, ACarriedGapIsTheGapFoundAgainForABodyThatTranslates) {
  World w;
  w.add(Shape::box(10.0, 1.0), 0.0, -0.5, 0.0, RigidBodyMotion::Static);
  const BodyId box = w.add(Shape::box(1.0, 1.0), 0.2, 0.495, 0.0);
  w.start();
  Eigen::VectorXd v = w.model.v();
  v.segment<2>(static_cast<Eigen::Index>(w.model.offsetOf(box))) = Eigen::Vector2d(0.4, -0.3);
  w.solver.prepare(w.finder.find({0.0, w.model.q(), v}, kH, w.material.slop), w.model.state(), v, kH);
  const double before = w.solver.deepestPenetration();
  w.solver.moved(v, kH);  // no passes: the box moves at v
  Eigen::VectorXd carried = v;
  w.solver.carry(carried, kH);
  World again;
  again.add(Shape::box(10.0, 1.0), 0.0, -0.5, 0.0, RigidBodyMotion::Static);
  again.add(Shape::box(1.0, 1.0), 0.2 + kH * 0.4, 0.495 - kH * 0.3, 0.0);
  again.start();
  Eigen::VectorXd found = v;
  // Twice, so that its passes start the way the carried substep's do (each prepare and carry
  // turns the first pass's direction); the first one's impulses are zero, as no pass ran.
  for (int k = 0; k < 2; ++k) {
    again.solver.prepare(again.finder.find({kH, again.model.q(), found}, kH, again.material.slop),
                         again.model.state(), found, kH);
  }
  EXPECT_NEAR(before, 0.005, 1e-12);
  EXPECT_NEAR(w.solver.deepestPenetration(), 0.005 + kH * 0.3, 1e-12);
  EXPECT_NEAR(w.solver.deepestPenetration(), again.solver.deepestPenetration(), 1e-12);
  // The same push: one pass from each moves the box alike, but for the arms, which a carried
  // point keeps from the step's start while a point found again sits midway between the surfaces,
  // half the 5 mm the box sank lower: 0.5 % of the arm, and about that of what the pass leaves.
  w.solver.solve(carried, ContactPass::Solve);
  again.solver.solve(found, ContactPass::Solve);
  EXPECT_LT((carried - found).norm(), 0.01 * found.norm());
  EXPECT_GT((carried - v).norm(), 0.1) << "the pass did push";
}

// A box on a slope of angle θ sticks while μ > tan θ, and otherwise slides down with the
// acceleration g (sin θ − μ cos θ). The friction impulse stays in Coulomb's interval of the normal
// impulse it was bounded by; the normal row that follows it in the pass moves the normal impulse
// by a few parts in a million, which the check allows.
TEST(ContactSolver, ABoxOnASlopeSticksOrSlidesAsCoulombSays) {
  const double theta = 0.3;
  const Eigen::Vector2d down(-std::cos(theta), -std::sin(theta));  // along the slope, downhill
  for (const double mu : {0.6, 0.1}) {
    SCOPED_TRACE("mu = " + std::to_string(mu));
    World w;
    w.material.friction = mu;
    w.add(Shape::box(20.0, 1.0), 0.0, 0.0, theta, RigidBodyMotion::Static);
    const Eigen::Vector2d normal(-std::sin(theta), std::cos(theta));
    const Eigen::Vector2d at = 1.0 * normal - 2.0 * down;  // on the face, 0.5 + 0.5 off its middle line
    const BodyId box = w.add(Shape::box(1.0, 1.0), at.x(), at.y(), theta);
    w.start();
    for (int k = 0; k < 30; ++k) w.step();  // settled onto the slope
    const Eigen::Vector3d settled = w.pose(box);
    const double speed0 = w.model.velocities(box).head<2>().dot(down);
    for (int k = 0; k < 60; ++k) w.step();
    const double travelled = (w.pose(box) - settled).head<2>().dot(down);
    const double speed = w.model.velocities(box).head<2>().dot(down);
    if (mu > std::tan(theta)) {
      EXPECT_LT(std::abs(travelled), 1e-3) << "it sticks";
    } else {
      const double a = kG * (std::sin(theta) - mu * std::cos(theta));
      EXPECT_NEAR((speed - speed0) / 1.0, a, 0.02 * a);
    }
    for (const auto& step : w.history) {
      for (const auto& p : step) EXPECT_LE(std::abs(p.tangent), mu * p.normal * (1.0 + 1e-5) + 1e-12);
    }
  }
}

// A ball dropped onto the ground leaves it with e times the speed it hit it with.
TEST(ContactSolver, ABallBouncesWithItsRestitution) {
  for (const double e : {0.0, 0.5, 0.9}) {
    SCOPED_TRACE("e = " + std::to_string(e));
    World w;
    w.material.restitution = e;
    w.add(Shape::box(10.0, 1.0), 0.0, -0.5, 0.0, RigidBodyMotion::Static);
    const BodyId ball = w.add(Shape::circle(0.25), 0.0, 1.5, 0.0);
    w.start();
    double impact = 0.0, rebound = 0.0;
    for (int k = 0; k < 120 && rebound == 0.0; ++k) {
      const double before = w.model.velocities(ball)[1];
      w.step();
      const double after = w.model.velocities(ball)[1];
      if (before < -1.0 && after > before + 1.0) impact = before - kH * kG, rebound = after;
    }
    ASSERT_LT(impact, -4.0);
    EXPECT_NEAR(rebound, -e * impact, 0.02 * std::abs(impact) + 1e-9);
  }
}

}  // namespace
}  // namespace tinkertoy
