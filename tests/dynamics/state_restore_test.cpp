// Exact save and restore (Simulator::saveState, restoreState). A run of 2000 steps, and a run
// saved after 1000 whose state is restored into a simulator of the same scene loaded afresh and
// stepped 1000 more, end in the same bits: q and v compared with memcmp, and the whole state
// saved at the end byte for byte. Every configuration of support/configurations.hpp and each
// explicit factorization, on scenes that between them have a driven constraint, a parametric
// body, springs, limits, motors and a break (saved also at the very step it broke, its new
// layout not yet built). The command line's --save-state and --resume, in a fresh process, are
// tested in tests/cli/state_file_test.cpp.
//
// A state that is not a state file, is damaged, truncated or of another version, or was saved
// from another model or with other settings is refused with its reason, and the simulator
// keeps its state.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <utility>

#include "support/configurations.hpp"
#include "support/sealed_state.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

constexpr int kSteps = 2000;

// A chain of three particles released from the horizontal, whose top rod breaks near the
// bottom of the swing (its tension passes 2.6 times the chain's weight there).
constexpr const char* kBreakingChain = R"({
  "dimension": 2, "gravity": [0, -9.81],
  "settings": {"dt": 0.001},
  "particles": [
    {"id": "a", "mass": 1, "position": [0.5, 0]},
    {"id": "b", "mass": 1, "position": [1.0, 0]},
    {"id": "c", "mass": 1, "position": [1.5, 0]}
  ],
  "constraints": [
    {"type": "distance", "id": "top", "a": "a", "b": [0, 0], "length": 0.5, "break_force": 77},
    {"type": "distance", "a": "a", "b": "b", "length": 0.5},
    {"type": "distance", "a": "b", "b": "c", "length": 0.5}
  ]
})";

struct TestScene {
  std::string name;
  std::function<Scene()> load;
};

std::vector<TestScene> scenes() {
  const std::filesystem::path dir = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";
  std::vector<TestScene> all;
  for (const char* file : {"crank.json", "hybrid.json", "four_bar.json", "strandbeest.json"}) {
    all.push_back({file, [path = dir / file] { return loadScene(path); }});
  }
  all.push_back({"breaking chain", [] { return parseScene(kBreakingChain); }});
  return all;
}

// Steps `steps` times; the message of a blow-up, if one ends it.
std::string advance(Simulator& sim, int steps) {
  try {
    for (int i = 0; i < steps; ++i) sim.step();
  } catch (const SimulationError& e) {
    return e.what();
  }
  return "";
}

bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

// One scene under one configuration, saved after `saveAt` steps; false if the configuration does
// not run the scene.
bool expectResumedRunIdentical(const TestScene& test, const Configuration& c, std::optional<int> saveAt = std::nullopt) {
  Scene whole = test.load();
  c.applyTo(whole.settings);
  std::optional<Simulator> uninterrupted;
  try {
    uninterrupted.emplace(whole.model, whole.settings);
  } catch (const std::invalid_argument&) {
    return false;  // limits, motors or springs at the acceleration level
  }
  const std::string wholeOutcome = advance(*uninterrupted, kSteps);
  const int save = saveAt.value_or(kSteps / 2);

  Scene first = test.load();
  c.applyTo(first.settings);
  Simulator before(first.model, first.settings);
  const std::string firstOutcome = advance(before, save);
  const std::string state = before.saveState();

  Scene second = test.load();
  c.applyTo(second.settings);
  Simulator after(second.model, second.settings);
  after.restoreState(state);
  EXPECT_EQ(after.stepCount(), before.stepCount());
  const std::string secondOutcome = firstOutcome.empty() ? advance(after, kSteps - save) : firstOutcome;

  EXPECT_EQ(secondOutcome, wholeOutcome) << test.name;
  EXPECT_EQ(after.stepCount(), uninterrupted->stepCount()) << test.name;
  // Read through const models: the mutable accessors count as edits, which a state records.
  const Model &resumedModel = second.model, &wholeModel = whole.model;
  EXPECT_TRUE(sameBits(resumedModel.q(), wholeModel.q())) << test.name << ": q differs";
  EXPECT_TRUE(sameBits(resumedModel.v(), wholeModel.v())) << test.name << ": v differs";
  EXPECT_EQ(second.model.time(), whole.model.time()) << test.name;
  EXPECT_EQ(after.breaks().size(), uninterrupted->breaks().size()) << test.name;
  EXPECT_TRUE(after.saveState() == uninterrupted->saveState()) << test.name << ": the states at the end differ";

  // Saving changes nothing: the run saved from goes on as if it had not been.
  if (firstOutcome.empty()) advance(before, kSteps - save);
  EXPECT_TRUE(before.saveState() == uninterrupted->saveState()) << test.name << ": saving changed the run";

  // One step after the save, too (what a run saved there would hold).
  Scene third = test.load(), fourth = test.load();
  c.applyTo(third.settings);
  c.applyTo(fourth.settings);
  Simulator straight(third.model, third.settings), resumed(fourth.model, fourth.settings);
  const std::string straightOutcome = advance(straight, save + 1);
  resumed.restoreState(state);
  EXPECT_EQ(firstOutcome.empty() ? advance(resumed, 1) : firstOutcome, straightOutcome) << test.name;
  EXPECT_TRUE(resumed.saveState() == straight.saveState()) << test.name << ": the states a step after the save differ";
  return true;
}

std::vector<Configuration> restoreConfigurations() {
  std::vector<Configuration> all = configurations();
  for (const FactorizationKind kind : {FactorizationKind::Supernodal, FactorizationKind::Tree}) {
    all.push_back({FormulationKind::Acceleration, SolverKind::SparseLdlt, PositionCorrection::None, kind, true});
    all.push_back({FormulationKind::Velocity, SolverKind::SparseLdlt, PositionCorrection::Projection, kind});
  }
  all.push_back({FormulationKind::Velocity, SolverKind::SequentialImpulses, PositionCorrection::None});
  all.push_back({FormulationKind::Velocity, SolverKind::SparseLdlt, PositionCorrection::None});
  for (const IntegratorKind integrator :
       {IntegratorKind::ExplicitEuler, IntegratorKind::SymplecticEuler, IntegratorKind::Midpoint}) {
    all.push_back({FormulationKind::Acceleration, SolverKind::ConjugateGradient, PositionCorrection::None,
                   FactorizationKind::Automatic, true, 1, integrator});
  }
  return all;
}

class SaveAndRestore : public ::testing::TestWithParam<Configuration> {};

TEST_P(SaveAndRestore, ResumesBitIdentically) {
  int ran = 0;
  for (const TestScene& test : scenes()) ran += expectResumedRunIdentical(test, GetParam()) ? 1 : 0;
  EXPECT_GE(ran, 2);
}

// Saved at the step a constraint broke, whose layout without it the next step would build (saving
// builds it); the states one step after the save agree too.
TEST_P(SaveAndRestore, ResumesBitIdenticallyFromTheStepOfABreak) {
  const TestScene chain = scenes().back();
  Scene scene = chain.load();
  GetParam().applyTo(scene.settings);
  Simulator sim(scene.model, scene.settings);
  advance(sim, kSteps);
  ASSERT_EQ(sim.breaks().size(), 1u) << "the chain's top rod should break once";
  const auto step = static_cast<int>(sim.breaks()[0].step);
  ASSERT_GT(step, 1);
  ASSERT_LT(step, kSteps);
  expectResumedRunIdentical(chain, GetParam(), step);
}

// After a break the layout is rebuilt, and the substep after it must evaluate the new layout,
// not reuse the evaluation the old one left at its end (the global solve with projection and
// the soft step keep it from substep to substep). Without warm starting nothing else carries
// over a rebuild, so the step after the break is the same bits as a fresh simulator's first
// step from the state at the break. (Before the fix the direct solve found J W Jᵀ singular at
// the step after the break: J was the new layout's, all zero.)
TEST(BreakUnderTheExactModes, TheStepAfterABreakEvaluatesTheNewLayout) {
  for (const Configuration& c : {Configuration{FormulationKind::Velocity, SolverKind::SparseLdlt, PositionCorrection::Projection},
                                 Configuration{FormulationKind::Velocity, SolverKind::ConjugateGradient, PositionCorrection::Projection},
                                 Configuration{FormulationKind::Velocity, SolverKind::SequentialImpulses, PositionCorrection::SoftStep}}) {
    Scene scene = parseScene(kBreakingChain);
    c.applyTo(scene.settings);
    scene.settings.velocity.warmStart = false;
    Simulator sim(scene.model, scene.settings);
    while (sim.breaks().empty() && sim.stepCount() < kSteps) sim.step();
    ASSERT_EQ(sim.breaks().size(), 1u) << label(c);

    Scene copy = parseScene(kBreakingChain);
    copy.model.setState(scene.model.time(), scene.model.q(), scene.model.v());
    copy.model.setEnabled(copy.model.constraintAt(0), false);
    Simulator fresh(copy.model, scene.settings);
    ASSERT_NO_THROW(sim.step()) << label(c);
    fresh.step();
    EXPECT_TRUE(sameBits(scene.model.q(), copy.model.q())) << label(c);
    EXPECT_TRUE(sameBits(scene.model.v(), copy.model.v())) << label(c);
  }
}

// A state that cannot be restored leaves the simulator as it was: after each failed restore the
// steps are the same bits as those of a twin never touched. The last case passes the header and
// the checksum and fails only at its end, after the model's state was replaced: the simulator
// puts it back.
TEST(RestoreState, AFailedRestoreChangesNothing) {
  const std::filesystem::path scenes = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";
  Scene scene = loadScene(scenes / "crank.json"), twin = loadScene(scenes / "crank.json");
  Simulator sim(scene.model, scene.settings), untouched(twin.model, twin.settings);
  advance(sim, 100);
  advance(untouched, 100);
  // An edit since the last step (it makes the next step solve again for the driven row's power):
  // a failed restore must not forget it.
  scene.model.setBreakForce(scene.model.constraintAt(1), 1e9);
  twin.model.setBreakForce(twin.model.constraintAt(1), 1e9);
  Scene other = loadScene(scenes / "crank.json");
  Simulator earlier(other.model, other.settings);
  advance(earlier, 50);
  const std::string good = earlier.saveState();
  std::string flipped = good;
  flipped[100] = static_cast<char>(flipped[100] ^ 0x40);
  Scene pendulum = loadScene(scenes / "pendulum.json");
  const std::pair<std::string, std::string> cases[] = {
      {"", "shorter than the 32-byte header"},
      {std::string(64, 'x'), "does not begin with the signature"},
      {good.substr(0, good.size() - 1), "truncated"},
      {flipped, "corrupt"},
      {Simulator(pendulum.model, pendulum.settings).saveState(), "the number of coordinates = 2"},
      {testing_support::sealedState(good, good.substr(32, good.size() - 40)), "ends in the middle"},
      {testing_support::sealedState(good, good.substr(32) + "12345678"), "8 bytes more than this simulator reads"},
  };
  for (const auto& [file, says] : cases) {
    try {
      sim.restoreState(file);
      ADD_FAILURE() << "restored a state that should fail with: " << says;
    } catch (const StateError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(sim.stepCount(), 100u);
  advance(sim, 100);
  advance(untouched, 100);
  EXPECT_TRUE(sameBits(scene.model.q(), twin.model.q()));
  EXPECT_TRUE(sameBits(scene.model.v(), twin.model.v()));
  EXPECT_TRUE(sim.saveState() == untouched.saveState());
}

// What the reader checks item by item, in a file whose header and checksum are sound: a flag
// that is neither 0 nor 1, an integer its type cannot hold, a vector of another length, a
// recorded value that differs from this simulator's.
TEST(StateArchive, RefusesAnItemThatDoesNotFit) {
  StateWriter writer;
  std::int64_t two = 2, negative = -1;
  Eigen::VectorXd three = Eigen::VectorXd::Ones(3);
  writer.integer(two);
  writer.integer(negative);
  writer.numbers(three, 3);
  writer.expect("dt", "0.001");
  const std::string file = writer.sealed();
  {
    StateReader reader(file);
    bool flag = false;
    EXPECT_THROW(reader.flag(flag), StateError);
  }
  {
    StateReader reader(file);
    std::int64_t skip = 0;
    reader.integer(skip);
    std::size_t count = 0;
    EXPECT_THROW(reader.integer(count), StateError);
  }
  {
    StateReader reader(file);
    std::int64_t skip = 0;
    reader.integer(skip);
    reader.integer(skip);
    Eigen::VectorXd x;
    try {
      reader.numbers(x, 4);
      ADD_FAILURE() << "read 3 numbers as 4";
    } catch (const StateError& e) {
      EXPECT_NE(std::string(e.what()).find("a vector of 3 entries where this simulator has 4"), std::string::npos);
    }
  }
  {
    StateReader reader(file);
    std::int64_t skip = 0;
    reader.integer(skip);
    reader.integer(skip);
    Eigen::VectorXd x;
    reader.numbers(x, 3);
    EXPECT_EQ(x, three);
    try {
      reader.expect("dt", "0.002");
      ADD_FAILURE() << "accepted another dt";
    } catch (const StateError& e) {
      EXPECT_STREQ(e.what(), "the state was saved with dt = 0.001; this simulator has 0.002");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Configurations, SaveAndRestore, ::testing::ValuesIn(restoreConfigurations()),
                         [](const ::testing::TestParamInfo<Configuration>& param) { return label(param.param); });

}  // namespace
}  // namespace tinkertoy
