// What the command-line tests share: running `tinkertoy` in-process, a scratch directory per
// test, and a PATH without the helper programs (ffmpeg, gnuplot).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace tinkertoy::cli {

namespace fs = std::filesystem;
inline const std::string kScenes = std::string(TINKERTOY_SOURCE_DIR) + "/scenes/";

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

inline nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// A scratch directory, named after the test and removed at its end.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / "tinkertoy-cli" / test->test_suite_name() / test->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::string writeScene(const std::string& name, const std::string& json) const {
    std::ofstream(file(name)) << json;
    return file(name);
  }
  // The names in the scratch directory, hidden ones (".x.partial") included.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    return names;
  }
  fs::path dir_;
};

// Points PATH at an empty directory while it lives, so no helper program can be found.
class EmptyPath {
 public:
  explicit EmptyPath(const fs::path& emptyDir) {
    if (const char* path = std::getenv("PATH")) saved_ = path;
    fs::create_directories(emptyDir);
    ::setenv("PATH", emptyDir.c_str(), 1);
  }
  ~EmptyPath() { ::setenv("PATH", saved_.c_str(), 1); }
  EmptyPath(const EmptyPath&) = delete;
  EmptyPath& operator=(const EmptyPath&) = delete;

 private:
  std::string saved_;
};

}  // namespace tinkertoy::cli
