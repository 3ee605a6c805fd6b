// Out of memory, every command ends with a message (issue #16, class 1): never std::bad_alloc
// through main, std::terminate or a hang. Each command runs as its own process under a range of
// address-space limits (`ulimit -v`, 70 MB to 250 MB in steps of 10 MB) on a scene of 20 000
// particles and rods: the small limits run out at every stage (starting, loading, building the
// simulator, stepping, drawing), the large ones let it finish. Each run exits 0, or 5 saying "out
// of memory", and leaves no partial output behind. Before the fix the same runs aborted (a
// destructor of the JSON document allocated while the stack unwound).
//
// OpenBLAS is kept to one thread (OPENBLAS_NUM_THREADS=1): its worker threads allocate their
// buffers when they start, at a moment that varies, so the address space left would vary from run
// to run. (What OpenBLAS's threads do short of memory is main.cpp's concern: it ends with _Exit.)
//
// The address space is what AddressSanitizer reserves in terabytes: under it the test is skipped.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "pendulum_row_scene.hpp"
#include "support/scratch_directory.hpp"

namespace tinkertoy::cli {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int code = -1;     // the exit code, or -1 when it did not exit
  int signal = 0;    // the signal that ended it, if one did
  std::string err;
};

// `tinkertoy args` with the address space limited to `kilobytes`, stopped after 120 s.
Outcome runLimited(long kilobytes, const std::vector<std::string>& args, const fs::path& scratch) {
  std::ostringstream command;
  command << "ulimit -v " << kilobytes << "; OPENBLAS_NUM_THREADS=1 exec timeout 120 '" << TINKERTOY_CLI << "'";
  for (const std::string& a : args) command << " '" << a << "'";
  command << " > /dev/null 2> '" << (scratch / "err.txt").string() << "'";
  const int status = std::system(command.str().c_str());
  Outcome outcome;
  if (WIFEXITED(status)) outcome.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  std::ifstream in(scratch / "err.txt");
  outcome.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return outcome;
}

TEST(MemoryLimits, EveryCommandEndsWithAMessageWhenMemoryRunsOut) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than any limit here";
#endif
  const testing_support::ScratchDirectory scratch;
  const fs::path scene = scratch.path() / "row.json";
  std::ofstream(scene) << bench::pendulumRowSceneText(20000);
  const fs::path outputs = scratch.path() / "out";
  fs::create_directory(outputs);
  const std::vector<std::vector<std::string>> commands = {
      {"run", scene.string(), "--summary", (outputs / "s.json").string()},
      {"check", scene.string()},
      {"render", scene.string(), "-o", (outputs / "x.png").string()},
      {"plot", scene.string(), "-o", (outputs / "x.svg").string()},
  };
  for (const std::vector<std::string>& args : commands) {
    int ranOut = 0, finished = 0;
    for (long limit = 70'000; limit <= 250'000; limit += 10'000) {
      fs::remove_all(outputs);
      fs::create_directory(outputs);
      const Outcome o = runLimited(limit, args, scratch.path());
      const std::string what = args[0] + " under ulimit -v " + std::to_string(limit) + ": ";
      EXPECT_EQ(o.signal, 0) << what << "ended by signal " << o.signal << "\n" << o.err;
      if (o.code == 127 && o.err.find("error while loading shared libraries") != std::string::npos) {
        continue;  // too little to start the program at all: the dynamic loader's message, not ours
      }
      if (o.code == kResourceFailure) {
        ++ranOut;
        EXPECT_NE(o.err.find("error: out of memory"), std::string::npos) << what << o.err;
        EXPECT_TRUE(fs::is_empty(outputs)) << what << "left a partial output";
      } else {
        ++finished;
        EXPECT_EQ(o.code, kSuccess) << what << o.err;
      }
    }
    EXPECT_GT(ranOut, 0) << args[0] << " never ran out of memory: the limits are too generous to test anything";
    EXPECT_GT(finished, 0) << args[0] << " never finished: the limits are too tight";
  }
}

}  // namespace
}  // namespace tinkertoy::cli
