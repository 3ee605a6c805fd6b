// `tinkertoy sweep`: the cases are every combination of the --set values, each row is what
// `tinkertoy run` reports for that case, shards partition the cases, a failing case is a row,
// and every bad-input path stops the command before it runs anything.
#include <algorithm>
#include <sstream>

#include "cli_fixture.hpp"
#include "csv.hpp"
#include "json_path.hpp"

namespace tinkertoy::cli {
namespace {

using Table = std::vector<std::vector<std::string>>;

Table readTable(const std::string& path) {
  std::ifstream in(path);
  Table rows;
  std::size_t line = 0;
  while (auto record = readCsvRecord(in, line)) rows.push_back(*record);
  return rows;
}

double numberIn(const std::string& text) { return std::stod(text); }

// Two masses and two solvers of the pendulum: four cases, the last axis fastest; a row's figures
// are the ones `tinkertoy run --summary` reports for the scene with those values, to the last
// digit (the sweep writes 17 significant digits).
TEST_F(Cli, SweepRunsEveryCombinationAndEachRowIsWhatRunReports) {
  const Result r = tinkertoy({"sweep", kScenes + "pendulum.json", "--set", "particles[0].mass=1,2.5", "--set",
                              "settings.solver=cg,ldlt", "--duration", "0.5", "-o", file("sweep.csv")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("4 of 4 cases run, 0 failed"), std::string::npos) << r.out;
  const Table t = readTable(file("sweep.csv"));
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0], (std::vector<std::string>{"case", "particles[0].mass", "settings.solver", "error", "steps",
                                            "final_time", "energy_drift_max", "energy_error_max",
                                            "constraint_error_max", "velocity_error_max", "solver_iterations_mean"}));
  const std::vector<std::pair<std::string, std::string>> cases = {{"1", "cg"}, {"1", "ldlt"}, {"2.5", "cg"}, {"2.5", "ldlt"}};
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const std::vector<std::string>& row = t[k + 1];
    EXPECT_EQ(row[0], std::to_string(k));
    EXPECT_EQ(row[1], cases[k].first);
    EXPECT_EQ(row[2], cases[k].second);
    EXPECT_EQ(row[3], "");
    EXPECT_EQ(row[4], "500");
    EXPECT_NEAR(numberIn(row[5]), 0.5, 1e-12);

    nlohmann::json scene = readJson(kScenes + "pendulum.json");
    scene["particles"][0]["mass"] = std::stod(cases[k].first);
    scene["settings"]["solver"] = cases[k].second;
    const std::string path = writeScene("case" + std::to_string(k) + ".json", scene.dump());
    const Result run = tinkertoy({"run", path, "--duration", "0.5", "--summary", file("s.json")});
    ASSERT_EQ(run.code, kSuccess) << run.err;
    const nlohmann::json s = readJson(file("s.json"));
    EXPECT_EQ(numberIn(row[6]), s["energy_drift_max"].get<double>()) << "case " << k;
    EXPECT_EQ(numberIn(row[8]), s["constraint_error_max"].get<double>()) << "case " << k;
    EXPECT_EQ(numberIn(row[9]), s["velocity_error_max"].get<double>()) << "case " << k;
  }
  // The pendulum's motion does not depend on its mass: the rods' error is the same for 1 and 2.5 kg
  // to a few ulps of the error itself (not to the bit: λ scales with the mass).
  EXPECT_NEAR(numberIn(t[1][8]), numberIn(t[3][8]), 1e-3 * numberIn(t[1][8]) + 1e-15);
}

// Three shards of a six-case sweep hold every case exactly once, with the whole sweep's numbers.
TEST_F(Cli, SweepShardsPartitionTheCases) {
  const std::vector<std::string> common = {"sweep", kScenes + "pendulum.json", "--set",
                                           "particles[0].position=[1,0],[0.6,-0.8],[0.8,0.6]",
                                           "--set", "settings.dt=1e-3,2e-3", "--duration", "0.2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return tinkertoy(args);
  };
  ASSERT_EQ(with({"-o", file("all.csv")}).code, kSuccess);
  Table all = readTable(file("all.csv")), parts = {all[0]};
  ASSERT_EQ(all.size(), 7u);
  EXPECT_EQ(all[3][1], "[0.6,-0.8]");  // an array value, whole
  for (int i = 0; i < 3; ++i) {
    const std::string part = file("part" + std::to_string(i) + ".csv");
    const Result r = with({"--shard", std::to_string(i) + "/3", "-o", part});
    ASSERT_EQ(r.code, kSuccess) << r.err;
    EXPECT_NE(r.out.find("2 of 6 cases run"), std::string::npos) << r.out;
    Table rows = readTable(part);
    ASSERT_EQ(rows[0], all[0]);
    parts.insert(parts.end(), rows.begin() + 1, rows.end());
  }
  std::sort(parts.begin() + 1, parts.end(), [](const auto& a, const auto& b) { return std::stoi(a[0]) < std::stoi(b[0]); });
  EXPECT_EQ(parts, all);
}

// A case whose value the scene rejects, and one that blows up, are rows with their message;
// the others run, and the exit code says that some failed.
TEST_F(Cli, SweepReportsFailingCasesAsRowsAndRunsTheRest) {
  const Result r = tinkertoy({"sweep", kScenes + "pendulum.json", "--set", "particles[0].mass=-1,1", "--set",
                              "particles[0].velocity=[0,0],[1e300,0]", "--duration", "0.1", "-o", file("f.csv")});
  EXPECT_EQ(r.code, kBlowUp) << r.err;
  EXPECT_NE(r.err.find("3 cases failed"), std::string::npos) << r.err;
  const Table t = readTable(file("f.csv"));
  ASSERT_EQ(t.size(), 5u);
  EXPECT_NE(t[1][3].find("case 0"), std::string::npos) << t[1][3];
  EXPECT_NE(t[1][3].find("mass"), std::string::npos) << t[1][3];
  EXPECT_EQ(t[1][4], "0");
  EXPECT_EQ(t[1][6], "nan");
  EXPECT_FALSE(t[2][3].empty());  // the negative mass again
  EXPECT_EQ(t[3][3], "") << "the good case failed: " << t[3][3];
  EXPECT_EQ(t[3][4], "100");
  EXPECT_FALSE(t[4][3].empty()) << "a pendulum thrown at 1e300 m/s should fail";
}

// --spring-for applies to every case: the rods of each are springs, so no constraint is left to
// violate, and the energy moves between the springs and the masses.
TEST_F(Cli, SweepAppliesSpringForToEveryCase) {
  const Result r = tinkertoy({"sweep", kScenes + "double_pendulum.json", "--set", "particles[1].mass=1,2", "--duration",
                              "0.2", "--spring-for", "*", "--spring-stiffness", "400", "-o", file("springs.csv")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const Table t = readTable(file("springs.csv"));
  ASSERT_EQ(t.size(), 3u);
  for (std::size_t row = 1; row < 3; ++row) {
    EXPECT_EQ(t[row][2], "") << "case " << row << " failed: " << t[row][2];
    EXPECT_EQ(std::stod(t[row][7]), 0.0) << "constraint_error_max with no constraints left";
  }
}

// Every bad input stops the command before it writes anything, naming what is wrong.
TEST_F(Cli, SweepRejectsBadInputNamingTheFlag) {
  const std::string scene = kScenes + "pendulum.json";
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--set", "mass"}, "--set mass: expected PATH=V1,V2,..."},
      {{"--set", "=1,2"}, "expected PATH=V1,V2,..."},
      {{"--set", "particles[0].mass=1,,2"}, "value 2 is empty"},
      {{"--set", "particles[3].mass=1"}, "--set particles[3].mass: the scene has no element [3] there"},
      {{"--set", "bodies[0].mass=1"}, "the scene has no \"bodies\" there"},
      {{"--set", "particles[0]..mass=1"}, "a key is empty"},
      {{"--set", "particles[0].mass.=1"}, "a '.' must join two keys"},
      {{"--set", "particles[x].mass=1"}, "an index must be a number"},
      {{"--set", "particles[0].mass=1", "--shard", "3/3"}, "needs 0 <= I < N, got '3/3'"},
      {{"--set", "particles[0].mass=1", "--shard", "1"}, "expected I/N"},
      {{"--set", "particles[0].mass=1", "--dt", "-1"}, "--dt"},
  };
  for (const auto& [flags, message] : bad) {
    std::vector<std::string> args = {"sweep", scene, "-o", file("bad.csv")};
    args.insert(args.end(), flags.begin(), flags.end());
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kBadInput) << flags[1];
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(file("bad.csv"))) << flags[1];
  }
  const Result missing = tinkertoy({"sweep", file("none.json"), "--set", "a=1", "-o", file("bad.csv")});
  EXPECT_EQ(missing.code, kBadInput);
  EXPECT_FALSE(fs::exists(file("bad.csv")));
  EXPECT_EQ(tinkertoy({"sweep", scene, "-o", file("bad.csv")}).code, kBadInput);  // --set is required
}

TEST(JsonPath, SetsKeysAndElementsAndNamesWhatIsMissing) {
  nlohmann::json doc = nlohmann::json::parse(R"({"a": {"b": [1, {"c": 2}]}})");
  setAtPath(doc, "a.b[1].c", 5);
  setAtPath(doc, "a.b[0]", "x");
  setAtPath(doc, "a.d", true);  // a new last key
  EXPECT_EQ(doc, nlohmann::json::parse(R"({"a": {"b": ["x", {"c": 5}], "d": true}})"));
  for (const char* path : {"", ".a", "a.", "a[", "a[]", "a]", "a[1]x", "a[1234567890]"}) {
    EXPECT_THROW(setAtPath(doc, path, 1), std::invalid_argument) << path;
  }
  EXPECT_THROW(setAtPath(doc, "a.e.f", 1), std::invalid_argument);   // e is missing
  EXPECT_THROW(setAtPath(doc, "a.b[2]", 1), std::invalid_argument);  // past the end
  EXPECT_THROW(setAtPath(doc, "a[0]", 1), std::invalid_argument);    // a is an object
}

}  // namespace
}  // namespace tinkertoy::cli
