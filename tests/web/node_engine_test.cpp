// The engine compiled to WebAssembly (`make web`, build/web/tinkertoy-node.js, run by node)
// against the native build: the same scene, the same steps, the same state — to the bit where
// nothing but arithmetic happens, to round-off where the libm differs (wasm's is musl's: sin,
// cos, atan2 of rigid bodies' angles) and contacts or chaos amplify it. Skipped, saying so, when
// there is no browser build.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

namespace fs = std::filesystem;

// The numbers node printed, one a line, and its exit status.
std::pair<std::vector<double>, int> runNode(const fs::path& js, const fs::path& scene, int steps) {
  const std::string command = "NODE_PATH=/usr/share/nodejs node --no-experimental-fetch '" + js.string() + "' '" +
                              scene.string() + "' " + std::to_string(steps) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::vector<double> numbers;
  char line[128];
  while (pipe && std::fgets(line, sizeof line, pipe)) numbers.push_back(std::strtod(line, nullptr));
  const int status = pipe ? pclose(pipe) : -1;
  return {numbers, status};
}

TEST(WebEngine, StepsTheShippedScenesAsTheNativeBuildDoes) {
  const fs::path root(TINKERTOY_SOURCE_DIR);
  const fs::path js = root / "build" / "web" / "tinkertoy-node.js";
  if (!fs::exists(js)) GTEST_SKIP() << "no browser build: `make web` makes " << js;
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed (make web installs it)";
  // A browser build older than the code it links is not the engine under test. Only C++ files
  // count: a build file that changes something relinks the program anyway.
  fs::path newest;
  const auto consider = [&newest](const fs::path& file) {
    const std::string extension = file.extension().string();
    if (extension != ".cpp" && extension != ".hpp" && extension != ".h") return;
    if (newest.empty() || fs::last_write_time(file) > fs::last_write_time(newest)) newest = file;
  };
  for (const char* dir : {"src", "include"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      if (entry.is_regular_file()) consider(entry.path());
    }
  }
  for (const char* file : {"node_run.cpp", "eigen_blas.cpp", "eigen_blas.hpp", "fortran_blas.cpp"}) {
    consider(root / "apps" / "web" / file);
  }
  if (fs::last_write_time(js) < fs::last_write_time(newest)) {
    GTEST_SKIP() << "the browser build is older than " << newest << ": `make web` again";
  }
  struct Case {
    const char* scene;
    double tolerance;  // the largest difference in q and v after 120 steps; 0: the same bits
  };
  for (const Case& c : {Case{"pendulum", 0.0}, Case{"chain", 0.0}, Case{"pyramid", 0.0}, Case{"billiards", 0.0},
                        Case{"showcase", 1e-12}, Case{"cloth", 1e-12}, Case{"four_bar", 1e-12}, Case{"car", 1e-12},
                        Case{"contacts", 1e-9}, Case{"strandbeest_walking", 1e-6}}) {
    SCOPED_TRACE(c.scene);
    const fs::path file = root / "scenes" / (std::string(c.scene) + ".json");
    const auto [web, status] = runNode(js, file, 120);
    ASSERT_EQ(status, 0);
    Scene scene = loadScene(file);
    Simulator simulator(scene.model, scene.settings);
    for (int k = 0; k < 120; ++k) simulator.step();
    std::vector<double> native(scene.model.q().begin(), scene.model.q().end());
    native.insert(native.end(), scene.model.v().begin(), scene.model.v().end());
    ASSERT_EQ(web.size(), native.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < native.size(); ++i) worst = std::max(worst, std::abs(web[i] - native[i]));
    if (c.tolerance == 0.0) {
      EXPECT_EQ(web, native) << "differs by up to " << worst;
    } else {
      EXPECT_LE(worst, c.tolerance);
    }
  }
}

}  // namespace
}  // namespace tinkertoy
