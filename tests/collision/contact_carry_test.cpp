// The soft step's contacts carried from step to step (dynamics/velocity_formulation.cpp,
// ContactSolver::carry): while no body has moved by more than the slop since its contacts were
// found, a step searches nothing and carries the points on, their gaps moved by the bodies'
// motion. A pile at rest then keeps the points of one search for many steps, and their gaps stay
// those a search would find; a body that moves is searched for again; and a state saved while the
// points are carried resumes bit for bit, on one thread or two.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "tinkertoy/dynamics/contact_finder.hpp"
#include "support/pyramid_scene.hpp"
#include "support/sealed_state.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "support/resumed_run.hpp"

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

// Steps `simulator` until, after its first 20 steps, a step carries its points on (they stay
// where they were found), at most `limit` steps; returns how many it took before that step
// (`limit`: none carried).
int stepUntilCarried(Simulator& simulator, int limit) {
  int steps = 0;
  for (std::vector<ContactReport> previous; steps < limit; ++steps) {
    simulator.step();
    const std::vector<ContactReport> now = simulator.contacts();
    if (steps > 20 && samePlaces(previous, now)) break;
    previous = now;
  }
  return steps;
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

// A box that falls is searched for at every step it moves by more than 2 cm (four times the
// slop); once it rests on the pile the points are carried again.
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
    const int steps = stepUntilCarried(simulator, 300);
    ASSERT_LT(steps, 300) << "the state is saved mid-carry";
    const std::string state = simulator.saveState();
    testing_support::ResumedRun resumed(text, state);
    int searches = 0;
    std::vector<ContactReport> previous = simulator.contacts();
    for (int k = 0; k < 150; ++k) {
      simulator.step();
      resumed.simulator.step();
      const std::vector<ContactReport> now = simulator.contacts();
      searches += samePlaces(previous, now) ? 0 : 1;
      previous = now;
    }
    EXPECT_GT(searches, 0) << "the resumed run searches again too";
    EXPECT_EQ(resumed.scene.model.q(), scene.model.q());
    EXPECT_EQ(resumed.scene.model.v(), scene.model.v());
    EXPECT_EQ(resumed.simulator.diagnostics().work.work, simulator.diagnostics().work.work);
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

// In each mode a pile's passes go colour by colour, their manifolds side by side in bundles that
// each prepare lays out again, over the last layout's memory: a state saved mid-run resumes, into
// a simulator whose bundles are new, to the bits of the run that went on (nothing of an earlier
// layout, such as the position passes' impulses, leaks into a later one).
TEST(ContactCarry, APileResumesBitForBitInEveryPushMode) {
  for (const char* mode : {R"("position_correction": "baumgarte", "iterations": 8, "substeps": 1)",
                           R"("position_correction": "none", "iterations": 8, "substeps": 1)",
                           R"("position_correction": "soft", "iterations": 1, "substeps": 4)"}) {
    SCOPED_TRACE(mode);
    const std::string text = testing_support::pyramidScene(20, 1.0, std::string(R"("solver": "sequential", )") + mode);
    Scene scene = parseScene(text);
    Simulator simulator(scene.model, scene.settings);
    for (int k = 0; k < 30; ++k) simulator.step();
    const std::string state = simulator.saveState();
    testing_support::ResumedRun resumed(text, state);
    for (int k = 0; k < 30; ++k) {
      simulator.step();
      resumed.simulator.step();
    }
    EXPECT_EQ(resumed.scene.model.q(), scene.model.q());
    EXPECT_EQ(resumed.scene.model.v(), scene.model.v());
  }
}

// An edit that gives a body a shape (a particle's radius from 0 to 0.2, one collider more). Saved
// before the step that takes the edit in, the state goes into a simulator of the edited model,
// which then steps to the bits of the one that saved it, and back into the one that saved it. A
// state saved before the edit goes into a simulator whose edit is still to be taken in (a state
// file holds no shapes): the edit holds, as in a simulator made with it.
TEST(ContactCarry, AStateSavedAroundAnEditOfTheShapesResumes) {
  const auto withBall = [](const std::string& radius) {
    std::string text = pile(4);
    text.insert(text.rfind('}'), R"(, "particles": [{"id": "ball", "mass": 1, "position": [0.3, 20], "radius": )" + radius + "}]");
    return text;
  };
  const auto giveTheBallItsShape = [](Model& model) {
    model.editBody<ParticleSettings>(*model.findBody("ball"), [](ParticleSettings& s) { s.radius = 0.2; });
  };
  const auto ballHeight = [](const Model& model) {
    return model.q()[static_cast<Eigen::Index>(model.offsetOf(*model.findBody("ball"))) + 1];
  };
  const auto run = [](Simulator& simulator) {
    for (int k = 0; k < 150; ++k) simulator.step();
  };
  Scene scene = parseScene(withBall("0"));
  Simulator simulator(scene.model, scene.settings);
  for (int k = 0; k < 60; ++k) simulator.step();
  const std::string before = simulator.saveState();
  giveTheBallItsShape(scene.model);
  const std::string state = simulator.saveState();
  testing_support::ResumedRun resumed(withBall("0.2"), state);
  run(simulator);
  run(resumed.simulator);
  EXPECT_EQ(resumed.scene.model.q(), scene.model.q());
  EXPECT_EQ(resumed.scene.model.v(), scene.model.v());
  EXPECT_NEAR(ballHeight(scene.model), 4.0 + 0.2, 0.01) << "the ball lands on the pile's top box as a disc";
  const Eigen::VectorXd end = scene.model.q();
  simulator.restoreState(state);
  run(simulator);
  EXPECT_EQ(scene.model.q(), end);

  Scene edited = parseScene(withBall("0")), made = parseScene(withBall("0.2"));
  Simulator editedLater(edited.model, edited.settings), madeWithIt(made.model, made.settings);
  giveTheBallItsShape(edited.model);
  editedLater.restoreState(before);
  madeWithIt.restoreState(before);
  run(editedLater);
  run(madeWithIt);
  EXPECT_EQ(edited.model.q(), made.model.q());
  EXPECT_NEAR(ballHeight(edited.model), 4.0 + 0.2, 0.01);
}

// A box resting on the ground carries its points; it is made 1.2 m tall (its center stays, so
// its bottom goes 10 cm into the ground), and the state saved before that is restored over it,
// into a simulator of the tall box and into the one that saved it, its edit still to be taken in.
// A state file's points are those of the shapes it was saved with: here they are not carried on,
// and the box is pushed out of the ground as when the edit is stepped without a restore.
TEST(ContactCarry, AStateSavedBeforeAnEditOfTheShapesCarriesNothingOver) {
  const auto grow = [](Model& model) {
    model.editBody<RigidBodySettings>(*model.findBody("b0_0"), [](RigidBodySettings& s) { s.shape = Shape::box(1.0, 1.2); });
  };
  const auto bottom = [](const Model& model) {
    return model.q()[static_cast<Eigen::Index>(model.offsetOf(*model.findBody("b0_0"))) + 1] - 0.6;
  };
  const auto run = [](Simulator& simulator) {
    for (int k = 0; k < 60; ++k) simulator.step();
  };
  Scene scene = parseScene(pile(1));
  Simulator simulator(scene.model, scene.settings);
  ASSERT_LT(stepUntilCarried(simulator, 120), 120) << "the state is saved mid-carry";
  const std::string state = simulator.saveState();

  Scene stepped = parseScene(pile(1));
  Simulator editedOnly(stepped.model, stepped.settings);
  editedOnly.restoreState(state);
  grow(stepped.model);
  run(editedOnly);
  EXPECT_GT(bottom(stepped.model), -0.01) << "stepping the edit pushes the box out";

  Scene tall = parseScene(pile(1));
  grow(tall.model);
  Simulator madeTall(tall.model, tall.settings);
  madeTall.restoreState(state);
  run(madeTall);
  EXPECT_GT(bottom(tall.model), -0.01) << "restored into a simulator of the tall box";

  grow(scene.model);
  simulator.restoreState(state);
  run(simulator);
  EXPECT_GT(bottom(scene.model), -0.01) << "restored over the edit still to be taken in";
  EXPECT_EQ(scene.model.q(), tall.model.q());
}

// A state whose carried manifold has a normal that is not a unit vector (forged, its checksum made
// true) is refused, naming it, and the simulator goes on as if never asked.
TEST(ContactCarry, AStateWithAForgedNormalIsRefused) {
  Scene scene = parseScene(pile(1));
  Simulator simulator(scene.model, scene.settings);
  for (int k = 0; k < 60; ++k) simulator.step();
  const std::string state = simulator.saveState();
  ASSERT_FALSE(simulator.contacts().empty());
  // The box rests on the ground: the points' normal is (0, 1) or (0, -1), stored as two doubles.
  std::string forged;
  for (const double y : {1.0, -1.0}) {
    const double normal[2] = {0.0, y};
    const std::string bytes(reinterpret_cast<const char*>(normal), sizeof normal);
    const std::size_t at = state.find(bytes, 32);
    if (at == std::string::npos || !forged.empty()) continue;
    forged = state;
    const double longer = 2.0 * y;
    std::memcpy(forged.data() + at + 8, &longer, 8);
  }
  ASSERT_FALSE(forged.empty()) << "the normal is in the state file";
  forged = testing_support::sealedState(forged, forged.substr(32));
  Scene twin = parseScene(pile(1));
  Simulator untouched(twin.model, twin.settings);
  for (int k = 0; k < 60; ++k) untouched.step();
  try {
    simulator.restoreState(forged);
    ADD_FAILURE() << "restored a forged normal";
  } catch (const StateError& e) {
    EXPECT_NE(std::string(e.what()).find("whose normal is not a unit vector"), std::string::npos) << e.what();
  }
  for (int k = 0; k < 30; ++k) {
    simulator.step();
    untouched.step();
  }
  EXPECT_EQ(scene.model.q(), twin.model.q());
}

}  // namespace
}  // namespace tinkertoy
