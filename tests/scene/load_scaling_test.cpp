// Loading is linear in the scene's size (issue #16, class 2). It was quadratic: every reference
// to a body by id searched the bodies one by one, and every body added laid out the whole state
// again. The test loads scenes of N and 8N particles and rods (bench/pendulum_row_scene.hpp) within
// one run and compares their CPU times: a linear loader takes about 8 times as long for the
// larger, a quadratic one about 64 times. The times themselves are in bench/RESULTS.md.
#include <gtest/gtest.h>
#include <time.h>

#include <algorithm>
#include <string>

#include "pendulum_row_scene.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

double threadSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The least CPU time of three loads of the same text: the others were slowed by something else.
double loadSeconds(const std::string& text, std::size_t expectedBodies) {
  double best = 1e300;
  for (int run = 0; run < 3; ++run) {
    const double start = threadSeconds();
    const Scene scene = parseScene(text);
    best = std::min(best, threadSeconds() - start);
    EXPECT_EQ(scene.model.bodyCount(), expectedBodies);
    EXPECT_EQ(scene.model.constraintCount(), expectedBodies);
  }
  return best;
}

TEST(LoadScaling, EightTimesTheBodiesTakeAboutEightTimesAsLong) {
  constexpr int small = 5000;
  const double smallSeconds = loadSeconds(bench::pendulumRowSceneText(small), small);
  const double largeSeconds = loadSeconds(bench::pendulumRowSceneText(8 * small), 8 * small);
  const double ratio = largeSeconds / smallSeconds;
  // Linear: 8, with room for the larger scene's cache misses; n log n would give 9.9; quadratic 64.
  EXPECT_LT(ratio, 16.0) << small << " bodies: " << smallSeconds << " s; " << 8 * small << " bodies: " << largeSeconds << " s";
}

}  // namespace
}  // namespace tinkertoy
