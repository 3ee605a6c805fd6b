// Determinism (issue #16): the same scene, settings and binary give bit-identical results across
// runs and processes. Every shipped scene runs 0.5 s twice, each time as a fresh process of the
// `tinkertoy` program, writing every step of its trajectory (17 significant digits, so every bit
// of every double); the two trajectories must be byte for byte the same. A failure prints both files' FNV-1a hashes. What can break it is in the README's
// "Determinism" section.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "support/scratch_directory.hpp"

namespace tinkertoy {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// One run as its own process; its trajectory's text.
std::string trajectoryOf(const fs::path& scene, const fs::path& scratch, const std::string& name) {
  const fs::path trajectory = scratch / (name + ".csv");
  std::ostringstream command;
  command << "'" << TINKERTOY_CLI << "' run '" << scene.string() << "' --quiet --duration 0.5 --trajectory '"
          << trajectory.string() << "' > /dev/null 2>&1";
  const int status = std::system(command.str().c_str());
  EXPECT_EQ(status, 0) << command.str();
  return contents(trajectory);
}

std::vector<fs::path> shippedScenes() {
  std::vector<fs::path> scenes;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(TINKERTOY_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() == ".json") scenes.push_back(entry.path());
  }
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

TEST(Determinism, EveryShippedSceneRunsToTheSameBitsInTwoProcesses) {
  const testing_support::ScratchDirectory scratch;
  const std::vector<fs::path> scenes = shippedScenes();
  ASSERT_GE(scenes.size(), 20u);
  for (const fs::path& scene : scenes) {
    const std::string first = trajectoryOf(scene, scratch.path(), "first");
    const std::string second = trajectoryOf(scene, scratch.path(), "second");
    EXPECT_GT(std::count(first.begin(), first.end(), '\n'), 10) << scene << ": too few steps to tell";
    EXPECT_TRUE(first == second) << scene << ": the trajectories differ; FNV-1a " << std::hex << fnv1a(first)
                                 << " against " << fnv1a(second);
  }
}

}  // namespace
}  // namespace tinkertoy
