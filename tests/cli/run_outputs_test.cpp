// `tinkertoy run`'s outputs never lie (issue #16, failure class 6): a write that fails is an
// error naming the file (exit 4), standard output included; an output may not be the scene or
// the other output; and each output lands whole or not at all, as render's do. And no input can
// drive the terminal (class 7): control characters in names are shown, not obeyed.
#include <algorithm>
#include <streambuf>

#include "cli_fixture.hpp"

namespace tinkertoy::cli {
namespace {

const std::string kPendulum = kScenes + "pendulum.json";

// A standard output that refuses every write, as a full disk does.
class FullStream : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

TEST_F(Cli, AWriteThatFailsIsAnErrorNamingTheFile) {
  for (const char* flag : {"--summary", "--trajectory"}) {
    const Result r = tinkertoy({"run", kPendulum, "--duration", "0.1", flag, "/dev/full"});
    EXPECT_EQ(r.code, kOutputFailed) << flag << ": " << r.err;
    EXPECT_NE(r.err.find(std::string(flag) + ": cannot write '/dev/full'"), std::string::npos) << r.err;
  }
  FullStream full;
  std::ostream out(&full);
  std::ostringstream err;
  EXPECT_EQ(run({"run", kPendulum, "--duration", "0.1"}, out, err), kOutputFailed);
  EXPECT_NE(err.str().find("cannot write the summary to standard output"), std::string::npos) << err.str();
}

TEST_F(Cli, AnOutputMayNotBeTheSceneOrTheOtherOutput) {
  const std::string scene = writeScene("pendulum.json", readFile(kPendulum));
  Result r = tinkertoy({"run", scene, "--duration", "0.1", "--summary", scene});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--summary: '" + scene + "' is the input itself"), std::string::npos) << r.err;
  EXPECT_EQ(readFile(scene), readFile(kPendulum)) << "the scene is untouched";

  r = tinkertoy({"run", scene, "--duration", "0.1", "--trajectory", scene});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_EQ(readFile(scene), readFile(kPendulum));

  const std::string both = file("out.txt");
  r = tinkertoy({"run", scene, "--duration", "0.1", "--summary", both, "--trajectory", dir_.string() + "/./out.txt"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("is where another output goes"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(both));
}

// Written aside and moved into place: a run that blows up leaves an earlier summary as it was,
// and a run that completes leaves no temporary file behind.
TEST_F(Cli, OutputsLandWholeOrNotAtAll) {
  const std::string summary = file("s.json");
  std::ofstream(summary) << "the summary of an earlier run\n";
  const std::string stiff = writeScene("stiff.json", kBlowUpScene);
  EXPECT_EQ(tinkertoy({"run", stiff, "--summary", summary}).code, kBlowUp);
  EXPECT_EQ(readFile(summary), "the summary of an earlier run\n");

  const Result r = tinkertoy({"run", kPendulum, "--duration", "0.1", "--summary", summary, "--trajectory", file("t.csv")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(readJson(summary).contains("energy_error_max"));
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    ++files;
    EXPECT_NE(entry.path().filename().string().front(), '.') << "a temporary file is left: " << entry.path();
  }
  EXPECT_EQ(files, 3) << "stiff.json, s.json and t.csv";
}

// A name or an id holding terminal escape codes is printed with the codes shown as \x1b, in the
// summary on stdout and in an error on stderr; the progress bar's own codes still work.
TEST_F(Cli, ControlCharactersInNamesAreShownNotObeyed) {
  const std::string named = writeScene("evil.json", R"({"name": "evil\u001b[31m red\u0007",
    "particles": [{"id": "a\u001b[2J", "mass": 1, "position": [0, 0]}]})");
  Result r = tinkertoy({"run", named, "--duration", "0.01"}, true);
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("evil\\x1b[31m red\\x07:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_NE(r.err.find("\r\x1b[K"), std::string::npos) << "the progress bar is drawn and erased";

  const std::string dangling = writeScene("dangling.json", R"({"particles": [{"id": "a", "mass": 1, "position": [0, 0]}],
    "constraints": [{"type": "fixed", "particle": "b\u001b[2J"}]})");
  r = tinkertoy({"run", dangling});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("'b\\x1b[2J'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
}

// No output holds nan or inf (issue #16, class 3). Finite inputs whose motion overflows within a
// step (gravity of 1e300, drag of 1e300 on a fast particle, a spring of 1e300 N/m) blow up at
// step 1: exit 3, the trajectory keeps step 0 only, in finite numbers, and no summary is written.
// Coordinates of 1e150 m give check's audit nothing to resolve: finite numbers, "cannot audit".
TEST_F(Cli, NoOutputHoldsANonFiniteNumber) {
  const auto finite = [](const std::string& text) {
    for (const char* word : {"nan", "inf", "NaN", "Inf"}) {
      if (text.find(word) != std::string::npos) return false;
    }
    return true;
  };
  const std::string particle = R"("particles": [{"id": "a", "mass": 1, "position": [0, 0], "velocity": [1e100, 0]},
                                                {"id": "b", "mass": 1, "position": [1, 0]}], "settings": {"duration": 0.01})";
  for (const std::string& extra : {std::string(R"("gravity": [0, -1e300])"),
                                   std::string(R"("forces": [{"type": "drag", "coefficient": 1e300}])"),
                                   std::string(R"("forces": [{"type": "spring", "a": "a", "b": "b", "stiffness": 1e300}])")}) {
    const std::string scene = writeScene("overflow.json", "{" + extra + ", " + particle + "}");
    const Result r = tinkertoy({"run", scene, "--trajectory", file("t.csv"), "--summary", file("s.json")});
    EXPECT_EQ(r.code, kBlowUp) << extra << r.err;
    EXPECT_NE(r.err.find("blew up at step 1"), std::string::npos) << r.err;
    const std::string trajectory = readFile(file("t.csv"));
    EXPECT_EQ(std::count(trajectory.begin(), trajectory.end(), '\n'), 2) << "the header and step 0:\n" << trajectory;
    EXPECT_TRUE(finite(trajectory)) << extra << "\n" << trajectory;
    EXPECT_TRUE(finite(r.out + r.err)) << r.out << r.err;
    EXPECT_FALSE(fs::exists(file("s.json")));
  }
  const std::string far = writeScene("far.json", R"({"gravity": [0, 0],
      "particles": [{"id": "a", "mass": 1, "position": [1e150, 0]}, {"id": "b", "mass": 1, "position": [1e150, 1e149]}],
      "constraints": [{"type": "distance", "a": "a", "b": "b"}]})");
  const Result check = tinkertoy({"check", far});
  EXPECT_EQ(check.code, kSuccess) << check.out << check.err;
  EXPECT_TRUE(finite(check.out + check.err)) << check.out << check.err;
  EXPECT_NE(check.out.find("cannot audit"), std::string::npos) << check.out;
}

}  // namespace
}  // namespace tinkertoy::cli
