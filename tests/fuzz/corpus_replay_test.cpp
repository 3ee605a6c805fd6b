// The fuzzers' corpus, replayed on every `make test` (issue #16): each file of fuzz/corpus/ (the
// seeds, and every finding once fixed) and every shipped scene goes through the scene targets, and
// each file of fuzz/formula_corpus/ through the formula target
// (fuzz/fuzz_targets.hpp), built here with the project's own compiler. A target traps on a
// finding, so a regression ends this test with a signal naming the file last replayed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"

namespace tinkertoy::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs() {
  std::vector<fs::path> files;
  for (const char* folder : {"fuzz/corpus", "scenes"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(TINKERTOY_SOURCE_DIR) / folder)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzCorpus, EveryInputPassesBothTargets) {
  const std::vector<fs::path> files = inputs();
  ASSERT_GE(files.size(), 30u) << "the corpus or the scenes are missing";
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    SCOPED_TRACE(file.string());
    std::fprintf(stderr, "replaying %s\n", file.c_str());
    EXPECT_EQ(fuzzSceneLoader(data, bytes.size()), 0);
    EXPECT_EQ(fuzzLoadAndStep(data, bytes.size()), 0);
    EXPECT_EQ(fuzzStateRestore(data, bytes.size()), 0);
  }
}

// The formula target's corpus (fuzz/formula_corpus/): formulas good, undefined where evaluated,
// and malformed; each parses and evaluates consistently or is refused.
TEST(FuzzCorpus, EveryFormulaPassesTheFormulaTarget) {
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(TINKERTOY_SOURCE_DIR) / "fuzz" / "formula_corpus")) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    SCOPED_TRACE(entry.path().string());
    EXPECT_EQ(fuzzFormula(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0);
    ++count;
  }
  EXPECT_GE(count, 10u) << "the formula corpus is missing";
}

// The state-restore target's seeds (fuzz/corpus/state_*) are states saved by this build: a
// change of the state format makes them stale, and this test says so. With
// TINKERTOY_WRITE_STATE_SEEDS=1 it writes them afresh instead.
TEST(FuzzCorpus, TheStateSeedsAreThisBuildsStates) {
  const bool write = std::getenv("TINKERTOY_WRITE_STATE_SEEDS") != nullptr;
  for (int which = 0; which < kFuzzStateModels; ++which) {
    const std::string seed = stateSeed(which, 30);
    const fs::path file = fs::path(TINKERTOY_SOURCE_DIR) / "fuzz" / "corpus" / ("state_" + std::to_string(which));
    if (write) std::ofstream(file, std::ios::binary) << seed;
    std::ifstream in(file, std::ios::binary);
    const std::string saved{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_TRUE(saved == seed) << file << " is stale: run TINKERTOY_WRITE_STATE_SEEDS=1 " << "test_fuzz_corpus";
    EXPECT_EQ(fuzzStateRestore(reinterpret_cast<const std::uint8_t*>(seed.data()), seed.size()), 0);
  }
}

// The narrowphase target on 20 000 pseudo-random inputs (its search space is raw bytes, so a
// fixed generator stands in for a corpus): every manifold well formed and the same both ways.
TEST(FuzzCorpus, TheNarrowphaseTargetPassesOnRandomShapesAndPoses) {
  std::mt19937 rng(38);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::uint8_t> bytes(96);
  for (int i = 0; i < 20000; ++i) {
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(byte(rng));
    ASSERT_EQ(fuzzNarrowphase(bytes.data(), bytes.size()), 0);
  }
}

}  // namespace
}  // namespace tinkertoy::fuzz
