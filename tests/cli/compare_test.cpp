// `tinkertoy compare`: the two runs side by side, each with the settings its flags gave it and
// numbers that are its own (the exact run holds the rod, explicit Euler without projection lets
// it drift), a blow-up shown as an outcome, and bad flags named by the side they belong to.
#include <gtest/gtest.h>

#include "cli_fixture.hpp"

namespace tinkertoy::cli {
namespace {

// The cells of the table's row that starts with `label`: {a, b}.
std::pair<std::string, std::string> cells(const std::string& table, const std::string& label) {
  const std::size_t at = table.find("| " + label + " | ");
  if (at == std::string::npos) return {};
  const std::size_t start = at + label.size() + 5;
  const std::size_t middle = table.find(" | ", start);
  const std::size_t end = table.find(" |\n", middle + 3);
  return {table.substr(start, middle - start), table.substr(middle + 3, end - middle - 3)};
}

TEST_F(Cli, CompareRunsTheSceneUnderEachSetOfFlags) {
  const Result r = tinkertoy({"compare", kScenes + "pendulum.json", "--a", "--integrator rk4 --duration 2", "--b",
                              "--integrator euler --no-project --duration 2"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_EQ(cells(r.out, "settings").first, "acceleration level, rk4, cg") << r.out;
  EXPECT_EQ(cells(r.out, "settings").second, "acceleration level, euler, cg") << r.out;
  EXPECT_EQ(cells(r.out, "steps"), std::make_pair(std::string("2000"), std::string("2000"))) << r.out;
  const double exact = std::stod(cells(r.out, "max ‖C‖∞ (m)").first);
  const double drifting = std::stod(cells(r.out, "max ‖C‖∞ (m)").second);
  EXPECT_LT(exact, 1e-10) << r.out;
  EXPECT_GT(drifting, 1e-3) << "explicit Euler without projection drifts off the rod: " << r.out;
}

TEST_F(Cli, CompareShowsABlowUpAsAnOutcome) {
  const std::string scene = writeScene("blowup.json", kBlowUpScene);
  const Result r = tinkertoy({"compare", scene, "--a", "", "--b", "--integrator symplectic-euler --dt 1e-5 --duration 0.01"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_EQ(cells(r.out, "outcome").first.rfind("blew up: ", 0), 0U) << r.out;
  EXPECT_EQ(cells(r.out, "outcome").second.rfind("completed", 0), 0U) << r.out;
  EXPECT_EQ(cells(r.out, "max ‖C‖∞ (m)").first, "—") << "a run cut short has no statistics: " << r.out;
  EXPECT_EQ(cells(r.out, "flags").first, "(the scene's settings)") << r.out;
}

TEST_F(Cli, CompareNamesTheSideOfABadFlag) {
  Result r = tinkertoy({"compare", kScenes + "pendulum.json", "--a", "--dt -1", "--b", ""});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--a '--dt -1': --dt: must be positive"), std::string::npos) << r.err;
  r = tinkertoy({"compare", kScenes + "pendulum.json", "--a", "", "--b", "--solver nonsense"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--b '--solver nonsense'"), std::string::npos) << r.err;
  r = tinkertoy({"compare", kScenes + "pendulum.json", "--a", "--formulation velocity --position-correction soft --solver ldlt",
                 "--b", ""});
  EXPECT_EQ(r.code, kBadInput) << r.out;
  EXPECT_EQ(r.err.rfind("error: --a: --position-correction: ", 0), 0U) << r.err;
  r = tinkertoy({"compare", kScenes + "pendulum.json", "--a", "--help", "--b", ""});
  EXPECT_EQ(r.code, kBadInput);
  r = tinkertoy({"compare", kScenes + "pendulum.json", "--a", ""});
  EXPECT_EQ(r.code, kBadInput) << "--b is required";
  r = tinkertoy({"compare", kScenes + "pendulum.json", "--b", "--duration 0.1"});
  EXPECT_EQ(r.code, kSuccess) << "--a defaults to the scene's own settings: " << r.err;
  r = tinkertoy({"compare", kScenes + "no_such.json", "--a", "", "--b", ""});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_EQ(r.out, "");
}

// A teacher's comparison: the same double pendulum with its second rod a spring. The spring
// side stretches (by centimetres at 500 N/m) while the rod it kept stays exact.
TEST_F(Cli, CompareShowsTheStretchOfARodMadeASpring) {
  const Result r = tinkertoy({"compare", kScenes + "double_pendulum.json", "--a", "--duration 2", "--b",
                              "--spring-for constraints[1] --spring-stiffness 500 --spring-damping 1 --duration 2"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const auto [rods, springs] = cells(r.out, "max stretch of the rods made springs (m)");
  EXPECT_EQ(rods, "— (rods)") << r.out;
  EXPECT_GT(std::stod(springs), 5e-3) << r.out;
  EXPECT_LT(std::stod(springs), 0.5) << r.out;
  EXPECT_LT(std::stod(cells(r.out, "max ‖C‖∞ (m)").second), 1e-9) << "the first rod is still a rod: " << r.out;
  const Result plain = tinkertoy({"compare", kScenes + "double_pendulum.json", "--b", "--duration 1 --integrator midpoint",
                                  "--a", "--duration 1"});
  ASSERT_EQ(plain.code, kSuccess) << plain.err;
  EXPECT_EQ(plain.out.find("rods made springs"), std::string::npos) << plain.out;
}

// --spring-for at every door that takes the settings flags: a name that is no constraint, a
// constraint that is no rod, a missing stiffness and a bad one are each an error naming the flag.
TEST_F(Cli, SpringForNamesWhatIsWrong) {
  const std::string pendulum = kScenes + "double_pendulum.json";
  Result r = tinkertoy({"run", pendulum, "--quiet", "--spring-for", "constraints[7]", "--spring-stiffness", "5"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("error: --spring-for 'constraints[7]': the scene has no constraint of that name; did you mean"),
            std::string::npos) << r.err;
  r = tinkertoy({"run", pendulum, "--quiet", "--spring-for", "*"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--spring-for requires --spring-stiffness"), std::string::npos) << r.err;
  r = tinkertoy({"run", pendulum, "--quiet", "--spring-stiffness", "5"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--spring-stiffness requires --spring-for"), std::string::npos) << r.err;
  r = tinkertoy({"run", pendulum, "--quiet", "--spring-for", "*", "--spring-stiffness", "-3"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--spring-stiffness"), std::string::npos) << r.err;
  const std::string nailed = writeScene("nailed.json", R"({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}],
    "constraints": [{"type": "fixed", "particle": "p", "point": [1, 0], "id": "nail"}]})");
  r = tinkertoy({"run", nailed, "--quiet", "--spring-for", "nail", "--spring-stiffness", "5"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("error: --spring-for: nail is a fixed constraint, not a rod"), std::string::npos) << r.err;
  r = tinkertoy({"run", nailed, "--quiet", "--spring-for", "*", "--spring-stiffness", "5"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--spring-for '*': the scene has no rigid rods"), std::string::npos) << r.err;
  r = tinkertoy({"compare", pendulum, "--b", "--spring-for nothing --spring-stiffness 5"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("error: --b: --spring-for 'nothing'"), std::string::npos) << r.err;
  r = tinkertoy({"render", pendulum, "-o", file("ghost.png"), "--quiet", "--ghost",
                 "--spring-for nothing --spring-stiffness 5"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--spring-for 'nothing'"), std::string::npos) << r.err;
}

// A compare whose --b is missing says so, not that the flags inside --a are unknown flags.
TEST_F(Cli, AMissingOptionIsNotBlamedOnFlagsInsideAnotherOptionsValue) {
  const Result r = tinkertoy({"compare", kScenes + "pendulum.json", "--a", "--spring-for * --dt 0.01"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--b is required"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("is not a flag"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tinkertoy::cli
