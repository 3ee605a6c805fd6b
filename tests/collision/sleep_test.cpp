// Sleeping islands (settings "sleep": true; dynamics/sleeping_islands.hpp): a pile at rest falls
// asleep and stays exactly where it is, still holding its contacts; a box dropped on it wakes it
// within the step it lands; an edit wakes everything; a body a hinge holds never sleeps, nor does
// what a moving kinematic body carries; a saved state resumes through a wake bit for bit, on one
// thread or two; and the work ledger books the energy the sleepers held.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/pyramid_scene.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "support/resumed_run.hpp"

namespace tinkertoy {
namespace {

constexpr double kDt = 1.0 / 60.0;

// The soft step with sleep on, as Box2D v3 runs it.
const std::string kSleepingSoftStep = R"("solver": "sequential", "position_correction": "soft", "iterations": 1,
                                         "substeps": 4, "sleep": true)";

// A pyramid of `rows` rows of 1 m boxes, 5 cm apart, on a static ground, more bodies, and the
// solver's settings.
std::string pile(int rows, const std::string& extraBodies = "", const std::string& solver = kSleepingSoftStep) {
  return testing_support::pyramidScene(rows, 1.05, solver, extraBodies);
}

int boxes(int rows) { return rows * (rows + 1) / 2; }

// Steps until `count` bodies sleep, at most `most` steps; the steps taken.
int stepUntilAsleep(Simulator& simulator, int count, int most) {
  for (int k = 1; k <= most; ++k) {
    simulator.step();
    if (simulator.diagnostics().asleep == count) return k;
  }
  ADD_FAILURE() << "only " << simulator.diagnostics().asleep << " of " << count << " bodies asleep";
  return most;
}

// A 5-row pyramid settles and falls asleep, every box at once (one island through its contacts),
// no sooner than the sleep time. From then on its q stays the same bits and its v zero, no contact
// is searched or solved (contact points 0), and its contacts are still reported, holding its weight.
TEST(Sleep, APileAtRestFallsAsleepAndStaysExactlyWhereItIs) {
  Scene scene = parseScene(pile(5));
  Simulator simulator(scene.model, scene.settings);
  const int steps = stepUntilAsleep(simulator, boxes(5), 300);
  EXPECT_GE(steps * kDt, scene.settings.velocity.sleepTime);
  const Eigen::VectorXd q = scene.model.q();
  EXPECT_EQ(scene.model.v().norm(), 0.0);
  for (int k = 0; k < 120; ++k) simulator.step();
  EXPECT_EQ(scene.model.q(), q);
  EXPECT_EQ(scene.model.v().norm(), 0.0);
  EXPECT_EQ(simulator.diagnostics().contactPoints, 0);
  EXPECT_EQ(simulator.diagnostics().asleep, boxes(5));
  // Its points, set aside with their impulses: together they hold up the pile's weight over a
  // substep, along the ground's normal (the points between boxes cancel in pairs, so only the
  // ground's count).
  double held = 0.0;
  const BodyId ground = *scene.model.findBody("ground");
  for (const ContactReport& c : simulator.contacts()) {
    if (c.a == ground) held += c.normalImpulse * c.normal.y();
  }
  const double weight = boxes(5) * 9.81 * kDt / 4;
  EXPECT_NEAR(held, weight, 0.02 * weight);
}

// The kinetic energy left when the pile fell asleep is on the ledger's `sleep` line: small (every
// point slower than 5 cm/s) and negative, and with it E − E₀ − W stays at the soft step's error.
TEST(Sleep, TheLedgerBooksTheEnergyTheSleepersHeld) {
  Scene scene = parseScene(pile(5));
  Simulator simulator(scene.model, scene.settings);
  const double start = simulator.diagnostics().totalEnergy();
  double work = 0.0, slept = 0.0;
  for (int k = 0; k < 120; ++k) {
    simulator.step();
    work += simulator.diagnostics().work.total();
    slept += simulator.diagnostics().work[WorkSource::Sleep];
  }
  ASSERT_EQ(simulator.diagnostics().asleep, boxes(5));
  EXPECT_LT(slept, 0.0);
  EXPECT_GT(slept, -boxes(5) * 0.5 * 1.0 * 0.05 * 0.05) << "at most ½ m (5 cm/s)² a box";
  EXPECT_NEAR(simulator.diagnostics().totalEnergy() - start - work, 0.0, 0.05);
}

// A box dropped from 12 m onto the sleeping pile wakes it in the step it reaches it: the pile
// is awake then, the box lands on it without sinking in, and the whole pile (with the box)
// falls asleep again afterwards. Without sleep the same run gives the same landing to within the
// soft contacts' millimetres.
TEST(Sleep, ABoxLandingOnASleepingPileWakesItBeforeItsContactsAreSolved) {
  const std::string drop = R"(, {"id": "drop", "type": "rigid", "mass": 1, "position": [0.2, 18],
                               "shape": {"type": "box", "size": [1, 1]}})";
  Scene scene = parseScene(pile(4, drop));
  Simulator simulator(scene.model, scene.settings);
  const BodyId box = *scene.model.findBody("drop"), top = *scene.model.findBody("b3_0");
  bool sleptBeforeLanding = false, wokeOnLanding = false;
  double deepest = 0.0;
  for (int k = 0; k < 600; ++k) {
    const bool asleep = simulator.diagnostics().asleep == boxes(4);
    simulator.step();
    const double gap = scene.model.coordinates(box)[1] - scene.model.coordinates(top)[1] - 1.0;
    if (asleep && gap > 1.0) sleptBeforeLanding = true;
    if (asleep && gap < 0.5 && simulator.diagnostics().asleep == 0) wokeOnLanding = true;
    deepest = std::max(deepest, simulator.diagnostics().penetration);
  }
  EXPECT_TRUE(sleptBeforeLanding);
  EXPECT_TRUE(wokeOnLanding);
  EXPECT_LT(deepest, 0.05) << "a landing at 15 m/s, pushed out by the soft contacts";
  EXPECT_EQ(simulator.diagnostics().asleep, boxes(4) + 1) << "all asleep again, the dropped box too";
}

// Any edit wakes every island: here the state set again (as the Studio or Python may), and a mass.
TEST(Sleep, AnEditWakesEveryIsland) {
  Scene scene = parseScene(pile(3));
  Simulator simulator(scene.model, scene.settings);
  stepUntilAsleep(simulator, boxes(3), 300);
  scene.model.setState(scene.model.time(), scene.model.q(), scene.model.v());
  simulator.step();
  EXPECT_EQ(simulator.diagnostics().asleep, 0);
  stepUntilAsleep(simulator, boxes(3), 300);
  scene.model.editBody<RigidBodySettings>(*scene.model.findBody("b0_0"), [](RigidBodySettings& s) { s.mass = 2.0; });
  simulator.step();
  EXPECT_EQ(simulator.diagnostics().asleep, 0);
}

// A box that a hinge holds never sleeps, and neither does the box resting on it (one island);
// a box on a moving kinematic belt stays awake while the belt moves, even slower than the sleep
// speed (asleep, the finder would wake it at once). Sleep off: nobody sleeps.
TEST(Sleep, WhatAJointOrAMovingBodyHoldsStaysAwake) {
  const std::string hinged = R"(, {"id": "hinged", "type": "rigid", "mass": 1, "position": [8, 0.5],
                                 "shape": {"type": "box", "size": [1, 1]}},
                                {"id": "rider", "type": "rigid", "mass": 1, "position": [8, 1.5],
                                 "shape": {"type": "box", "size": [1, 1]}}],
    "constraints": [{"type": "revolute", "a": "hinged", "b": null, "anchor": [8, 0.5]})";
  std::string text = pile(1, hinged);
  Scene scene = parseScene(text);
  Simulator simulator(scene.model, scene.settings);
  for (int k = 0; k < 120; ++k) simulator.step();
  EXPECT_EQ(simulator.diagnostics().asleep, 1) << "the lone pyramid box only";

  Scene belt = parseScene(R"({"dimension": 2, "gravity": [0, -9.81],
    "settings": {"formulation": "velocity", "solver": "sequential", "position_correction": "soft", "iterations": 1,
                 "dt": 0.016666666666666666, "substeps": 4, "collisions": true, "sleep": true, "friction": 0.0},
    "bodies": [
      {"id": "belt", "type": "rigid", "mass": 1, "position": [0, -0.5], "kinematic": true, "velocity": [0.02, 0],
       "shape": {"type": "box", "size": [100, 1]}},
      {"id": "box", "type": "rigid", "mass": 1, "position": [0, 0.5], "shape": {"type": "box", "size": [1, 1]}}]})");
  Simulator carried(belt.model, belt.settings);
  for (int k = 0; k < 120; ++k) carried.step();
  EXPECT_EQ(carried.diagnostics().asleep, 0) << "the box rests (no friction) but the belt under it moves";

  Scene awake = parseScene(pile(3, "", R"("solver": "sequential", "position_correction": "soft", "substeps": 4)"));
  Simulator plain(awake.model, awake.settings);
  for (int k = 0; k < 120; ++k) plain.step();
  EXPECT_EQ(plain.diagnostics().asleep, 0);
}

// A state saved while the pile sleeps and the box is falling resumes, through the wake, to the
// bits of the run that went on; on two threads too, to the same bits as one.
TEST(Sleep, ASavedStateResumesThroughAWakeBitForBit) {
  const std::string drop = R"(, {"id": "drop", "type": "rigid", "mass": 1, "position": [0.2, 14],
                               "shape": {"type": "box", "size": [1, 1]}})";
  for (const int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    const std::string text = pile(4, drop, kSleepingSoftStep + R"(, "threads": )" + std::to_string(threads));
    Scene scene = parseScene(text);
    Simulator simulator(scene.model, scene.settings);
    for (int k = 0; k < 70; ++k) simulator.step();
    ASSERT_EQ(simulator.diagnostics().asleep, boxes(4));
    const std::string state = simulator.saveState();
    testing_support::ResumedRun resumed(text, state);
    EXPECT_EQ(resumed.simulator.contacts().size(), simulator.contacts().size());
    for (int k = 0; k < 240; ++k) {
      simulator.step();
      resumed.simulator.step();
    }
    EXPECT_EQ(resumed.scene.model.q(), scene.model.q());
    EXPECT_EQ(resumed.scene.model.v(), scene.model.v());
    EXPECT_EQ(resumed.simulator.diagnostics().asleep, simulator.diagnostics().asleep);
    // Restored into the simulator that went on (its sleepers' boxes made where they slept later):
    // the same run again.
    const Eigen::VectorXd end = scene.model.q();
    simulator.restoreState(state);
    for (int k = 0; k < 240; ++k) simulator.step();
    EXPECT_EQ(scene.model.q(), end);
    Scene one = parseScene(pile(4, drop));
    Simulator single(one.model, one.settings);
    for (int k = 0; k < 310; ++k) single.step();
    EXPECT_EQ(one.model.q(), scene.model.q());
  }
}

// The exact mode and sequential impulses with Baumgarte sleep too.
TEST(Sleep, EveryContactSolverPutsAPileToSleep) {
  for (const std::string solver : {R"("solver": "sequential", "position_correction": "baumgarte", "iterations": 8,
                                      "substeps": 4, "sleep": true)",
                                   R"("solver": "ldlt", "position_correction": "projection", "sleep": true)"}) {
    SCOPED_TRACE(solver);
    Scene scene = parseScene(pile(3, "", solver));
    Simulator simulator(scene.model, scene.settings);
    stepUntilAsleep(simulator, boxes(3), 300);
    const Eigen::VectorXd q = scene.model.q();
    for (int k = 0; k < 30; ++k) simulator.step();
    EXPECT_EQ(scene.model.q(), q);
  }
}

}  // namespace
}  // namespace tinkertoy
