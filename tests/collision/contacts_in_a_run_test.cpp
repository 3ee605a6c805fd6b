// Contacts in a simulation (settings "collisions": true): a box dropped on the ground comes to rest
// on it with the velocity level's substeps and with the soft step, the work ledger books what the
// contacts take, a saved state resumes bit for bit, a hinged body lies on the ground, and every
// door refuses the settings that do not solve contacts yet.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "tinkertoy/scene/scene.hpp"
#include "support/resumed_run.hpp"

namespace tinkertoy {
namespace {

std::string boxOnTheGround(const std::string& extraSettings) {
  return R"({"dimension": 2, "gravity": [0, -9.81],
    "settings": {"formulation": "velocity", "solver": "sequential", "dt": 0.016666666666666666, "substeps": 4,
                 "collisions": true)" + extraSettings + R"(},
    "bodies": [
      {"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
       "shape": {"type": "box", "size": [10, 1]}},
      {"id": "box", "type": "rigid", "mass": 2, "position": [0.3, 1.0], "angle": 0.4,
       "shape": {"type": "box", "size": [1, 0.6]}}]})";
}

// Dropped turned, the box lands on a corner, tips onto its face and rests there: level, its
// bottom on the ground's top to a millimetre, still. The energy it lost is in the ledger (as the
// impulses' work), so E − E₀ − W stays at the integrator's error.
TEST(ContactsInARun, ABoxDroppedOnTheGroundComesToRest) {
  for (const std::string correction : {"baumgarte", "soft"}) {
    SCOPED_TRACE(correction);
    Scene scene = parseScene(boxOnTheGround(R"(, "position_correction": ")" + correction + "\""));
    Simulator simulator(scene.model, scene.settings);
    const double start = simulator.diagnostics().totalEnergy();
    double work = 0.0;
    for (int k = 0; k < 180; ++k) {
      simulator.step();
      work += simulator.diagnostics().work.total();
    }
    const Eigen::VectorXd q = scene.model.coordinates(*scene.model.findBody("box"));
    const double angle = std::remainder(q[2], std::numbers::pi / 2);  // resting on either face
    EXPECT_NEAR(angle, 0.0, 1e-3);
    const double halfHeight = std::abs(std::remainder(q[2], std::numbers::pi)) < 0.1 ? 0.3 : 0.5;
    EXPECT_NEAR(q[1], halfHeight, 1e-3);
    EXPECT_LT(scene.model.velocities(*scene.model.findBody("box")).norm(), 1e-2);
    EXPECT_EQ(simulator.diagnostics().contactPoints, 2) << "resting on its face";
    // The two points hold the box up: together the impulse of its weight over a substep, along
    // the ground's normal, from the ground (a) to the box (b).
    const std::vector<ContactReport> contacts = simulator.contacts();
    ASSERT_EQ(contacts.size(), 2u);
    double held = 0.0;
    for (const ContactReport& c : contacts) {
      EXPECT_EQ(c.a, *scene.model.findBody("ground"));
      EXPECT_EQ(c.b, *scene.model.findBody("box"));
      EXPECT_NEAR((c.normal - Eigen::Vector2d(0, 1)).norm(), 0.0, 1e-3);
      held += c.normalImpulse;
    }
    EXPECT_NEAR(held, 2.0 * 9.81 * scene.settings.dt / 4, 0.02 * 2.0 * 9.81 * scene.settings.dt / 4);
    EXPECT_LT(simulator.diagnostics().penetration, 1e-3);
    const double end = simulator.diagnostics().totalEnergy();
    EXPECT_LT(work, -1.0) << "the landing took energy";
    // Within the integrator's error, of which each impact in the soft step leaves about
    // h m g Δv / 2 (its relax passes stop the impact where the positions have already moved).
    EXPECT_NEAR(end - start - work, 0.0, 0.03 * std::abs(work));
  }
}

// A saved state holds the contacts' impulses: the run resumed from it matches the one that went on.
TEST(ContactsInARun, ASavedStateResumesBitForBit) {
  Scene scene = parseScene(boxOnTheGround(""));
  Simulator simulator(scene.model, scene.settings);
  for (int k = 0; k < 40; ++k) simulator.step();  // landed: contacts with warm starts
  const std::string state = simulator.saveState();
  testing_support::ResumedRun resumed(boxOnTheGround(""), state);
  // What it reports before its first step is what the run saved from reports.
  const std::vector<ContactReport> before = simulator.contacts(), restored = resumed.simulator.contacts();
  ASSERT_EQ(restored.size(), before.size());
  ASSERT_FALSE(before.empty());
  for (std::size_t k = 0; k < before.size(); ++k) {
    EXPECT_EQ(restored[k].normal, before[k].normal);
    EXPECT_EQ(restored[k].point, before[k].point);
    EXPECT_EQ(restored[k].separation, before[k].separation);
    EXPECT_EQ(restored[k].normalImpulse, before[k].normalImpulse);
  }
  for (int k = 0; k < 30; ++k) {
    simulator.step();
    resumed.simulator.step();
  }
  EXPECT_EQ(resumed.scene.model.q(), scene.model.q());
  EXPECT_EQ(resumed.scene.model.v(), scene.model.v());
  // A state saved with contacts does not go into a simulator without them, nor the other way.
  std::string text = boxOnTheGround("");
  text.replace(text.find("\"collisions\": true"), 18, "\"collisions\": false");
  const auto refuses = [](const std::string& into, const std::string& saved, const std::string& words) {
    Scene target = parseScene(into);
    Simulator restoring(target.model, target.settings);
    try {
      restoring.restoreState(saved);
      ADD_FAILURE() << "restored";
    } catch (const StateError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refuses(text, state, "saved with collisions = on; this simulator has off");
  Scene without = parseScene(text);
  const std::string plainState = Simulator(without.model, without.settings).saveState();
  refuses(boxOnTheGround(""), plainState, "saved with collisions = off; this simulator has on");
}

// A bar hinged at one end falls onto the ground and lies on it: the joint's passes and the
// contacts' share each iteration; in the exact mode the hinge and the contacts are solved
// together, and the tip lies on the ground with the hinge closed, both to 1e-9.
TEST(ContactsInARun, AHingedBarLiesOnTheGround) {
  for (const bool exact : {false, true}) {
    SCOPED_TRACE(exact ? "exact" : "sequential");
    Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, -9.81],
      "settings": {"formulation": "velocity", "solver": ")" + std::string(exact ? "ldlt" : "sequential") +
                             R"(", "position_correction": ")" + (exact ? "projection" : "soft") + R"(",
                   "dt": 0.016666666666666666, "substeps": 4, "collisions": true},
      "bodies": [
        {"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
         "shape": {"type": "box", "size": [10, 1]}},
        {"id": "bar", "type": "rigid", "mass": 1, "position": [1.0, 0.5], "shape": {"type": "capsule", "length": 2, "radius": 0.05}}],
      "constraints": [{"type": "revolute", "a": "bar", "b": null, "anchor": [0, 0.5]}]})");
    Simulator simulator(scene.model, scene.settings);
    for (int k = 0; k < 240; ++k) simulator.step();
    const Eigen::VectorXd q = scene.model.coordinates(*scene.model.findBody("bar"));
    // The bar's free end on the ground: its tip's core at the capsule's radius above y = 0.
    const double tipY = q[1] + std::sin(q[2]) * 1.0;
    EXPECT_NEAR(tipY, 0.05, exact ? 1e-9 : 2e-3);
    EXPECT_LT(scene.model.velocities(*scene.model.findBody("bar")).norm(), exact ? 1e-9 : 1e-2);
    EXPECT_LT(simulator.diagnostics().constraintError, exact ? 1e-9 : 1e-3);
  }
}

// A pile big enough for its manifolds to go in colours that two threads share (40 rows, 820
// boxes, about 2400 manifolds in half a dozen colours), and for the finder to share its shapes
// and pairs, beside it a box thrown down that bounces: two threads give the bits of one, in the
// state, the contacts' impulses and the work ledger, and the pile stands, with Baumgarte and in
// the soft step (whose pile at rest has its contacts carried through the substeps).
TEST(ContactsInARun, TwoThreadsSolveALargePileToTheBitsOfOne) {
  std::string bodies = R"({"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
                           "shape": {"type": "box", "size": [60, 1]}})";
  constexpr int kRows = 40;
  for (int row = 0; row < kRows; ++row) {
    for (int k = 0; k < kRows - row; ++k) {
      const double x = (k - 0.5 * (kRows - row - 1)) * 1.0, y = 0.5 + row;
      bodies += R"(, {"id": "b)" + std::to_string(row) + "_" + std::to_string(k) + R"(", "type": "rigid", "mass": 1, "position": [)" +
                std::to_string(x) + ", " + std::to_string(y) +
                R"(], "shape": {"type": "box", "size": [1, 1]}})";
    }
  }
  bodies += R"(, {"id": "thrown", "type": "rigid", "mass": 1, "position": [25, 1.5], "velocity": [0, -8],
                  "shape": {"type": "box", "size": [1, 1]}, "restitution": 0.5})";
  struct Run {
    Eigen::VectorXd q, v;
    std::vector<ContactReport> contacts;
    WorkLedger work;
  };
  const auto run = [&](int threads, const std::string& correction) {
    Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, -9.81], "settings": {"formulation": "velocity",
      "solver": "sequential", "dt": 0.016666666666666666, "substeps": 4, "collisions": true, "position_correction": ")" +
                             correction + R"(", "threads": )" + std::to_string(threads) + R"(}, "bodies": [)" + bodies + "]}");
    Simulator simulator(scene.model, scene.settings);
    double bounce = 0.0;
    for (int k = 0; k < 30; ++k) {
      simulator.step();
      bounce = std::max(bounce, scene.model.v()[scene.model.v().size() - 2]);
    }
    EXPECT_GT(bounce, 2.0) << "the thrown box bounced";
    EXPECT_GT(simulator.diagnostics().contactPoints, 2 * 2 * 128) << "enough manifolds for colours";
    EXPECT_LT(simulator.diagnostics().penetration, 0.02);
    return Run{scene.model.q(), scene.model.v(), simulator.contacts(), simulator.diagnostics().work};
  };
  for (const std::string correction : {"baumgarte", "soft"}) {
    SCOPED_TRACE(correction);
    const Run one = run(1, correction), two = run(2, correction);
    EXPECT_EQ(two.q, one.q);
    EXPECT_EQ(two.v, one.v);
    ASSERT_EQ(two.contacts.size(), one.contacts.size());
    for (std::size_t k = 0; k < one.contacts.size(); ++k) {
      EXPECT_EQ(two.contacts[k].normalImpulse, one.contacts[k].normalImpulse);
      EXPECT_EQ(two.contacts[k].tangentImpulse, one.contacts[k].tangentImpulse);
    }
    EXPECT_EQ(two.work.work, one.work.work);
    EXPECT_NE(one.work[WorkSource::Impulses], 0.0);
    EXPECT_LT(one.v.head(one.v.size() - 3).cwiseAbs().maxCoeff(), 0.1) << "the pile stands";
  }
}

// Each door says which settings do not solve contacts, by their names.
TEST(ContactsInARun, SettingsThatDoNotSolveContactsAreRefused) {
  const auto refused = [](const std::string& extra, const std::string& path, const std::string& words) {
    try {
      (void)parseScene(boxOnTheGround(extra));
      ADD_FAILURE() << extra << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused(R"(, "position_correction": "projection")", "settings.collisions",
          "the projection holds contacts with solver ldlt or cg (the exact mode)");
  std::string global = boxOnTheGround(R"(, "position_correction": "baumgarte")");
  global.replace(global.find(R"("solver": "sequential")"), 22, R"("solver": "ldlt")");
  try {
    (void)parseScene(global);
    ADD_FAILURE() << "ldlt with baumgarte was accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.path(), "settings.collisions") << e.what();
    EXPECT_NE(std::string(e.what()).find("which needs position correction projection"), std::string::npos) << e.what();
  }
  refused(R"(, "velocity_scheme": "verlet")", "settings.collisions", "symplectic-euler");
  refused(R"(, "friction": -0.1)", "settings.friction", "");
  refused(R"(, "restitution": 1.5)", "settings.restitution", "");
  SimulationSettings settings;
  settings.formulation = FormulationKind::Velocity;
  settings.velocity.collisions = true;
  settings.solver.kind = SolverKind::SparseLdlt;
  EXPECT_THROW(settings.validate(), SettingsError);
  settings.velocity.positionCorrection = PositionCorrection::Projection;  // the exact mode
  EXPECT_NO_THROW(settings.validate());
  settings.solver.kind = SolverKind::ConjugateGradient;
  EXPECT_NO_THROW(settings.validate());
  settings.solver.regularization = 0.0;  // the exact mode's dependent rows need the damping
  EXPECT_THROW(settings.validate(), SettingsError);
  settings.solver.regularization = 1e-8;
  settings.velocity.positionCorrection = PositionCorrection::SoftStep;
  settings.solver.kind = SolverKind::SequentialImpulses;
  EXPECT_NO_THROW(settings.validate());
  settings.formulation = FormulationKind::Acceleration;
  EXPECT_THROW(settings.validate(), SettingsError);
}

}  // namespace
}  // namespace tinkertoy
