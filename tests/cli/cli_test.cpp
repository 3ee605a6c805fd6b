// The tinkertoy command line, run in-process: outputs, overrides, exit codes and every
// bad-input path of the flags.
#include <cmath>
#include <regex>

#include "cli_fixture.hpp"

namespace tinkertoy::cli {
namespace {

// A particle on three rods to three anchors that no point satisfies: the exact mode's projection
// cannot converge, and `run` says so in its summary and on its report instead of passing it by.
TEST_F(Cli, RunReportsAProjectionThatDoesNotConverge) {
  const std::string scene = writeScene("inconsistent.json", R"({
    "particles": [{"id": "p", "mass": 1, "position": [1.5, 1.0]}],
    "constraints": [
      {"type": "distance", "a": "p", "b": [0, 0], "length": 1.2},
      {"type": "distance", "a": "p", "b": [3, 0], "length": 1.2},
      {"type": "distance", "a": "p", "b": [1.5, 2.6], "length": 1.2}],
    "settings": {"formulation": "velocity", "solver": "ldlt", "regularization": 1e-9,
                 "position_correction": "projection", "dt": 0.01, "duration": 0.05}})");
  const Result r = tinkertoy({"run", scene, "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("the position projection stopped above its tolerance"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("in 5 of 5 steps"), std::string::npos) << r.out;
  const nlohmann::json s = readJson(file("s.json"));
  EXPECT_EQ(s["projection_unconverged_steps"], 5);
  EXPECT_EQ(s["substep_splits"], 0);
  EXPECT_GT(s["projection_iterations"].get<long>(), 0);
  // A model that converges reports nothing of the kind.
  const Result ok = tinkertoy({"run", kScenes + "chain.json", "--formulation", "velocity", "--solver", "ldlt",
                               "--position-correction", "projection", "--duration", "0.1"});
  ASSERT_EQ(ok.code, kSuccess) << ok.err;
  EXPECT_EQ(ok.out.find("warning"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("projection   "), std::string::npos) << ok.out;
}

TEST_F(Cli, RunWritesASummaryWithExactlyTheDocumentedKeys) {
  const Result r = tinkertoy({"run", kScenes + "pendulum.json", "--duration", "1", "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("pendulum"), std::string::npos);
  const nlohmann::json s = readJson(file("s.json"));
  std::vector<std::string> keys;
  for (const auto& [key, value] : s.items()) keys.push_back(key);
  std::vector<std::string> expected = {
      "scene", "dimension", "particles", "bodies", "constraints", "formulation", "integrator", "solver", "dt", "steps",
      "simulated_time", "energy_initial", "energy_final", "energy_drift_max", "energy_error_max", "work", "constraint_error_max",
      "constraint_error_final", "velocity_error_max", "solver_iterations_mean", "factorizations_per_step", "projection_iterations",
      "projection_unconverged_steps", "substep_splits", "adaptive_steps", "rejected_steps", "solver_residual_max",
      "wall_seconds", "steps_per_second", "breaks", "final_state"};
  std::sort(keys.begin(), keys.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(s["steps"], 1000);
  EXPECT_NEAR(s["simulated_time"].get<double>(), 1.0, 1e-12);
  EXPECT_EQ(s["integrator"], "rk4");
  EXPECT_EQ(s["solver"], "cg");
  EXPECT_EQ(s["formulation"], "acceleration");
  EXPECT_EQ(s["particles"], 1);
  EXPECT_EQ(s["bodies"], 0);
  EXPECT_TRUE(s["breaks"].empty());
  EXPECT_LT(s["energy_drift_max"].get<double>(), 1e-8);
  EXPECT_LT(s["constraint_error_max"].get<double>(), 1e-9);
  // The ledger names every source, and a pendulum has nothing in it: its error is its drift.
  std::vector<std::string> sources;
  for (const auto& [source, work] : s["work"].items()) {
    sources.push_back(source);
    EXPECT_EQ(work.get<double>(), 0.0) << source;
  }
  EXPECT_EQ(sources, (std::vector<std::string>{"damping", "drag", "driven", "impulses", "motors", "mouse", "sleep", "springs",
                                               "total"}));
  EXPECT_EQ(s["energy_error_max"], s["energy_drift_max"]);
  // The bob stays on its unit circle.
  const auto position = s["final_state"]["bob"]["position"].get<std::vector<double>>();
  ASSERT_EQ(position.size(), 2u);
  EXPECT_NEAR(std::hypot(position[0], position[1]), 1.0, 1e-9);
}

TEST_F(Cli, FlagsOverrideTheSceneSettings) {
  const Result r = tinkertoy({"run", kScenes + "pendulum.json", "--duration", "0.5", "--dt", "0.01",
                              "--integrator", "midpoint", "--solver", "ldlt", "--ks", "10", "--kd", "2",
                              "--project", "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const nlohmann::json s = readJson(file("s.json"));
  EXPECT_EQ(s["steps"], 50);
  EXPECT_DOUBLE_EQ(s["dt"].get<double>(), 0.01);
  EXPECT_EQ(s["integrator"], "midpoint");
  EXPECT_EQ(s["solver"], "ldlt");
  // --project holds the rod to round-off even with this coarse midpoint step.
  EXPECT_LT(s["constraint_error_max"].get<double>(), 1e-11);
}

// dopri5 takes its own steps across the output interval dt and says how many.
TEST_F(Cli, Dopri5ReportsItsOwnSteps) {
  const Result r = tinkertoy({"run", kScenes + "double_pendulum.json", "--duration", "1", "--integrator", "dopri5",
                              "--rtol", "1e-8", "--atol", "1e-10", "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("dopri5       "), std::string::npos) << r.out;
  const nlohmann::json s = readJson(file("s.json"));
  EXPECT_EQ(s["integrator"], "dopri5");
  EXPECT_EQ(s["steps"], 1000);
  const int own = s["adaptive_steps"].get<int>();
  EXPECT_GT(own, 10);
  EXPECT_LT(own, 500) << "its steps must span several outputs";
  EXPECT_TRUE(s["rejected_steps"].is_number_integer());
  EXPECT_LT(s["constraint_error_max"].get<double>(), 1e-11);
}

TEST_F(Cli, TrajectoryRecordsEveryNthStep) {
  const Result r = tinkertoy({"run", kScenes + "double_pendulum.json", "--duration", "0.1", "--every", "10",
                              "--trajectory", file("t.csv")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  std::ifstream in(file("t.csv"));
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header,
            "time,p1.x,p1.y,p1.vx,p1.vy,p2.x,p2.y,p2.vx,p2.vy,kinetic_energy,potential_energy,"
            "total_energy,constraint_error,velocity_error,work");
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 11u);  // step 0 and every 10th of 100 steps
  EXPECT_EQ(rows.front().substr(0, 2), "0,");
  EXPECT_NEAR(std::stod(rows.back()), 0.1, 1e-12);
}

// The time column is k·dt: with dt = 0.1 the tenth row is 1 exactly (the model's running sum
// of dt gives 0.9999999999999999), printed to 17 digits like every other column.
TEST_F(Cli, TrajectoryTimesAreWholeStepsOfDt) {
  const Result r = tinkertoy({"run", kScenes + "pendulum.json", "--dt", "0.1", "--duration", "1", "--trajectory", file("t.csv")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  std::ifstream in(file("t.csv"));
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 12u);
  for (int k = 0; k <= 10; ++k) {
    EXPECT_EQ(std::stod(rows[static_cast<std::size_t>(k) + 1]), k * 0.1) << "row " << k;
  }
  EXPECT_EQ(rows.back().substr(0, 2), "1,");
}

TEST_F(Cli, CheckPassesEveryShippedScene) {
  for (const auto& entry : fs::recursive_directory_iterator(kScenes)) {
    if (entry.path().extension() != ".json") continue;
    const Result r = tinkertoy({"check", entry.path().string()});
    EXPECT_EQ(r.code, kSuccess) << entry.path() << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("ok: all derivatives match finite differences"), std::string::npos) << r.out;
  }
}

// Parametric bodies in the summary: their coordinates, rates and the world positions of their
// points; and in the trajectory, their columns.
TEST_F(Cli, SummaryAndTrajectoryDescribeParametricBodies) {
  const Result r = tinkertoy({"run", kScenes + "hybrid.json", "--duration", "0.5", "--summary", file("s.json"),
                              "--trajectory", file("t.csv"), "--every", "100"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("2 particles, 2 bodies, 2 constraints"), std::string::npos) << r.out;
  const nlohmann::json s = readJson(file("s.json"));
  EXPECT_EQ(s["particles"], 2);
  const nlohmann::json& arm = s["final_state"]["arm"];
  const auto angles = arm["u"].get<std::vector<double>>();
  const auto rates = arm["u_dot"].get<std::vector<double>>();
  const auto points = arm["points"].get<std::vector<std::vector<double>>>();
  ASSERT_EQ(angles.size(), 2u);
  ASSERT_EQ(rates.size(), 2u);
  ASSERT_EQ(points.size(), 2u);
  // The first mass hangs at the end of a 1 m link from the pivot at the origin, along θ₀.
  EXPECT_NEAR(points[0][0], std::sin(angles[0]), 1e-12);
  EXPECT_NEAR(points[0][1], -std::cos(angles[0]), 1e-12);
  EXPECT_EQ(s["final_state"]["bead"]["u"].size(), 1u);
  EXPECT_EQ(s["final_state"]["bead"]["points"].size(), 1u);
  EXPECT_EQ(s["final_state"]["slider"]["position"].size(), 2u);

  std::ifstream in(file("t.csv"));
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header,
            "time,slider.x,slider.y,slider.vx,slider.vy,float.x,float.y,float.vx,float.vy,"
            "arm.u0,arm.u1,arm.u_dot0,arm.u_dot1,arm.p0.x,arm.p0.y,arm.p1.x,arm.p1.y,"
            "bead.u0,bead.u_dot0,bead.p0.x,bead.p0.y,"
            "kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error,work");
}

TEST_F(Cli, CheckAuditsParametricBodies) {
  const Result r = tinkertoy({"check", kScenes + "hybrid.json"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("body points against central differences"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("chain 'arm'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bead 'bead'"), std::string::npos) << r.out;
}

// A formula's J as derived, beside J by differences: for C = xa² + ya² − 1 at (0.6, 0.8),
// ∂C/∂x = 1.2 and ∂C/∂y = 1.6, one line per variable the row reads.
TEST_F(Cli, CheckPrintsAFormulasJacobianBesideFiniteDifferences) {
  const std::string scene = writeScene("circle.json", R"json({"particles": [{"id": "p", "mass": 1, "position": [0.6, 0.8]}],
      "constraints": [{"type": "formula", "id": "ring", "points": {"a": "p"}, "C": ["xa^2 + ya^2 - 1", "ya - 0.8"]}]})json");
  const Result r = tinkertoy({"check", scene});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("formula constraints: J by automatic differentiation beside J by central differences"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ring, row 0: xa^2 + ya^2 - 1"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n +xa +1\.200000000e\+00 +1\.20000000\de\+00\n)"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n +ya +1\.600000000e\+00 +1\.60000000\de\+00\n)"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(ring, row 1: ya - 0\.8\n +variable +derived +differenced\n +ya )")))
      << r.out;  // row 1 reads ya alone
}

// Without projection (off in the scene, or by --no-project) an illegal start stays illegal:
// warned. With the default projection the first step pulls it back: a note, no warning.
TEST_F(Cli, CheckWarnsAboutAnIllegalInitialState) {
  const std::string body = R"("particles": [{"id": "a", "mass": 1, "position": [1, 0], "velocity": [1, 0]}],
      "constraints": [{"type": "distance", "a": "a", "b": [0, 0]}])";
  const std::string kept = writeScene("kept.json", R"({"settings": {"project": false}, )" + body + "}");
  const Result r = tinkertoy({"check", kept});
  EXPECT_EQ(r.code, kSuccess);
  EXPECT_NE(r.out.find("warning: the initial state violates its constraints"), std::string::npos) << r.out;
  const Result run = tinkertoy({"run", kept, "--duration", "0.01"});
  EXPECT_NE(run.err.find("warning: the initial state violates its constraints"), std::string::npos) << run.err;

  const std::string pulled = writeScene("pulled.json", "{" + body + "}");
  const Result note = tinkertoy({"check", pulled});
  EXPECT_NE(note.out.find("note: the initial state violates its constraints (|C| = "), std::string::npos) << note.out;
  EXPECT_NE(note.out.find("the first steps pull it back"), std::string::npos) << note.out;
  const Result projected = tinkertoy({"run", pulled, "--duration", "0.01"});
  EXPECT_EQ(projected.err.find("warning"), std::string::npos) << projected.err;
  const Result unprojected = tinkertoy({"run", pulled, "--duration", "0.01", "--no-project"});
  EXPECT_NE(unprojected.err.find("warning: the initial state violates its constraints"), std::string::npos)
      << unprojected.err;
}

// A start off its constraints by more than the model's size is a warning even when correction
// pulls it back: the first steps would snap it across the model (a particle at the origin held
// at a point 100 m away, in a model of 1 m).
TEST_F(Cli, AnInitialViolationLargerThanTheModelIsAWarningWhateverTheCorrection) {
  const std::string far = writeScene("far.json", R"({"particles": [{"id": "a", "mass": 1, "position": [0, 0]}],
      "constraints": [{"type": "fixed", "particle": "a", "point": [100, 0]}]})");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"check", far}, {"run", far, "--duration", "0.01"}}) {
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kSuccess) << r.err;
    const std::string said = r.out + r.err;
    EXPECT_NE(said.find("warning: the initial state violates its constraints (|C| = 100, |dC/dt| = 0), by more "
                        "than the model's size (1 m); the first steps will snap it back, hard"),
              std::string::npos)
        << said;
  }
}

// Derivatives that finite differences cannot resolve (a rod 1e12 m from the origin) are "cannot
// audit", with exit 0; a model of 20 000 m is audited and passes (it failed at a fixed step).
TEST_F(Cli, CheckSaysCannotAuditWhereDifferencesCannotResolve) {
  const std::string far = writeScene("far.json", R"({"particles": [
      {"id": "a", "mass": 1, "position": [1e12, 0], "velocity": [0, 1]}, {"id": "b", "mass": 1, "position": [1e12, -1]}],
      "constraints": [{"type": "distance", "a": "a", "b": "b"}]})");
  const Result r = tinkertoy({"check", far});
  EXPECT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("constraints[0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cannot audit\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warning: cannot audit 1 constraint or body (the first: constraints[0])"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;

  const std::string wide = writeScene("wide.json", R"({"particles": [
      {"id": "a", "mass": 1, "position": [20000, 0], "velocity": [0.3, 1]}, {"id": "b", "mass": 1, "position": [20000.6, -0.8]}],
      "constraints": [{"type": "distance", "a": "a", "b": "b"}]})");
  const Result ok = tinkertoy({"check", wide});
  EXPECT_EQ(ok.code, kSuccess) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("ok: all derivatives match"), std::string::npos) << ok.out;
}

TEST_F(Cli, BadSceneExitsWithTwoAndNamesTheJsonPath) {
  const std::string scene = writeScene("bad.json", R"({"particles": [{"id": "a", "mass": -3, "position": [0, 0]}]})");
  for (const char* command : {"run", "check"}) {
    const Result r = tinkertoy({command, scene});
    EXPECT_EQ(r.code, kBadInput) << command;
    EXPECT_NE(r.err.find("particles[0].mass: must be positive"), std::string::npos) << r.err;
  }
}

// One validation for every command: a scene whose dt run refuses, check refuses too, in the
// same words, naming the file and the fields; and a feedback gain the step cannot resolve.
TEST_F(Cli, CheckAndRunRefuseTheSameSettingsInTheSameWords) {
  const std::string tiny = writeScene("tiny.json", R"({"particles": [{"id": "a", "mass": 1, "position": [1, 0]}],
      "settings": {"dt": 1e-300, "duration": 1}})");
  const std::string stiff = writeScene("stiff.json", R"({"particles": [{"id": "a", "mass": 1, "position": [1, 0]}],
      "constraints": [{"type": "distance", "a": "a", "b": [0, 0]}], "settings": {"ks": 1e300, "kd": 1e300, "project": false}})");
  for (const auto& [scene, says] :
       {std::pair{tiny, tiny + ": settings.duration / settings.dt = 1 s / 1e-300 s is 1e+300 steps; at most 1e+12 are "
                              "run, so settings.dt must be at least 1e-12 s"},
        std::pair{stiff, stiff + ": settings.ks: ks = 1e+300 /s² is faster than the step dt = 0.001 s resolves"}}) {
    for (const char* command : {"run", "check"}) {
      const Result r = tinkertoy({command, scene});
      EXPECT_EQ(r.code, kBadInput) << command << " " << scene;
      EXPECT_NE(r.err.find(says), std::string::npos) << command << ": " << r.err;
    }
  }
}

struct BadFlag {
  std::vector<std::string> args;
  const char* mention;  // the message must contain this
};

void PrintTo(const BadFlag& bad, std::ostream* os) {
  for (const std::string& a : bad.args) *os << a << ' ';
}

class CliRejects : public ::testing::TestWithParam<BadFlag> {};

TEST_P(CliRejects, ABadFlagWithExitCodeTwo) {
  const BadFlag& bad = GetParam();
  const Result r = tinkertoy(bad.args);
  EXPECT_EQ(r.code, kBadInput) << r.err;
  EXPECT_NE(r.err.find(bad.mention), std::string::npos) << r.err;
}

const std::string kPendulum = kScenes + "pendulum.json";

INSTANTIATE_TEST_SUITE_P(
    Flags, CliRejects,
    ::testing::Values(BadFlag{{"run", kPendulum, "--dt", "nan"}, "--dt"},
                      // Decimal numbers only, and a number a double cannot hold says so (issue #16, class 7).
                      BadFlag{{"run", kPendulum, "--dt", "0x10"}, "--dt: expected a decimal number, got '0x10'"},
                      BadFlag{{"run", kPendulum, "--dt", "inf"}, "--dt: expected a decimal number"},
                      BadFlag{{"run", kPendulum, "--dt", "1e-400"}, "--dt: '1e-400' is closer to 0 than a double can hold"},
                      BadFlag{{"run", kPendulum, "--duration", "1e999"}, "larger than a double can hold"},
                      BadFlag{{"run", kPendulum, "--dt", "1e-320"}, "pendulum.json: settings.duration / --dt = 10 s / "},
                      BadFlag{{"run", kPendulum, "--dt", "1e-320"}, "so --dt must be at least 1e-11 s"},
                      BadFlag{{"run", kPendulum, "--duration", "1e300"}, "or --duration at most 1e+09 s"},
                      BadFlag{{"run", kPendulum, "--ks", "1e300"}, "ks·dt² must be at most 1, so ks at most 1e+06 /s²"},
                      BadFlag{{"run", kPendulum, "--kd", "2000"}, "kd·dt must be at most 1, so kd at most 1000 /s"},
                      BadFlag{{"run", kPendulum, "--dt", "-0.1"}, "--dt"},
                      BadFlag{{"run", kPendulum, "--dt", "0"}, "must be positive"},
                      BadFlag{{"run", kPendulum, "--dt", "fast"}, "expected a decimal number"},
                      BadFlag{{"run", kPendulum, "--duration", "inf"}, "--duration"},
                      BadFlag{{"run", kPendulum, "--duration", "-1"}, "must not be negative"},
                      BadFlag{{"run", kPendulum, "--ks", "nan"}, "--ks"},
                      BadFlag{{"run", kPendulum, "--kd", "-1"}, "--kd"},
                      BadFlag{{"run", kPendulum, "--tolerance", "0"}, "--tolerance"},
                      BadFlag{{"run", kPendulum, "--max-iterations", "-5"}, "--max-iterations"},
                      BadFlag{{"run", kPendulum, "--regularization", "nan"}, "--regularization"},
                      BadFlag{{"run", kPendulum, "--integrator", "rk5"}, "--integrator"},
                      BadFlag{{"run", kPendulum, "--rtol", "0"}, "--rtol"},
                      BadFlag{{"run", kPendulum, "--rtol", "1e-20"}, "--rtol: rtol must be from 1e-14"},
                      BadFlag{{"run", kPendulum, "--atol", "-1"}, "--atol"},
                      BadFlag{{"run", kPendulum, "--factorization", "cholesky"}, "--factorization"},
                      BadFlag{{"run", kPendulum, "--reuse-iterations", "-1"}, "--reuse-iterations"},
                      BadFlag{{"run", kPendulum, "--reuse-iterations", "99999999999999999999"}, "--reuse-iterations"},
                      BadFlag{{"run", kPendulum, "--threads", "0"}, "--threads"},
                      BadFlag{{"run", kPendulum, "--threads", "two"}, "--threads"},
                      BadFlag{{"run", kPendulum, "--solver", "gmres"}, "--solver"},
                      BadFlag{{"run", kPendulum, "--every", "0"}, "--every"},
                      BadFlag{{"run", kPendulum, "--formulation", "impulse"}, "--formulation"},
                      BadFlag{{"run", kPendulum, "--iterations", "0"}, "--iterations"},
                      BadFlag{{"run", kPendulum, "--iterations", "2.5"}, "--iterations"},
                      BadFlag{{"run", kPendulum, "--substeps", "0"}, "--substeps"},
                      BadFlag{{"run", kPendulum, "--position-correction", "baumgart"}, "--position-correction"},
                      BadFlag{{"run", kPendulum, "--velocity-scheme", "leapfrog"}, "--velocity-scheme"},
                      BadFlag{{"run", kPendulum, "--solver", "sequential"}, "velocity level"},
                      BadFlag{{"run", kPendulum, "--frobnicate"}, "--frobnicate is not a flag of tinkertoy run"},
                      BadFlag{{"run", kPendulum, "--durration", "2"}, "--durration is not a flag of tinkertoy run; did you mean --duration?"},
                      BadFlag{{"render", kPendulum, "-o", "x.png", "--exposure", "3"}, "did you mean --exposures?"},
                      BadFlag{{"rnu", kPendulum}, "'rnu' is not a command; did you mean run?"},
                      BadFlag{{"--versoin"}, "did you mean --version?"},
                      BadFlag{{"run"}, "scene"},
                      BadFlag{{}, "subcommand"},
                      BadFlag{{"run", "/nonexistent.json"}, "/nonexistent.json: cannot open scene file"},
                      BadFlag{{"check", "/dev/urandom"}, "/dev/urandom: a NUL byte at line "},
                      BadFlag{{"run", kPendulum, "--trajectory", "/nonexistent/dir/t.csv"}, "--trajectory"},
                      BadFlag{{"run", kPendulum, "--summary", "/nonexistent/dir/s.json"}, "--summary"}));

// The velocity level from the command line: the flags override the scene, and the summary
// says which formulation ran and gives the rigid body's state.
TEST_F(Cli, VelocityLevelFlagsOverrideTheScene) {
  const Result r = tinkertoy({"run", kScenes + "rigid_pendulum.json", "--duration", "1", "--formulation", "velocity",
                              "--solver", "sequential", "--iterations", "4", "--substeps", "2",
                              "--position-correction", "projection", "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("velocity level"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 iterations, 2 substeps, projection"), std::string::npos) << r.out;
  const nlohmann::json s = readJson(file("s.json"));
  EXPECT_EQ(s["formulation"], "velocity");
  EXPECT_EQ(s["solver"], "sequential");
  EXPECT_EQ(s["bodies"], 1);
  EXPECT_EQ(s["solver_iterations_mean"], 4);
  const nlohmann::json& rod = s["final_state"]["rod"];
  for (const char* key : {"position", "angle", "velocity", "angular_velocity"}) EXPECT_TRUE(rod.contains(key)) << key;
  // The rod's end stays on its hinge at the origin: the center is half a length from it.
  const auto position = rod["position"].get<std::vector<double>>();
  EXPECT_NEAR(std::hypot(position[0], position[1]), 0.5, 1e-6);
}

// --velocity-scheme verlet: the summary names the scheme as the integrator.
TEST_F(Cli, VelocitySchemeFlagSelectsVerlet) {
  const Result r = tinkertoy({"run", kScenes + "rigid_pendulum.json", "--duration", "0.5", "--formulation", "velocity",
                              "--velocity-scheme", "verlet", "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("velocity level, verlet"), std::string::npos) << r.out;
  EXPECT_EQ(readJson(file("s.json"))["integrator"], "verlet");
}

// Limits, motors and springs load at either formulation (a flag may switch it), but the
// acceleration level refuses them: both commands exit with 2 and name the constraint.
TEST_F(Cli, VelocityOnlyJointsAtTheAccelerationLevelExitWithTwo) {
  const std::string scene = writeScene("limits.json", R"({
    "bodies": [{"id": "rod", "type": "rigid", "mass": 1, "position": [0.5, 0], "shape": {"type": "box", "size": [1, 0.05]}}],
    "constraints": [{"type": "revolute", "id": "hinge", "a": "rod", "anchor": [0, 0], "lower": -1, "upper": 1}]})");
  for (const char* command : {"run", "check"}) {
    const Result r = tinkertoy({command, scene});
    EXPECT_EQ(r.code, kBadInput) << command << r.out;
    EXPECT_NE(r.err.find("limits.json: constraints[0]: a revolute with a limit"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(R"(needs "formulation": "velocity")"), std::string::npos) << r.err;
  }
  EXPECT_EQ(tinkertoy({"run", scene, "--formulation", "velocity", "--duration", "0.5"}).code, kSuccess);
}

// A joint that breaks is printed and listed in the summary with its step and force.
TEST_F(Cli, RunReportsBrokenJoints) {
  const std::string scene = writeScene("weak.json", R"({
    "settings": {"formulation": "velocity", "dt": 0.01, "duration": 0.5},
    "bodies": [{"id": "weight", "type": "rigid", "mass": 2, "position": [0, -1], "shape": {"type": "circle", "radius": 0.1}}],
    "constraints": [{"type": "distance", "id": "thread", "a": "weight", "b": [0, 0], "break_force": 10}]})");
  const Result r = tinkertoy({"run", scene, "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("break        thread at step 1"), std::string::npos) << r.out;
  const nlohmann::json s = readJson(file("s.json"));
  ASSERT_EQ(s["breaks"].size(), 1u);
  EXPECT_EQ(s["breaks"][0]["constraint"], "thread");
  EXPECT_EQ(s["breaks"][0]["step"], 1);
  EXPECT_NEAR(s["breaks"][0]["force"].get<double>(), 2 * 9.81, 0.5);  // the weight, m g
  // Then the weight falls freely for the remaining 0.49 s.
  EXPECT_LT(s["final_state"]["weight"]["velocity"][1].get<double>(), -4.5);
}

TEST_F(Cli, HelpExitsWithZero) {
  const Result r = tinkertoy({"run", "--help"});
  EXPECT_EQ(r.code, kSuccess);
  EXPECT_NE(r.out.find("--integrator"), std::string::npos);
  // The usage line names the program, and the help cites sources, not internal file names.
  EXPECT_NE(r.out.find("Usage: tinkertoy run"), std::string::npos) << r.out;
  for (const auto& args : {std::vector<std::string>{"--help"}, {"run", "--help"}, {"render", "--help"}}) {
    const Result help = tinkertoy(args);
    EXPECT_EQ(help.out.find("seed"), std::string::npos) << help.out;
  }
}

// Counts take the noun's number: "1 step", "1 frame", "1 force".
TEST_F(Cli, OneOfAThingIsSingular) {
  const std::string scene = writeScene("one.json", R"({"settings": {"duration": 0.001, "dt": 0.001},
    "particles": [{"id": "a", "mass": 1, "position": [1, 0]}]})");
  Result r = tinkertoy({"run", scene});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("1 particle, 0 constraints"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", 1 step, "), std::string::npos) << r.out;
  r = tinkertoy({"check", scene});
  EXPECT_NE(r.out.find("and 1 force\n"), std::string::npos) << r.out;
  r = tinkertoy({"run", scene, "--formulation", "velocity", "--iterations", "1", "--substeps", "1"});
  EXPECT_NE(r.out.find("(1 iteration, 1 substep, "), std::string::npos) << r.out;
}

// The bar appears only on a terminal, reaches 100 %, is erased before the summary, and
// --quiet turns it off.
TEST_F(Cli, RunShowsProgressOnlyOnATerminal) {
  const std::vector<std::string> args = {"run", kScenes + "pendulum.json", "--duration", "0.5"};
  const Result terminal = tinkertoy(args, true);
  ASSERT_EQ(terminal.code, kSuccess) << terminal.err;
  EXPECT_NE(terminal.err.find("simulating ["), std::string::npos) << terminal.err;
  EXPECT_NE(terminal.err.find("100%  t = 0.50 s"), std::string::npos) << terminal.err;
  EXPECT_NE(terminal.err.find("steps/s  ETA"), std::string::npos) << terminal.err;
  EXPECT_EQ(terminal.err.substr(terminal.err.size() - 4), "\r\033[K") << "the bar is erased at the end";

  EXPECT_EQ(tinkertoy(args).err, "");
  std::vector<std::string> quiet = args;
  quiet.push_back("--quiet");
  EXPECT_EQ(tinkertoy(quiet, true).err, "");
}

// A very stiff spring under explicit Euler grows without bound: exit 3, the message names
// the step, and no summary file is left behind.
TEST_F(Cli, BlowUpExitsWithThreeAndLeavesNoSummary) {
  const std::string scene = writeScene("stiff.json", kBlowUpScene);
  const Result r = tinkertoy({"run", scene, "--summary", file("s.json"), "--trajectory", file("t.csv")});
  EXPECT_EQ(r.code, kBlowUp) << r.err;
  EXPECT_NE(r.err.find("simulation blew up at step"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("keeps the state of step"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(file("s.json")));
  EXPECT_TRUE(fs::exists(file("t.csv")));
}

}  // namespace
}  // namespace tinkertoy::cli
