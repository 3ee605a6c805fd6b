// The Studio's session: what the energy plot records (issue #15, bugs 3 and 4, and item 11's
// work ledger).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "document.hpp"
#include "session.hpp"

namespace tinkertoy::studio {
namespace {

// A pendulum: a particle on a rod to a nail, at the acceleration level (so a drag is a mouse spring).
Document pendulum() {
  Document document;
  document.edit([](Json& scene) {
    scene["particles"].push_back({{"id", "bob"}, {"mass", 1.0}, {"position", {1.0, 0.0}}});
    scene["constraints"].push_back({{"type", "distance"}, {"a", "bob"}, {"b", {0.0, 0.0}}});
  });
  return document;
}

// The model's own energy: kinetic plus the forces' potentials (the mouse spring has none: it is
// the user's hand, outside the model).
double ownEnergy(const Model& model) {
  const StateView state = model.state();
  double energy = model.kineticEnergy(model.q(), model.v());
  for (std::size_t i = 0; i < model.forceCount(); ++i) energy += model.force(model.forceAt(i)).potentialEnergy(model.bodies(), state);
  return energy;
}

// In slow motion most frames take no step; a frame without a step adds no sample and changes
// none, even when the pointer jumps (the mouse spring's energy at the new pointer was subtracted
// from an energy measured at the old one: a −3650 J spike).
TEST(Session, SamplesOnlyAfterAStepWithEverythingMeasuredThere) {
  Document document = pendulum();
  Session session(document);
  session.timeScale = 0.1;
  session.beginDrag({*document.scene().model.findBody("bob"), 0}, Eigen::Vector2d(1.0, 0.0));
  session.setPlaying(true);
  constexpr double kFrame = 1.0 / 60.0;  // 1.7 ms of simulated time a frame, dt = 4.2 ms
  session.advance(kFrame, true);
  const std::size_t samples = session.history().size();
  const HistorySample last = session.history().back();
  session.moveDrag(Eigen::Vector2d(30.0, -40.0));  // the pointer jumps far away
  session.advance(kFrame, true);                   // no step yet
  ASSERT_EQ(session.history().size(), samples);
  EXPECT_EQ(session.history().back().total, last.total);
  EXPECT_EQ(session.history().back().time, last.time);
  // The pointer moves every frame; whenever a frame stepped, its sample is the model's own energy
  // (the mouse spring's left out) at the state of that step.
  int checked = 0;
  for (int frame = 0; frame < 40; ++frame) {
    session.moveDrag(Eigen::Vector2d(std::cos(frame), -1.0 - 0.05 * frame));
    session.advance(kFrame, true);
    const Model& model = document.scene().model;
    if (session.history().back().time != model.time()) continue;
    ++checked;
    EXPECT_NEAR(session.history().back().total, ownEnergy(model), 1e-9) << "frame " << frame;
  }
  EXPECT_GT(checked, 5);
}

// Dragging the pendulum round puts energy in; the ledger books it as the mouse's, so the plot's
// numerical error, E − E0 − W, is what is left. The spring's share is exact (its energy before
// and after each step, the target held still); the damping's −c|ẋ|² is summed by the trapezoid
// rule, whose error at each frame's jump of the pointer is about (h²/12) 2c |ẋ| k |Δtarget|
// = 1.2e-6 · 2 · 35 · 1.2 · 630 · 0.02 ≈ 1.3e-3 J, 120 frames: 0.16 J, 2 % of the 8 J put in.
// Bound: 3 %.
TEST(Session, TheLedgerBooksTheMousesWork) {
  Document document = pendulum();
  Session session(document);
  session.beginDrag({*document.scene().model.findBody("bob"), 0}, Eigen::Vector2d(1.0, 0.0));
  session.setPlaying(true);
  for (int frame = 0; frame < 120; ++frame) {
    const double angle = 0.02 * frame;
    session.moveDrag(Eigen::Vector2d(std::cos(angle), std::sin(angle)));
    session.advance(1.0 / 60.0, true);
  }
  const HistorySample& first = session.history().front();
  const HistorySample& last = session.history().back();
  const double mouse = session.work()[WorkSource::Mouse];
  EXPECT_GT(mouse, 5.0);
  EXPECT_NEAR(last.work - first.work, mouse, 1e-12);
  EXPECT_LT(std::abs(last.total - first.total - (last.work - first.work)), 0.03 * mouse);
}

// A mouse joint pulls with what the whole mechanism needs: the strandbeest, grabbed by the foot
// while it walks and held there, stalls against its 200 N·m motor. (A grip tuned to the foot's
// 0.18 kg alone, 18 N, let the crank drag the foot round at a turn a second.) (item 15)
TEST(Session, TheMouseCanStallAMotorizedMechanism) {
  Document document;
  document.open(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes/strandbeest.json");
  Session session(document);
  const Model& model = document.scene().model;
  const BodyId crank = *model.findBody("crank");
  const BodyPoint foot{*model.findBody("foot"), Eigen::Vector2d(0.0, -0.25)};
  session.setPlaying(true);
  for (int frame = 0; frame < 30; ++frame) session.advance(1.0 / 60.0, true);
  const Eigen::Vector2d held = model.position(foot).head<2>();
  session.beginDrag(foot, held);
  for (int frame = 0; frame < 30; ++frame) session.advance(1.0 / 60.0, true);
  const double angle = model.coordinates(crank)[2];
  double strayed = 0.0;
  for (int frame = 0; frame < 30; ++frame) {
    session.advance(1.0 / 60.0, true);
    strayed = std::max(strayed, (model.position(foot).head<2>() - held).norm());
  }
  EXPECT_LT(std::abs(model.coordinates(crank)[2] - angle), 1e-3) << "rad in the last half second: the crank stalls";
  EXPECT_LT(strayed, 0.15) << "m from where the foot is held";
}

// The status bar names a direct solve's work by its factorizations, never "ldlt: 6 iterations"
// (item 15).
TEST(Session, TheSolverReportNamesADirectSolvesFactorizations) {
  Document document = pendulum();
  document.edit([](Json& scene) { scene["settings"]["solver"] = "ldlt"; });
  Session session(document);
  session.step();
  const std::string direct = session.solverReport();
  EXPECT_EQ(direct.rfind("ldlt: ", 0), 0U) << direct;
  const StepDiagnostics& d = session.simulator().diagnostics();
  ASSERT_EQ(d.factorizations, d.solves) << "rk4's stages each factor: no reuse in this step";
  EXPECT_EQ(direct.rfind("ldlt: " + std::to_string(d.factorizations) + " factorizations, residual ", 0), 0U) << direct;

  document.edit([](Json& scene) { scene["settings"]["solver"] = "cg"; });
  session.sync();
  session.step();
  const std::string iterative = session.solverReport();
  EXPECT_EQ(iterative.rfind("cg: ", 0), 0U) << iterative;
  EXPECT_NE(iterative.find(" iteration"), std::string::npos) << iterative;
  EXPECT_EQ(iterative.find("factorization"), std::string::npos) << iterative;
  EXPECT_NE(iterative.find(", residual "), std::string::npos) << iterative;

  // Sequential passes stop at their count: no residual to report (it read 0.0e+00 while ‖C‖ was
  // 3e-2).
  document.edit([](Json& scene) {
    scene["settings"]["formulation"] = "velocity";
    scene["settings"]["solver"] = "sequential";
  });
  session.sync();
  session.step();
  const std::string passes = session.solverReport();
  EXPECT_EQ(passes.rfind("sequential: ", 0), 0U) << passes;
  EXPECT_NE(passes.find(" passes"), std::string::npos) << passes;
  EXPECT_EQ(passes.find("residual"), std::string::npos) << passes;
}

// F frames the motion so far: the paths recorded while running cover where a thrown particle
// started and where it is now (item 15).
TEST(Session, ThePathsRecordedCoverTheMotionSoFar) {
  Document document;
  document.edit([](Json& scene) {
    scene["particles"].push_back({{"id", "stone"}, {"mass", 1.0}, {"position", {0.0, 0.0}}, {"velocity", {3.0, 4.0}}});
  });
  Session session(document);
  session.setPlaying(true);
  for (int frame = 0; frame < 60; ++frame) session.advance(1.0 / 60.0, true);
  const Model& model = document.scene().model;
  const Eigen::Vector2d now = model.position(*model.findBody("stone")).head<2>();  // a 2D scene
  ASSERT_GT(now.x(), 2.9);
  const Bounds bounds = session.pathBounds(ViewDirection::front());
  const Eigen::Vector2d low = bounds.min, high = bounds.max;
  EXPECT_LT(low.x(), 1e-9);
  EXPECT_GT(high.x(), now.x() - 1e-9);
  EXPECT_GT(high.y(), 0.8) << "the top of the arc, about 4² / (2 · 9.81) m up";
}

// An edit mid-run restarts time at 0 and clears the curves of the run before it.
TEST(Session, AnEditThatRestartsTimeClearsTheHistory) {
  Document document = pendulum();
  Session session(document);
  session.setPlaying(true);
  for (int frame = 0; frame < 60; ++frame) session.advance(1.0 / 60.0, true);
  ASSERT_GT(session.history().back().time, 0.9);
  document.edit([](Json& scene) { scene["particles"][0]["mass"] = 2.0; });
  session.advance(1.0 / 60.0, true);
  ASSERT_LT(document.scene().model.time(), 0.1);
  for (const HistorySample& sample : session.history()) EXPECT_LT(sample.time, 0.1);
  EXPECT_EQ(session.history().front().work, 0.0);  // the ledger starts again with the curves
}

// A traced path starts afresh at a reset (it used to draw a straight line from where the bob
// had swung to back to where it starts), and the trace itself lasts.
TEST(Session, ATraceStartsAfreshAtAReset) {
  Document document = pendulum();
  Session session(document);
  const BodyId bob = *document.scene().model.findBody("bob");
  ASSERT_TRUE(session.toggleTrace({bob, 0}));
  session.setPlaying(true);
  for (int frame = 0; frame < 30; ++frame) session.advance(1.0 / 60.0, true);
  ASSERT_EQ(session.traces().size(), 1u);
  ASSERT_GT(session.traces()[0].path.size(), 10u);
  document.reset();
  session.restart();
  ASSERT_EQ(session.traces().size(), 1u) << "the trace lasts through the reset";
  for (const Eigen::Vector3d& p : session.traces()[0].path) {
    EXPECT_LT((p - Eigen::Vector3d(1, 0, 0)).norm(), 1e-12) << "a point of the run before the reset: " << p.transpose();
  }
}

}  // namespace
}  // namespace tinkertoy::studio
