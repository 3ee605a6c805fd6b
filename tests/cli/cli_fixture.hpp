// What the command-line tests share: running `tinkertoy` in-process, a scratch directory per
// test, and environment variables set for a scope.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "support/scratch_directory.hpp"

namespace tinkertoy::cli {

namespace fs = std::filesystem;
inline const std::string kScenes = std::string(TINKERTOY_SOURCE_DIR) + "/scenes/";

// A spring of 1e9 N/m under explicit Euler at dt = 0.01 s: it grows without bound, so every
// command that simulates it blows up within a few steps.
inline const std::string kBlowUpScene = R"({
    "particles": [{"id": "a", "mass": 1, "position": [0, 0]}, {"id": "b", "mass": 1, "position": [1.1, 0]}],
    "forces": [{"type": "spring", "a": "a", "b": "b", "stiffness": 1e9, "rest_length": 1}],
    "constraints": [{"type": "line", "particle": "a", "direction": [1, 0]}],
    "settings": {"dt": 0.01, "duration": 100, "integrator": "euler"}})";

struct Result {
  int code;
  std::string out, err;
};

// errIsTerminal: run as if stderr were a terminal (progress bars are drawn).
inline Result tinkertoy(const std::vector<std::string>& args, bool errIsTerminal = false) {
  std::ostringstream out, err;
  const int code = run(args, out, err, errIsTerminal);
  return {code, out.str(), err.str()};
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Sets an environment variable (PATH, to hide or fake ffmpeg and gnuplot) for a scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A scratch directory of the test's own (unique, removed at its end).
class Cli : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::string writeScene(const std::string& name, const std::string& json) const {
    std::ofstream(file(name)) << json;
    return file(name);
  }
  // Runs `tinkertoy args` with nothing on PATH but the directory bin/ of the scratch directory,
  // holding `program` (ffmpeg, gnuplot) as the shell script `script`, or, with an empty
  // script, not at all.
  Result withFakeProgram(const std::string& program, const std::string& script, const std::vector<std::string>& args) {
    const fs::path bin = dir_ / "bin";
    fs::create_directories(bin);
    fs::remove(bin / program);
    if (!script.empty()) {
      std::ofstream(bin / program) << script;
      fs::permissions(bin / program, fs::perms::owner_all);
    }
    const ScopedEnv path("PATH", bin.string());
    return tinkertoy(args);
  }
  // The names in the scratch directory, hidden ones (".x.partial") included.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    return names;
  }
  testing_support::ScratchDirectory scratch_;
  const fs::path& dir_ = scratch_.path();
};

}  // namespace tinkertoy::cli
