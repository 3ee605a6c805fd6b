// The soft step's contacts carried from step to step (dynamics/velocity_formulation.cpp,
// ContactSolver::carry): while no body has moved by more than twice the slop since its contacts
// were found, a step searches nothing and carries the points on, their gaps moved by the bodies'
// motion. A pile at rest then keeps the points of one search for many steps, and their gaps stay
// those a search would find; a body that moves is searched for again; and a state saved while the
// points are carried resumes bit for bit, on one thread or two.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tinkertoy/dynamics/contact_finder.hpp"
#include "support/pyramid_scene.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

constexpr double kDt = 1.0 / 60.0;

// A pyramid of `rows` rows of 1 m boxes on a static ground in the soft step, more bodies, and
// more settings.
std::string pile(int rows, const std::string& extraBodies = "", const std::string& extraSettings = "") {
  return testing_support::pyramidScene(
      rows, 1.0, R"("solver": "sequential", "position_correction": "soft", "iterations": 1, "substeps": 4)" + extraSettings,
      extraBodies);
}

// Whether two reports are the same points where they were found (a carried step's).
bool samePlaces(const std::vector<ContactReport>& x, const std::vector<ContactReport>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (x[k].point != y[k].point || x[k].normal != y[k].normal) return false;
  }
  return true;
}

// A pile settles; from then on most steps carry the points of an earlier search, and each carried
// point's gap is, to 0.1 mm, the one a search at the state finds for the same two bodies there.
TEST(ContactCarry, APileAtRestCarriesItsPointsAndTheirGapsStayTrue) {
  Scene scene = parseScene(pile(8));
  Simulator simulator(scene.model, scene.settings);
  for (int k = 0; k < 120; ++k) simulator.step();
  int carried = 0;
  double worst = 0.0;
  std::vector<ContactReport> before = simulator.contacts();
  for (int k = 0; k < 120; ++k) {
    simulator.step();
    const std::vector<ContactReport> now = simulator.contacts();
    if (!samePlaces(before, now)) {
      before = now;
      continue;
    }
    ++carried;
    ContactFinder finder;
    finder.build(scene.model);
    const std::span<const BodyContact> found = finder.find(scene.model.state(), kDt, 0.005);
    for (const ContactReport& p : now) {
      double nearest = INFINITY, gap = 0.0;
      for (const BodyContact& c : found) {
        if (scene.model.bodyAt(c.a) != p.a || scene.model.bodyAt(c.b) != p.b) continue;
        for (int i = 0; i < c.manifold.count; ++i) {
          const double apart = (c.manifold.points[i].point - p.point).norm();
          if (apart < nearest) nearest = apart, gap = c.manifold.points[i].separation;
        }
      }
      ASSERT_LT(nearest, 0.02) << "a search finds every carried point, where it was found";
      worst = std::max(worst, std::abs(gap - p.separation));
    }
  }
  EXPECT_GT(carried, 100) << "a pile at rest is seldom searched";
  EXPECT_LT(worst, 1e-4) << "carried gaps against searched ones, m";
  EXPECT_LT(scene.model.v().cwiseAbs().maxCoeff(), 0.05) << "the pile stands";
}

// A box that falls is searched for at every step it moves by more than the slop; once it rests
// on the pile the points are carried again.
TEST(ContactCarry, AFallingBodyIsSearchedForAtEveryStep) {
  const std::string drop = R"(, {"id": "drop", "type": "rigid", "mass": 1, "position": [0.2, 9],
                               "shape": {"type": "box", "size": [1, 1]}})";
  Scene scene = parseScene(pile(4, drop));
  Simulator simulator(scene.model, scene.settings);
  std::vector<ContactReport> before = simulator.contacts();
  int searchedWhileFalling = 0, falling = 0, carriedAtRest = 0;
  const auto dropIndex = static_cast<Eigen::Index>(scene.model.offsetOf(scene.model.bodyAt(scene.model.bodyCount() - 1)));
  for (int k = 0; k < 240; ++k) {
    simulator.step();
    const std::vector<ContactReport> now = simulator.contacts();
    const double speed = scene.model.v().segment<2>(dropIndex).norm();
    if (speed * kDt > 0.02) {
      ++falling;
      searchedWhileFalling += samePlaces(before, now) ? 0 : 1;
    } else if (k > 180) {
      carriedAtRest += samePlaces(before, now) ? 1 : 0;
    }
    before = now;
  }
  EXPECT_GT(falling, 10);
  EXPECT_EQ(searchedWhileFalling, falling);
  EXPECT_GT(carriedAtRest, 30);
  EXPECT_LT(simulator.diagnostics().penetration, 0.05);
}

// A state saved while a pile's points are carried resumes to the bits of the run that went on
// (which carries them on and searches again as the pile settles), into a new simulator and into
// the same one, on one thread and on two.
TEST(ContactCarry, AStateSavedWhilePointsAreCarriedResumesBitForBit) {
  for (const int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    const std::string text = pile(20, "", R"(, "threads": )" + std::to_string(threads));
    Scene scene = parseScene(text);
    Simulator simulator(scene.model, scene.settings);
    int steps = 0;
    for (std::vector<ContactReport> previous; steps < 300; ++steps) {
      simulator.step();
      const std::vector<ContactReport> now = simulator.contacts();
      if (steps > 20 && samePlaces(previous, now)) break;
      previous = now;
    }
    ASSERT_LT(steps, 300) << "the state is saved mid-carry";
    const std::string state = simulator.saveState();
    Scene again = parseScene(text);
    Simulator resumed(again.model, again.settings);
    resumed.restoreState(state);
    int searches = 0;
    std::vector<ContactReport> previous = simulator.contacts();
    for (int k = 0; k < 150; ++k) {
      simulator.step();
      resumed.step();
      const std::vector<ContactReport> now = simulator.contacts();
      searches += samePlaces(previous, now) ? 0 : 1;
      previous = now;
    }
    EXPECT_GT(searches, 0) << "the resumed run searches again too";
    EXPECT_EQ(again.model.q(), scene.model.q());
    EXPECT_EQ(again.model.v(), scene.model.v());
    EXPECT_EQ(resumed.diagnostics().work.work, simulator.diagnostics().work.work);
    const Eigen::VectorXd end = scene.model.q();
    simulator.restoreState(state);
    for (int k = 0; k < 150; ++k) simulator.step();
    EXPECT_EQ(scene.model.q(), end);
    Scene one = parseScene(pile(20));
    Simulator single(one.model, one.settings);
    for (int k = 0; k < steps + 151; ++k) single.step();
    EXPECT_EQ(one.model.q(), end);
  }
}

}  // namespace
}  // namespace tinkertoy
