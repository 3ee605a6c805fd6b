// The browser build's stand-in for glibc's rand() (apps/web/glibc_rand.hpp), which METIS draws
// from, against glibc's own: the same numbers for seeds that start the state in each way (0, a
// small seed, METIS's 4321, seeds at and past 2³¹, the largest).
#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>

#include "glibc_rand.hpp"

namespace {

TEST(GlibcRand, DrawsGlibcsSequence) {
  for (const unsigned seed : {0u, 1u, 4321u, 2147483647u, 2147483648u, 3000000000u, UINT_MAX}) {
    std::srand(seed);
    glibc_srand(seed);
    for (int k = 0; k < 20000; ++k) {
      const int expected = std::rand();
      ASSERT_EQ(glibc_rand(), expected) << "seed " << seed << ", draw " << k;
    }
  }
}

TEST(GlibcRand, ASecondSeedStartsAgain) {
  glibc_srand(7);
  const int first = glibc_rand();
  for (int k = 0; k < 100; ++k) glibc_rand();
  glibc_srand(7);
  EXPECT_EQ(glibc_rand(), first);
}

}  // namespace
