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
  r = tinkertoy({"compare", kScenes + "no_such.json", "--a", "", "--b", ""});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace tinkertoy::cli
