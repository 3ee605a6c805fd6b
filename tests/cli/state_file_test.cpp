// `tinkertoy run --save-state FILE [--at T]` and `--resume FILE` (issue #16, exact save and
// restore). A run of 2000 steps saved at its end, and a run saved after 1000 then resumed in
// another process and saved at the end, leave the same state file byte for byte: every double
// of q, v, the warm starts and the rest (memcmp of the whole file). Each formulation, and each
// solver and integrator with state of its own, as separate processes of the real program.
//
// Every bad state file and flag is an exit-2 message naming it: missing, not a state file,
// truncated, corrupt, another version, bytes past its end, another scene, other settings;
// --at outside the run, --at without --save-state, a state at the end of the run; a state
// file that cannot be written exits 4, and a run that blows up before --at saves nothing.
#include <cstdlib>
#include <sstream>

#include "cli_fixture.hpp"
#include "tinkertoy/archive/state_archive.hpp"

namespace tinkertoy::cli {
namespace {

const std::string kCrank = kScenes + "crank.json";
const std::string kStrandbeest = kScenes + "strandbeest.json";

// `tinkertoy run` as a process of its own; its exit status.
int runProcess(const std::vector<std::string>& args) {
  std::ostringstream command;
  command << "'" << TINKERTOY_CLI << "' run --quiet";
  for (const std::string& arg : args) command << " '" << arg << "'";
  command << " > /dev/null 2>&1";
  const int status = std::system(command.str().c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Case {
  std::string scene;
  std::vector<std::string> flags;  // the settings, the same for all three runs
};

TEST_F(Cli, AResumedRunEndsInTheSameBitsAsOneNeverInterrupted) {
  const std::vector<std::string> steps = {"--dt", "0.001", "--duration", "2"};
  const std::vector<Case> cases = {
      {kCrank, {}},
      {kCrank, {"--integrator", "dopri5", "--solver", "ldlt"}},
      {kCrank, {"--integrator", "rattle"}},
      {kStrandbeest, {}},
      {kStrandbeest, {"--solver", "ldlt", "--position-correction", "projection", "--velocity-scheme", "verlet"}},
      {kStrandbeest, {"--solver", "sequential", "--position-correction", "soft"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> common = {c.scene};
    common.insert(common.end(), steps.begin(), steps.end());
    common.insert(common.end(), c.flags.begin(), c.flags.end());
    const auto with = [&common](std::vector<std::string> more) {
      more.insert(more.begin(), common.begin(), common.end());
      return more;
    };
    std::string label = c.scene.substr(kScenes.size());
    for (const std::string& flag : c.flags) label.append(" ").append(flag);

    ASSERT_EQ(runProcess(with({"--save-state", file("whole.state")})), 0) << label;
    ASSERT_EQ(runProcess(with({"--save-state", file("half.state"), "--at", "1"})), 0) << label;
    ASSERT_EQ(runProcess(with({"--resume", file("half.state"), "--save-state", file("resumed.state")})), 0) << label;
    const std::string whole = readFile(file("whole.state")), half = readFile(file("half.state"));
    EXPECT_GT(whole.size(), 1000u) << label;
    EXPECT_TRUE(readFile(file("resumed.state")) == whole) << label << ": the resumed run ended elsewhere";
    EXPECT_FALSE(half == whole) << label << ": the state halfway should differ from the state at the end";
  }
}

// The trajectory of a resumed run goes on where the interrupted one stopped: its rows are those
// of the uninterrupted run from the resumed step on, times included, to the last digit.
TEST_F(Cli, AResumedTrajectoryContinuesTheUninterruptedOne) {
  const std::vector<std::string> common = {"run", kCrank, "--duration", "0.2", "--every", "10"};
  const auto with = [&common](std::vector<std::string> more) {
    more.insert(more.begin(), common.begin(), common.end());
    return more;
  };
  ASSERT_EQ(tinkertoy(with({"--trajectory", file("whole.csv")})).code, kSuccess);
  ASSERT_EQ(tinkertoy(with({"--save-state", file("half.state"), "--at", "0.1"})).code, kSuccess);
  const Result r = tinkertoy(with({"--resume", file("half.state"), "--trajectory", file("resumed.csv")}));
  ASSERT_EQ(r.code, kSuccess) << r.err;
  std::istringstream whole(readFile(file("whole.csv"))), resumed(readFile(file("resumed.csv")));
  std::string line;
  std::vector<std::string> wholeRows, resumedRows;
  while (std::getline(whole, line)) wholeRows.push_back(line);
  while (std::getline(resumed, line)) resumedRows.push_back(line);
  ASSERT_EQ(wholeRows.size(), 22u);  // the header, step 0 and every 10th of 200 steps
  ASSERT_EQ(resumedRows.size(), 12u);  // the header, step 100 and every 10th after it
  EXPECT_EQ(resumedRows[0], wholeRows[0]);
  for (std::size_t i = 1; i < resumedRows.size(); ++i) {
    // The work column counts from the start of each run; every column before it must agree.
    const auto upToWork = [](const std::string& row) { return row.substr(0, row.rfind(',')); };
    EXPECT_EQ(upToWork(resumedRows[i]), upToWork(wholeRows[i + 10])) << "row " << i;
  }
}

TEST_F(Cli, ABadStateFileIsRefusedWithItsReason) {
  const std::vector<std::string> pendulum = {kCrank, "--duration", "0.2"};
  const auto run = [&pendulum](std::vector<std::string> more) {
    std::vector<std::string> args = {"run"};
    args.insert(args.end(), pendulum.begin(), pendulum.end());
    args.insert(args.end(), more.begin(), more.end());
    return tinkertoy(args);
  };
  ASSERT_EQ(run({"--save-state", file("good.state"), "--at", "0.1"}).code, kSuccess);
  const std::string good = readFile(file("good.state"));
  const auto variant = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(file(name), std::ios::binary) << bytes;
    return file(name);
  };
  std::string corrupt = good, otherVersion = good;
  corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 1);
  otherVersion[8] = static_cast<char>(kStateFormatVersion + 1);
  const std::pair<std::string, std::string> cases[] = {
      {file("missing.state"), "--resume: cannot open the state file"},
      {kCrank, "not a Tinkertoy state file"},
      {variant("short.state", "TTSTATE"), "shorter than the 32-byte header"},
      {variant("truncated.state", good.substr(0, good.size() - 10)), "the state file is truncated"},
      {variant("longer.state", good + "x"), "the state file has bytes after its end"},
      {variant("corrupt.state", corrupt), "the state file is corrupt"},
      {variant("version.state", otherVersion),
       "format version " + std::to_string(kStateFormatVersion + 1) + ", which this build cannot read"},
      {dir_.string(), "cannot read the state file"},
  };
  for (const auto& [state, says] : cases) {
    const Result r = run({"--resume", state});
    EXPECT_EQ(r.code, kBadInput) << state;
    EXPECT_NE(r.err.find(says), std::string::npos) << state << ": " << r.err;
    EXPECT_EQ(r.out, "") << state;
  }

  Result r = tinkertoy({"run", kScenes + "pendulum.json", "--resume", file("good.state")});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("the state was saved with the number of coordinates = 6; this simulator has 2"), std::string::npos)
      << r.err;
  r = run({"--dt", "0.002", "--resume", file("good.state")});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find(std::string("'").append(file("good.state")).append("': the state was saved with dt = 0.001")),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("; this simulator has 0.002"), std::string::npos) << r.err;
  r = run({"--integrator", "midpoint", "--resume", file("good.state")});
  EXPECT_NE(r.err.find("the state was saved with integrator = rk4; this simulator has midpoint"), std::string::npos)
      << r.err;
}

TEST_F(Cli, SaveAndResumeFlagsOutsideTheRunAreRefused) {
  ASSERT_EQ(tinkertoy({"run", kCrank, "--duration", "0.2", "--save-state", file("end.state")}).code, kSuccess);
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--at", "0.1"}, "--at requires --save-state"},
      {{"--save-state", file("x.state"), "--at", "0.3"}, "--at 0.3: after the end of the run (t = 0.2 s)"},
      {{"--save-state", file("x.state"), "--at", "nan"}, "--at"},
      {{"--resume", file("end.state")}, "at or past the end of the run"},
      {{"--save-state", kCrank}, std::string("--save-state: '").append(kCrank).append("' is the input itself")},
      {{"--save-state", file("s.json"), "--summary", file("s.json")}, "is where another output goes"},
  };
  for (const auto& [flags, says] : cases) {
    std::vector<std::string> args = {"run", kCrank, "--duration", "0.2"};
    args.insert(args.end(), flags.begin(), flags.end());
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kBadInput) << says;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(file("x.state"))) << says;
  }
  const Result early = tinkertoy({"run", kCrank, "--duration", "0.3", "--resume", file("end.state"), "--save-state",
                                  file("x.state"), "--at", "0.1"});
  EXPECT_EQ(early.code, kBadInput);
  EXPECT_NE(early.err.find("--at 0.1: before the resumed state (step 200"), std::string::npos) << early.err;
  EXPECT_FALSE(fs::exists(file("x.state")));
  // A run of no steps is no error: without --resume it writes the initial state.
  const Result none = tinkertoy({"run", kCrank, "--duration", "0", "--save-state", file("zero.state")});
  EXPECT_EQ(none.code, kSuccess) << none.err;
  EXPECT_TRUE(fs::exists(file("zero.state")));
  // A scene whose parameters changed since the save is another scene, though its names match.
  std::string edited = readFile(kCrank);
  edited.replace(edited.find("\"mass\": 0.5"), 11, "\"mass\": 0.6");
  const Result heavier = tinkertoy({"run", writeScene("heavier.json", edited), "--duration", "0.3", "--resume",
                                    file("end.state")});
  EXPECT_EQ(heavier.code, kBadInput);
  EXPECT_NE(heavier.err.find("the state was saved with the origin = a model whose parameters hash to "), std::string::npos) << heavier.err;
  // A scene whose name, description or period changed is the same model: its state resumes.
  std::string renamed = readFile(kCrank);
  renamed.replace(renamed.find("\"name\": \""), 9, "\"name\": \"renamed ");
  const Result same = tinkertoy({"run", writeScene("renamed.json", renamed), "--duration", "0.3", "--resume",
                                 file("end.state")});
  EXPECT_EQ(same.code, kSuccess) << same.err;
  // A longer run resumes from the end of the shorter one, and may save over the file it read.
  const Result longer = tinkertoy({"run", kCrank, "--duration", "0.3", "--resume", file("end.state"), "--save-state",
                                   file("end.state")});
  EXPECT_EQ(longer.code, kSuccess) << longer.err;
}

TEST_F(Cli, AStateThatCannotBeWrittenOrIsNeverReachedLeavesNoFile) {
  Result r = tinkertoy({"run", kCrank, "--duration", "0.1", "--save-state", "/dev/full"});
  EXPECT_EQ(r.code, kOutputFailed);
  EXPECT_NE(r.err.find("--save-state: cannot write '/dev/full'"), std::string::npos) << r.err;

  const std::string stiff = writeScene("stiff.json", kBlowUpScene);
  r = tinkertoy({"run", stiff, "--save-state", file("late.state"), "--at", "50"});
  EXPECT_EQ(r.code, kBlowUp);
  EXPECT_NE(r.err.find("no state saved: the run ended before step 5000"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(file("late.state")));
}

}  // namespace
}  // namespace tinkertoy::cli
