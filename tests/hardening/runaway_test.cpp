// A run whose numbers explode by tens of orders of magnitude without becoming non-finite is a
// blow-up (issue #34, "silent wrong success"; docs/theory.md, "Blow-ups"): reported with its step
// and culprit, the model keeping a last good state a user can continue from. And the criterion
// leaves honest runs alone: every shipped scene runs to its end elsewhere (cli/determinism_test,
// the examples), and here a user's own edits of the state are not mistaken for a runaway.
#include <gtest/gtest.h>

#include "cli_fixture.hpp"
#include "tinkertoy/tinkertoy.hpp"
#include "support/resumed_run.hpp"

namespace tinkertoy {
namespace {

struct Outcome {
  std::optional<SimulationError> error;
  std::uint64_t committed = 0;
  Eigen::VectorXd lastQ;
};

// Steps a scene until it fails or `steps` are done.
Outcome runScene(Scene& scene, int steps) {
  Simulator sim(scene.model, scene.settings);
  Outcome out;
  for (int i = 0; i < steps && !out.error; ++i) {
    try {
      sim.step();
    } catch (const SimulationError& e) {
      out.error = e;
    }
  }
  out.committed = sim.stepCount();
  out.lastQ = scene.model.q();
  return out;
}

// A spring of 1e8 N/m on a pendulum at dt = 1/240 s: RK4 multiplies its energy by orders of
// magnitude every step; the particle would reach 1e62 m before anything overflowed. It is
// refused at the step that runs away, and the state kept is the last one that did not.
TEST(Runaway, AStiffSpringPendulumIsRefusedWhileItsStateIsStillSane) {
  Scene scene = parseScene(R"({"particles": [{"id": "p1", "mass": 1, "position": [0, -1]},
                                             {"id": "p2", "mass": 1, "position": [0, -2]}],
      "constraints": [{"type": "distance", "a": "p1", "b": [0, 0]}],
      "forces": [{"type": "spring", "a": "p1", "b": "p2", "stiffness": 1e8, "rest_length": 1}],
      "settings": {"dt": 0.004166666666666667}})");
  scene.model.setVelocity(*scene.model.findBody("p2"), Eigen::Vector2d(0.1, 0));
  const Outcome out = runScene(scene, 10'000);
  ASSERT_TRUE(out.error.has_value()) << "never refused; q = " << out.lastQ.transpose();
  const std::string what = out.error->what();
  EXPECT_NE(what.find("simulation blew up at step " + std::to_string(out.committed + 1)), std::string::npos) << what;
  EXPECT_NE(what.find("the state ran away"), std::string::npos) << what;
  EXPECT_NE(what.find("The model keeps the state of step " + std::to_string(out.committed)), std::string::npos);
  ASSERT_TRUE(out.error->body().has_value());
  // The last good state is one to continue from: within a few metres, not at 1e62 m.
  EXPECT_LT(out.lastQ.lpNorm<Eigen::Infinity>(), 1e3) << out.lastQ.transpose();
}

// A refused step leaves the model at the last good state, and the same step, tried again, is
// refused again: the refusal makes the formulation forget what its substeps kept, but it is no
// edit of the model, so the criterion keeps its reference (it once took it for one, and the
// retried step was committed with the particles hundreds of metres away).
TEST(Runaway, ARefusedStepTriedAgainIsRefusedAgain) {
  Scene scene = parseScene(R"({"particles": [{"id": "p1", "mass": 1, "position": [0, -1]},
                                             {"id": "p2", "mass": 1, "position": [0, -2]}],
      "forces": [{"type": "spring", "a": "p1", "b": "p2", "stiffness": 1e6, "rest_length": 1}],
      "settings": {"dt": 0.004166666666666667}})");
  scene.model.setVelocity(*scene.model.findBody("p2"), Eigen::Vector2d(0.1, 0));
  Simulator sim(scene.model, scene.settings);
  std::optional<std::uint64_t> refusedAt;
  for (int i = 0; i < 400 && !refusedAt; ++i) {
    try {
      sim.step();
    } catch (const SimulationError&) {
      refusedAt = sim.stepCount() + 1;
    }
  }
  ASSERT_TRUE(refusedAt.has_value()) << "never refused";
  const Eigen::VectorXd good = scene.model.q();
  for (int retry = 0; retry < 3; ++retry) {
    EXPECT_THROW(sim.step(), SimulationError) << "retry " << retry;
    EXPECT_EQ(sim.stepCount() + 1, *refusedAt);
    EXPECT_EQ(scene.model.q(), good);
  }
}

// A formula whose time term has a pole between steps (t / (t − 0.25)): its constraint would be
// driven at 1e25 m/s. The step that crosses the pole is refused, naming the constraint.
TEST(Runaway, AFormulaWithAPoleInTimeIsABlowUpNamingTheConstraint) {
  Scene scene = parseScene(R"json({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}],
      "constraints": [{"type": "formula", "id": "pole", "points": {"p": "p"}, "C": "xp - 1 - t/(t-0.25)"}],
      "settings": {"dt": 0.001}})json");
  const Outcome out = runScene(scene, 1000);
  ASSERT_TRUE(out.error.has_value());
  const std::string what = out.error->what();
  EXPECT_NE(what.find("the constraints are coming apart: pole separates at"), std::string::npos) << what;
  EXPECT_NEAR(out.error->time(), 0.25, 0.002);
  ASSERT_TRUE(out.error->constraint().has_value());
  EXPECT_EQ(scene.model.name(*out.error->constraint()), "pole");
  EXPECT_TRUE(out.lastQ.allFinite());
}

// A driven point whose formula path x = 1/u passes through its pole.
TEST(Runaway, ADrivenPathThroughAPoleIsABlowUp) {
  Scene scene = parseScene(R"({"particles": [{"id": "p", "mass": 1, "position": [-2, 0]},
                                             {"id": "q", "mass": 1, "position": [-3, 0]}],
      "constraints": [{"type": "driven", "particle": "p", "path": {"type": "formula", "x": "1/u", "y": "0",
                                                                   "speed": 1, "phase": -0.5}},
                      {"type": "distance", "a": "p", "b": "q"}],
      "settings": {"dt": 0.001}})");
  const Outcome out = runScene(scene, 2000);
  ASSERT_TRUE(out.error.has_value());
  EXPECT_NE(std::string(out.error->what()).find("simulation blew up at step"), std::string::npos) << out.error->what();
  EXPECT_NEAR(out.error->time(), 0.5, 0.01);
}

// What the user does to the state is no runaway: a kick to 1e7 m/s between steps, whose energy
// is 1e7 times the free particle's scale, restarts the criterion's reference, and the run goes on.
TEST(Runaway, AnEditOfTheStateRestartsTheReference) {
  Scene scene = parseScene(R"({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}], "settings": {"dt": 0.001}})");
  Simulator sim(scene.model, scene.settings);
  for (int i = 0; i < 10; ++i) sim.step();
  scene.model.setVelocity(*scene.model.findBody("p"), Eigen::Vector2d(1e7, 0));
  for (int i = 0; i < 10; ++i) ASSERT_NO_THROW(sim.step()) << "step " << i;
  EXPECT_NEAR(scene.model.q()[0], 1.0 + 1e7 * 0.01, 1e-3);
}

// Edits that keep renewing the reference cannot keep a runaway alive: the Studio's mouse drag
// moves its target every frame, and each edit used to restart the criterion at the state's own
// energy, so a stiff spring ran to 1e150 m with a "last good state" there. The scale an edit
// gives the criterion is at most a thousand times the run's own.
TEST(Runaway, EditsEveryStepDoNotHideARunaway) {
  // Two particles on a 1e6 N/m spring, nothing else: RK4 at dt = 1/240 s multiplies the energy by
  // about 1400 a step, less than the criterion's million, so only its scale can catch it.
  Scene scene = parseScene(R"({"particles": [{"id": "p1", "mass": 1, "position": [0, -1]},
                                             {"id": "p2", "mass": 1, "position": [0, -2]}],
      "forces": [{"type": "spring", "a": "p1", "b": "p2", "stiffness": 1e6, "rest_length": 1}],
      "settings": {"dt": 0.004166666666666667}})");
  Model& model = scene.model;
  const BodyId p2 = *model.findBody("p2");
  model.setVelocity(p2, Eigen::Vector2d(0.1, 0));
  Simulator sim(model, scene.settings);
  std::optional<SimulationError> error;
  for (int i = 0; i < 2000 && !error; ++i) {
    model.setVelocity(p2, model.velocities(p2));  // an edit, as a drag's every frame is
    try {
      sim.step();
    } catch (const SimulationError& e) {
      error = e;
    }
  }
  ASSERT_TRUE(error.has_value()) << "never refused; q = " << model.q().transpose();
  EXPECT_NE(std::string(error->what()).find("the state ran away"), std::string::npos) << error->what();
  EXPECT_LT(model.q().lpNorm<Eigen::Infinity>(), 1e5) << "the last good state: " << model.q().transpose();
}

// The criterion is saved with the state: a resumed run judges every later step as the original.
TEST(Runaway, TheReferenceTravelsWithASavedState) {
  const char* json = R"({"particles": [{"id": "p1", "mass": 1, "position": [0, -1]},
                                        {"id": "p2", "mass": 1, "position": [0.3, -2]}],
      "constraints": [{"type": "distance", "a": "p1", "b": [0, 0]}],
      "forces": [{"type": "spring", "a": "p1", "b": "p2", "stiffness": 5e5, "rest_length": 1}],
      "settings": {"dt": 0.004, "project": false}})";
  Scene original = parseScene(json);
  Simulator first(original.model, original.settings);
  first.step();
  const std::string saved = first.saveState();
  std::optional<std::uint64_t> failedFirst, failedResumed;
  for (int i = 0; i < 5000 && !failedFirst; ++i) {
    try {
      first.step();
    } catch (const SimulationError& e) {
      failedFirst = e.step();
    }
  }
  testing_support::ResumedRun resumed(json, saved);
  for (int i = 0; i < 5000 && !failedResumed; ++i) {
    try {
      resumed.simulator.step();
    } catch (const SimulationError& e) {
      failedResumed = e.step();
    }
  }
  ASSERT_TRUE(failedFirst.has_value()) << "the stiff spring should run away";
  EXPECT_EQ(failedFirst, failedResumed);
  EXPECT_EQ(resumed.scene.model.q(), original.model.q());
}

}  // namespace

namespace cli {
namespace {

// The command line reports such a run as the blow-up it is: exit code 3, the step and the
// constraint, where it used to exit 0 with an energy error of 1e72 J.
TEST_F(Cli, ARunawayIsExitCodeThreeNamingTheStep) {
  const std::string scene = writeScene("pole.json", R"json({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}],
      "constraints": [{"type": "formula", "points": {"p": "p"}, "C": "xp - 1 - t/(t-0.25)"}],
      "settings": {"dt": 0.001, "duration": 1}})json");
  const Result r = tinkertoy({"run", scene});
  EXPECT_EQ(r.code, kBlowUp) << r.out << r.err;
  EXPECT_NE(r.err.find("simulation blew up at step 250 (t = 0.249 s): the constraints are coming apart: constraints[0]"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace cli
}  // namespace tinkertoy
