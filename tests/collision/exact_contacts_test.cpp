// The exact mode (solver ldlt, position correction projection, with collisions): contacts solved
// with the joints as one system, then projected onto separation ≥ 0 (docs/theory.md, "The exact
// mode"), against closed forms to round-off where the physics allows it: a box on an incline
// slides with a = g (sin θ − μ cos θ) and carries |λ_t| = μ λ_n against its slip, or stays put
// when tan θ < μ; a dropped box lands and rests without penetrating; twenty discs landing in turn
// stay on a thin floor; a resumed run repeats the one that went on. The bounce, momentum, stack
// and hinged-bar tests run in the exact mode too, beside the iterative ones
// (contact_physics_test.cpp, contacts_in_a_run_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "tinkertoy/scene/scene.hpp"
#include "support/resumed_run.hpp"

namespace tinkertoy {
namespace {

// A number as JSON, to the last bit.
std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

std::string exactSettings(double dt, int substeps = 1) {
  return R"("settings": {"formulation": "velocity", "solver": "ldlt", "position_correction": "projection", "dt": )" +
         number(dt) + R"(, "substeps": )" + std::to_string(substeps) + R"(, "collisions": true})";
}

// A 0.5 m box of friction μ_box on a static slope of angle θ and friction 1 (mixed: √μ_box), at rest.
std::string boxOnASlope(double angle, double boxFriction) {
  const double c = std::cos(angle), s = std::sin(angle);
  // The box's center 0.2 + 0.25 m above the slope's center line, along its normal (−sin θ, cos θ).
  const double x = 1.0 * c - 0.45 * s, y = 1.0 * s + 0.45 * c;
  return R"({"dimension": 2, "gravity": [0, -9.81], )" + exactSettings(1.0 / 240.0) + R"(,
    "bodies": [
      {"id": "slope", "type": "rigid", "mass": 1, "position": [0, 0], "angle": )" + number(angle) + R"(,
       "static": true, "shape": {"type": "box", "size": [12, 0.4]}, "friction": 1.0},
      {"id": "box", "type": "rigid", "mass": 2, "position": [)" + number(x) + ", " + number(y) +
         R"(], "angle": )" + number(angle) + R"(, "shape": {"type": "box", "size": [0.5, 0.5]},
       "friction": )" + number(boxFriction) + "}]}";
}

// tan 30° = 0.577 > μ = √0.09 = 0.3: the box slides with a = g (sin θ − μ cos θ), to round-off (the
// friction row sits on its bound μ λ_n, and symplectic Euler integrates a constant acceleration
// exactly); each step's friction impulse is μ times the normal one, against the slip.
TEST(ExactContacts, ABoxSlidesDownAnInclineWithCoulombsAcceleration) {
  const double angle = M_PI / 6, mu = 0.3;
  Scene scene = parseScene(boxOnASlope(angle, mu * mu));
  const BodyId box = *scene.model.findBody("box");
  Simulator simulator(scene.model, scene.settings);
  const Eigen::Vector2d down(-std::cos(angle), -std::sin(angle));
  for (int k = 0; k < 24; ++k) simulator.step();  // settled onto the slope
  const double t0 = scene.model.time(), v0 = scene.model.velocities(box).head<2>().dot(down);
  for (int k = 0; k < 240; ++k) {
    simulator.step();
    double normal = 0.0, tangent = 0.0;
    for (const ContactReport& c : simulator.contacts()) {
      normal += c.normalImpulse;
      tangent += c.tangentImpulse;
    }
    ASSERT_GT(normal, 0.0) << "step " << k;
    EXPECT_NEAR(std::abs(tangent), mu * normal, 1e-12 * normal) << "step " << k;
    // The friction on the box (body b, along t = (n_y, −n_x) with n from the slope to the box) points up the slope.
    const Eigen::Vector2d n = simulator.contacts().front().normal, t(n.y(), -n.x());
    EXPECT_LT(tangent * t.dot(down), 0.0) << "step " << k;
  }
  const double a = (scene.model.velocities(box).head<2>().dot(down) - v0) / (scene.model.time() - t0);
  const double expected = 9.81 * (std::sin(angle) - mu * std::cos(angle));
  EXPECT_NEAR(a, expected, 1e-9 * expected);
  EXPECT_NEAR(scene.model.velocities(box)[2], 0.0, 1e-9) << "it slides flat, without turning";
  EXPECT_LT(simulator.diagnostics().penetration, 1e-9);
}

// tan 30° < μ = √0.81 = 0.9: the box stays where it is, sliding less than 1e-9 m/s (the friction row
// inside its bounds holds the slip at 0 to round-off) and moving less than 1e-9 m in 2 s.
TEST(ExactContacts, ABoxStaysPutOnAnInclineWhenTanThetaIsBelowMu) {
  Scene scene = parseScene(boxOnASlope(M_PI / 6, 0.81));
  const BodyId box = *scene.model.findBody("box");
  Simulator simulator(scene.model, scene.settings);
  for (int k = 0; k < 24; ++k) simulator.step();
  const Eigen::VectorXd start = scene.model.coordinates(box);
  for (int k = 0; k < 480; ++k) {
    simulator.step();
    EXPECT_LT(scene.model.velocities(box).norm(), 1e-9) << "step " << k;
    double normal = 0.0, tangent = 0.0;
    for (const ContactReport& c : simulator.contacts()) {
      normal += c.normalImpulse;
      tangent += c.tangentImpulse;
    }
    EXPECT_NEAR(std::abs(tangent) / normal, std::tan(M_PI / 6), 1e-9) << "friction holds what gravity pulls";
  }
  EXPECT_LT((scene.model.coordinates(box) - start).norm(), 1e-9);
  EXPECT_LT(simulator.diagnostics().penetration, 1e-9);
}

// A box dropped onto the ground lands without sinking in: the deepest penetration any substep
// started from, over the whole run, is below 1e-9 m, and it comes to rest on the surface.
TEST(ExactContacts, ADroppedBoxLandsAndRestsWithoutPenetrating) {
  Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, -9.81], )" + exactSettings(1.0 / 60.0, 4) + R"(,
    "bodies": [
      {"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
       "shape": {"type": "box", "size": [10, 1]}},
      {"id": "box", "type": "rigid", "mass": 1, "position": [0, 1.2], "angle": 0.3, "velocity": [0.5, 0],
       "shape": {"type": "box", "size": [0.6, 0.4]}}]})");
  const BodyId box = *scene.model.findBody("box");
  Simulator simulator(scene.model, scene.settings);
  double deepest = 0.0;
  for (int k = 0; k < 240; ++k) {
    simulator.step();
    deepest = std::max(deepest, simulator.diagnostics().penetration);
  }
  EXPECT_LT(deepest, 1e-9);
  const Eigen::VectorXd q = scene.model.coordinates(box);
  EXPECT_LT(scene.model.velocities(box).norm(), 1e-9);
  // Lying on one of its faces: its center half a side above the ground.
  const double side = std::abs(std::cos(q[2])) > 0.5 ? 0.2 : 0.3;
  EXPECT_NEAR(q[1], side, 1e-9);
}

// Twenty discs fall 10 m in a staircase onto a thin floor (a segment) and land one after another
// at 14 m/s, each found a step ahead as a speculative contact. The active set of so many new rows
// does not settle within its cap of changes; sequential passes then finish the solve, so that no
// disc keeps its speed into the floor, which it would cross within one step and be projected out
// below (before them, the sixth disc went through). Every disc stays on the floor to round-off.
TEST(ExactContacts, ManyDiscsLandingAtOnceStayOnAThinFloor) {
  std::string bodies = R"({"id": "floor", "type": "rigid", "mass": 1, "position": [0, 0], "static": true,
       "shape": {"type": "segment", "a": [-100, 0], "b": [100, 0]}})";
  constexpr int kDiscs = 20;
  constexpr double kRadius = 0.125;
  for (int i = 0; i < kDiscs; ++i) {
    bodies += R"(, {"id": "disc)" + std::to_string(i) + R"(", "type": "rigid", "mass": 0.05, "position": [)" +
              number(0.3 * i) + ", " + number(10.0 + 0.3 * i) + R"(], "shape": {"type": "circle", "radius": )" +
              number(kRadius) + "}}";
  }
  Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, -9.81], )" + exactSettings(1.0 / 60.0) +
                           R"(, "bodies": [)" + bodies + "]}");
  scene.settings.velocity.friction = 0.6;
  Simulator simulator(scene.model, scene.settings);
  double lowest = INFINITY;
  for (int k = 0; k < 180; ++k) {
    simulator.step();
    for (int i = 0; i < kDiscs; ++i) {
      const BodyId disc = *scene.model.findBody("disc" + std::to_string(i));
      lowest = std::min(lowest, scene.model.coordinates(disc)[1] - kRadius);
    }
  }
  EXPECT_GT(lowest, -1e-9) << "a disc went into or through the floor";
}

// The strandbeest walks on its own feet (scenes/strandbeest_walking.json): the motor turns the
// crank against the free frame, and the feet carry it to the right, about 0.7 m a second, its
// frame level and at its height, every joint closed and no foot in the ground.
TEST(ExactContacts, TheStrandbeestWalksOnItsOwnFeet) {
  Scene scene = loadScene(std::string(TINKERTOY_SOURCE_DIR) + "/scenes/strandbeest_walking.json");
  const BodyId frame = *scene.model.findBody("frame");
  const Eigen::VectorXd start = scene.model.coordinates(frame);
  Simulator simulator(scene.model, scene.settings);
  double deepest = 0.0, tilt = 0.0, joints = 0.0;
  int touching = 1000;
  for (int k = 0; k < 240; ++k) {
    simulator.step();
    deepest = std::max(deepest, simulator.diagnostics().penetration);
    joints = std::max(joints, simulator.diagnostics().constraintError);
    tilt = std::max(tilt, std::abs(scene.model.coordinates(frame)[2]));
    if (k >= 60) touching = std::min(touching, static_cast<int>(simulator.contacts().size()));
  }
  const Eigen::VectorXd q = scene.model.coordinates(frame);
  EXPECT_GT(q[0] - start[0], 2.0) << "it walked";
  EXPECT_NEAR(q[1], start[1], 0.02) << "at its height";
  EXPECT_LT(tilt, 0.1) << "level, within 6 degrees as its feet change";
  EXPECT_GE(touching, 2) << "on two feet at least at every step once it walks";
  EXPECT_LT(deepest, 1e-9);
  EXPECT_LT(joints, 1e-9);
}

// A ball thrown at the ground at (3, −5) m/s bounces (e = 0.8) with friction μ = 0.05: the bounce's
// normal impulse 9 m·(m/s) takes 0.45 from v_x and gives the spin of that impulse at the rim; the
// substeps after it, in the air, take nothing (a friction impulse does not outlive the normal one).
TEST(ExactContacts, ABouncesFrictionFollowsCoulombAndEndsWithIt) {
  Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, 0], )" + exactSettings(1.0 / 240.0) + R"(,
    "bodies": [
      {"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
       "shape": {"type": "box", "size": [10, 1]}},
      {"id": "ball", "type": "rigid", "mass": 1, "position": [0, 0.26], "velocity": [3, -5], "restitution": 0.8,
       "friction": 0.0025, "shape": {"type": "circle", "radius": 0.25}}]})");  // μ = √(0.0025 · 1)
  scene.model.setCollider(*scene.model.findBody("ground"), Collider{.friction = 1.0});
  Simulator simulator(scene.model, scene.settings);
  const BodyId ball = *scene.model.findBody("ball");
  for (int k = 0; k < 10; ++k) simulator.step();
  const Eigen::VectorXd v = scene.model.velocities(ball);
  EXPECT_NEAR(v[1], 4.0, 1e-9) << "e times the approach";
  EXPECT_NEAR(v[0], 3.0 - 0.05 * 9.0, 1e-9) << "μ times the normal impulse";
  const double inertia = 0.5 * 0.25 * 0.25;
  EXPECT_NEAR(v[2], -0.05 * 9.0 * 0.25 / inertia, 0.05 * std::abs(v[2])) << "the friction's torque at the rim";
}

// A box squeezed between a kinematic pusher and a static wall: no impulse satisfies both
// contacts. The normal impulses stop at their bound (100 m/s of normal velocity beyond the
// approach) instead of running away, and the projection says it cannot hold.
TEST(ExactContacts, AnImpossibleSqueezeStaysBounded) {
  Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, -9.81], )" + exactSettings(1.0 / 60.0, 4) + R"(,
    "bodies": [
      {"id": "ground", "type": "rigid", "mass": 1, "static": true, "position": [0, -0.5], "shape": {"type": "box", "size": [10, 1]}},
      {"id": "wall", "type": "rigid", "mass": 1, "static": true, "position": [2, 1], "shape": {"type": "box", "size": [0.2, 2]}},
      {"id": "pusher", "type": "rigid", "mass": 1, "kinematic": true, "position": [-1, 0.5], "velocity": [1, 0],
       "shape": {"type": "box", "size": [0.4, 1]}},
      {"id": "box", "type": "rigid", "mass": 1, "position": [1.0, 0.25], "shape": {"type": "box", "size": [0.5, 0.5]}}]})");
  Simulator simulator(scene.model, scene.settings);
  int unconverged = 0;
  for (int k = 0; k < 180; ++k) {
    simulator.step();
    unconverged += simulator.diagnostics().projectionConverged ? 0 : 1;
    ASSERT_TRUE(scene.model.v().allFinite()) << "step " << k;
    ASSERT_LT(scene.model.velocities(*scene.model.findBody("box")).norm(), 200.0) << "step " << k;
  }
  EXPECT_GT(unconverged, 0) << "the projection reports that the contacts cannot all hold";
}

// A soft spring joins two bodies that fall onto the ground: its rows keep their own impulses in
// the joint solve with the contacts, so the ledger books its work as without contacts.
TEST(ExactContacts, ASpringAmongContactsKeepsItsWork) {
  Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, -9.81], )" + exactSettings(1.0 / 60.0, 4) + R"(,
    "bodies": [
      {"id": "ground", "type": "rigid", "mass": 1, "static": true, "position": [0, -0.5], "shape": {"type": "box", "size": [10, 1]}},
      {"id": "a", "type": "rigid", "mass": 1, "position": [0, 1.0], "shape": {"type": "box", "size": [0.5, 0.5]}},
      {"id": "b", "type": "rigid", "mass": 1, "position": [1.2, 1.5], "shape": {"type": "circle", "radius": 0.25}}],
    "constraints": [{"type": "distance", "a": "a", "b": "b", "frequency": 2, "damping_ratio": 0.1}]})");
  Simulator simulator(scene.model, scene.settings);
  const double start = simulator.diagnostics().totalEnergy();
  double springs = 0.0, total = 0.0;
  for (int k = 0; k < 180; ++k) {
    simulator.step();
    springs += simulator.diagnostics().work[WorkSource::Springs];
    total += simulator.diagnostics().work.total();
  }
  EXPECT_LT(springs, -0.1) << "the damped spring took energy, booked";
  EXPECT_NEAR(simulator.diagnostics().totalEnergy() - start - total, 0.0, 0.02 * std::abs(total));
  EXPECT_LT(simulator.diagnostics().penetration, 1e-9);
}

// A saved state resumes the exact mode bit for bit, and two threads give what one does.
TEST(ExactContacts, RunsResumeAndRepeatToTheBit) {
  const std::string text = R"({"dimension": 2, "gravity": [0, -9.81], )" + exactSettings(1.0 / 60.0, 4) + R"(,
    "bodies": [
      {"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
       "shape": {"type": "box", "size": [10, 1]}},
      {"id": "a", "type": "rigid", "mass": 1, "position": [0, 0.6], "angle": 0.2, "shape": {"type": "box", "size": [0.6, 0.4]}},
      {"id": "b", "type": "rigid", "mass": 1, "position": [0.1, 1.4], "shape": {"type": "circle", "radius": 0.2}},
      {"id": "c", "type": "rigid", "mass": 1, "position": [1.5, 0.5], "velocity": [-2, 0],
       "shape": {"type": "box", "size": [0.3, 0.3]}}]})";
  Scene scene = parseScene(text);
  Simulator simulator(scene.model, scene.settings);
  for (int k = 0; k < 40; ++k) simulator.step();
  const std::string state = simulator.saveState();
  testing_support::ResumedRun resumed(text, state);
  Scene threaded = parseScene(text);
  threaded.settings.threads = 2;
  Simulator twoThreads(threaded.model, threaded.settings);
  for (int k = 0; k < 40; ++k) twoThreads.step();
  for (int k = 0; k < 60; ++k) {
    simulator.step();
    resumed.simulator.step();
    twoThreads.step();
  }
  EXPECT_EQ(resumed.scene.model.q(), scene.model.q());
  EXPECT_EQ(resumed.scene.model.v(), scene.model.v());
  EXPECT_EQ(threaded.model.q(), scene.model.q());
  EXPECT_EQ(threaded.model.v(), scene.model.v());
}

// The shipped ten-row pyramid (scenes/pyramid.json, 55 boxes, about 290 points) in the exact mode,
// one substep: at rest, its active set settles within a factorization or two a step, and the pile
// neither sinks nor gains energy. (A release rule that lets go rows at rest as well as those that
// approach cycles here to the cap of changes, 50 factorizations a step: bench/RESULTS.md.)
TEST(ExactContacts, ARestingPyramidSettlesItsActiveSetInAFewFactorizationsAStep) {
  Scene scene = loadScene(std::string(TINKERTOY_SOURCE_DIR) + "/scenes/pyramid.json");
  scene.settings.solver.kind = SolverKind::SparseLdlt;
  scene.settings.velocity.substeps = 1;
  scene.settings.velocity.positionCorrection = PositionCorrection::Projection;
  Simulator simulator(scene.model, scene.settings);
  simulator.step();  // the first touch: every point new
  const double energy = simulator.diagnostics().totalEnergy();
  int most = 0, total = 0;
  constexpr int kSteps = 120;
  for (int k = 0; k < kSteps; ++k) {
    simulator.step();
    most = std::max(most, simulator.diagnostics().factorizations);
    total += simulator.diagnostics().factorizations;
    EXPECT_LT(simulator.diagnostics().penetration, 1e-9);
    EXPECT_NEAR(simulator.diagnostics().totalEnergy(), energy, 1e-9 * std::abs(energy)) << "step " << k;
  }
  EXPECT_LE(most, 3);
  EXPECT_LE(total, 2 * kSteps);
  RecordProperty("factorizations", std::to_string(total));
}

}  // namespace
}  // namespace tinkertoy
