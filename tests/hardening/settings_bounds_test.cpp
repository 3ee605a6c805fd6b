// One validation of the settings, at every door (issue #34, "hangs"): the library's
// SimulationSettings::validate() and the Simulator's constructor, a scene's "settings", the
// command line's flags (under run and under sweep) and a sweep's --set values. Each door names
// the setting in its own words: the C++/Python member, the JSON path, the flag. (The Python
// module's door is tests/python/test_settings.py.)
#include <gtest/gtest.h>

#include "support/test_name.hpp"
#include "cli_fixture.hpp"
#include "tinkertoy/tinkertoy.hpp"

namespace tinkertoy {
namespace {

struct BadSettings {
  const char* label;
  void (*spoil)(SimulationSettings&);
  Setting first;       // the setting SettingsError names first
  const char* reason;  // part of the reason
};

const BadSettings kBad[] = {
    {"a billion substeps", [](SimulationSettings& s) { s.velocity.substeps = 1'000'000'000; }, Setting::Substeps,
     "must be between 1 and 10000, got 1000000000"},
    {"a billion iterations", [](SimulationSettings& s) { s.velocity.iterations = 1'000'000'000; }, Setting::Iterations,
     "must be between 1 and 100000, got 1000000000"},
    {"too many passes per step",
     [](SimulationSettings& s) {
       s.velocity.iterations = 100'000;
       s.velocity.substeps = 100;
     },
     Setting::Iterations, "iterations × substeps is 10000000 passes per step; at most 1000000"},
    {"zero threads", [](SimulationSettings& s) { s.threads = 0; }, Setting::Threads, "must be between 1 and 64, got 0"},
    {"a negative iteration cap", [](SimulationSettings& s) { s.solver.maxIterations = -1; }, Setting::MaxIterations,
     "must be between 0 and 1000000000"},
    {"reuse iterations below automatic", [](SimulationSettings& s) { s.solver.reuseIterations = -2; },
     Setting::ReuseIterations, "must be between -1 and 1000"},
    {"a million projection iterations", [](SimulationSettings& s) { s.projection.maxIterations = 1'000'000; },
     Setting::ProjectionIterations, "must be between 1 and 1000"},
    {"a regularization above one", [](SimulationSettings& s) { s.solver.regularization = 2.0; }, Setting::Regularization,
     "must be at most 1, got 2"},
    {"a NaN step", [](SimulationSettings& s) { s.dt = std::nan(""); }, Setting::Dt, "must be a finite number"},
    {"a negative step", [](SimulationSettings& s) { s.dt = -1e-3; }, Setting::Dt, "must be positive, got -0.001"},
    {"an infinite joint hertz", [](SimulationSettings& s) { s.velocity.jointHertz = INFINITY; }, Setting::JointHertz,
     "must be a finite number"},
    {"an infinite contact hertz", [](SimulationSettings& s) { s.velocity.contactHertz = INFINITY; },
     Setting::ContactHertz, "must be a finite number"},
    {"a NaN contact damping ratio", [](SimulationSettings& s) { s.velocity.contactDampingRatio = std::nan(""); },
     Setting::ContactDampingRatio, "must be a finite number"},
    {"a baumgarte factor above one", [](SimulationSettings& s) { s.velocity.baumgarte = 1.5; }, Setting::Baumgarte,
     "must be at most 1"},
    {"an infinite sleep speed", [](SimulationSettings& s) { s.velocity.sleepSpeed = INFINITY; }, Setting::SleepSpeed,
     "must be a finite number"},
    {"a NaN sleep time", [](SimulationSettings& s) { s.velocity.sleepTime = std::nan(""); }, Setting::SleepTime,
     "must be a finite number"},
};

class SettingsBounds : public ::testing::TestWithParam<BadSettings> {};

// The library's door: validate() and the Simulator's constructor throw the same SettingsError,
// at once, before a step could spin.
TEST_P(SettingsBounds, TheLibraryRefusesThemNamingTheSetting) {
  const BadSettings& bad = GetParam();
  SimulationSettings settings;
  bad.spoil(settings);
  try {
    settings.validate();
    FAIL() << "accepted";
  } catch (const SettingsError& e) {
    ASSERT_FALSE(e.settings().empty());
    EXPECT_EQ(e.settings().front(), bad.first);
    EXPECT_NE(e.reason().find(bad.reason), std::string::npos) << e.reason();
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(std::string(settingSpelling(bad.first).python) + ": ", 0), 0u) << what;
  }
  Model model(2);
  model.addParticle(1.0, Eigen::Vector2d(1, 0));
  EXPECT_THROW(Simulator(model, settings), SettingsError);
}

INSTANTIATE_TEST_SUITE_P(Hardening, SettingsBounds, ::testing::ValuesIn(kBad),
                         [](const ::testing::TestParamInfo<BadSettings>& p) { return testing_support::testName(p.param.label); });

// The bounds are the ones documented, both ends included.
TEST(SettingsBounds, TheLimitsThemselvesAreAccepted) {
  SimulationSettings s{.formulation = FormulationKind::Velocity};
  s.velocity.substeps = 10'000;
  s.velocity.iterations = 100;
  EXPECT_NO_THROW(s.validate());
  s.velocity.substeps = 10;
  s.velocity.iterations = 100'000;
  EXPECT_NO_THROW(s.validate());
  s.solver.maxIterations = 1'000'000'000;
  s.solver.regularization = 1.0;
  s.velocity.jointDampingRatio = 1e308;  // documented as valid: any finite ratio
  s.velocity.contactDampingRatio = 1e308;
  EXPECT_NO_THROW(s.validate());
}

// The spellings every door uses come from one table.
TEST(SettingsBounds, EachSettingHasItsNameAtEachDoor) {
  EXPECT_EQ(settingSpelling(Setting::Substeps).scene, "substeps");
  EXPECT_EQ(settingSpelling(Setting::Substeps).python, "velocity.substeps");
  EXPECT_EQ(settingFlag(Setting::Substeps), "--substeps");
  EXPECT_EQ(settingFlag(Setting::JointDampingRatio), "--joint-damping-ratio");
  EXPECT_EQ(settingFlag(Setting::ContactHertz), "--contact-hertz");
  EXPECT_EQ(settingFlag(Setting::SleepTime), "--sleep-time");
  EXPECT_EQ(settingSpelling(Setting::SleepSpeed).python, "velocity.sleep_speed");
  EXPECT_EQ(settingSpelling(Setting::ContactDampingRatio).python, "velocity.contact_damping_ratio");
  EXPECT_EQ(settingFlag(Setting::MaxIterations), "--max-iterations");
  EXPECT_EQ(settingFlag(Setting::Baumgarte), "");  // no flag: only C++ and Python set it
  EXPECT_EQ(settingSpelling(Setting::RelativeTolerance).python, "error_tolerance.relative");
}

// The scene's door: the JSON path of the setting.
TEST(SettingsBounds, AScenesSettingsAreRefusedAtTheirJsonPath) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"settings": {"substeps": 1000000000}})", "settings.substeps"},
      {R"({"settings": {"substeps": 1e15}})", "settings.substeps"},
      {R"({"settings": {"iterations": 1000000000}})", "settings.iterations"},
      {R"({"settings": {"formulation": "velocity", "iterations": 100000, "substeps": 100}})", "settings.iterations"},
      {R"({"settings": {"max_iterations": 2000000000}})", "settings.max_iterations"},
      {R"({"settings": {"regularization": 5}})", "settings.regularization"},
      {R"({"settings": {"threads": 1000}})", "settings.threads"},
  };
  for (const auto& [json, path] : cases) {
    try {
      (void)parseScene(json, "bad.json");
      ADD_FAILURE() << "accepted: " << json;
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
    }
  }
}

// An adjustment made over a scene's settings (the command line's flags) is validated too, and
// its SettingsError is left to the caller, which knows the flag.
TEST(SettingsBounds, AnAdjustmentOfTheSettingsIsValidated) {
  const auto adjust = [](SimulationSettings& s) { s.velocity.substeps = 1'000'000'000; };
  EXPECT_THROW((void)parseScene(R"({"settings": {"formulation": "velocity"}})", "s.json", adjust), SettingsError);
}

}  // namespace

namespace cli {
namespace {

// The command line's door: each flag is refused at once, naming it, with exit code 2; under run,
// render, plot and sweep alike.
TEST_F(Cli, SettingsFlagsAreBoundedUnderEveryCommand) {
  const std::string scene = kScenes + "pendulum.json";
  const std::pair<std::vector<std::string>, std::string> flags[] = {
      {{"--substeps", "1000000000"}, "--substeps: must be from 1 to 10000"},
      {{"--iterations", "1000000000"}, "--iterations: must be from 1 to 100000"},
      {{"--formulation", "velocity", "--iterations", "100000", "--substeps", "100"},
       "--iterations: iterations × substeps is 10000000 passes per step"},
      {{"--max-iterations", "99999999999"}, "--max-iterations: must be from 0 to 1000000000"},
      {{"--regularization", "3"}, "--regularization: must be at most 1, got 3"},
      {{"--threads", "65"}, "--threads: must be from 1 to 64"},
  };
  for (const auto& [flag, says] : flags) {
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"run", scene}, {"render", scene, "-o", file("x.png")},
          {"sweep", scene, "--set", "particles[0].mass=1,2", "-o", file("x.csv")}}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), flag.begin(), flag.end());
      const Result r = tinkertoy(args);
      EXPECT_EQ(r.code, kBadInput) << args[0] << " " << flag.front();
      EXPECT_NE(r.err.find(says), std::string::npos) << args[0] << ": " << r.err;
    }
  }
  EXPECT_FALSE(fs::exists(file("x.csv")));
  EXPECT_FALSE(fs::exists(file("x.png")));
}

// A scene whose own setting is out of bounds is refused at its JSON path, by every command.
TEST_F(Cli, AScenesBadSettingIsRefusedAtItsPathByEveryCommand) {
  const std::string scene = writeScene("s.json", R"({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}],
      "settings": {"formulation": "velocity", "substeps": 20000}})");
  for (const char* command : {"run", "check"}) {
    const Result r = tinkertoy({command, scene});
    EXPECT_EQ(r.code, kBadInput) << command;
    EXPECT_NE(r.err.find("s.json: settings.substeps: must be between 1 and 10000, got 20000"), std::string::npos)
        << r.err;
  }
}

// A sweep's --set value for a setting is a case's: that case fails with the setting's JSON path,
// the others run (exit code 3), and nothing hangs.
TEST_F(Cli, ASweepValueOutOfBoundsIsAFailingRowNamingTheSetting) {
  const Result r = tinkertoy({"sweep", kScenes + "pendulum.json", "--set", "settings.substeps=1,1000000000",
                              "--set", "settings.formulation=velocity", "--duration", "0.05", "-o", file("s.csv")});
  EXPECT_EQ(r.code, kBlowUp) << r.err;
  const std::string csv = readFile(file("s.csv"));
  EXPECT_NE(csv.find("settings.substeps: must be between 1 and 10000, got 1000000000"), std::string::npos) << csv;
  EXPECT_NE(r.out.find("2 of 2 cases run, 1 failed"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cli
}  // namespace tinkertoy
