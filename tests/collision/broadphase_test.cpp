// The broadphase (collision/broadphase.hpp) against every pair checked one by one, while boxes
// move, appear and disappear; the tree's invariants after each change; and the growth of its cost
// with the number of shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "tinkertoy/collision/broadphase.hpp"

namespace tinkertoy {
namespace {

std::vector<std::pair<int, int>> everyPair(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
      if (boxes[i].overlaps(boxes[j])) pairs.emplace_back(i, j);
    }
  }
  return pairs;
}

Aabb boxAt(const Eigen::Vector2d& center, double half) {
  return {center.array() - half, center.array() + half};
}

TEST(Broadphase, FindsExactlyTheOverlappingPairsWhileBoxesMove) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> where(0.0, 20.0), step(-0.05, 0.05), size(0.1, 0.6);
  std::vector<Eigen::Vector2d> centers;
  std::vector<double> halves;
  for (int i = 0; i < 400; ++i) centers.emplace_back(where(rng), where(rng)), halves.push_back(size(rng));
  Broadphase broad(0.1);
  int reinserted = 0;
  for (int frame = 0; frame < 60; ++frame) {
    // Every 10th frame a shape goes and another comes, so that indices come and go too.
    const int count = 400 - (frame % 10 == 5 ? 7 : 0);
    std::vector<Aabb> boxes;
    for (int i = 0; i < count; ++i) {
      centers[i] += Eigen::Vector2d(step(rng), step(rng)) * (i % 3 == 0 ? 10.0 : 1.0);
      boxes.push_back(boxAt(centers[i], halves[i]));
    }
    broad.update(boxes);
    ASSERT_EQ(broad.pairs(), everyPair(boxes)) << "frame " << frame;
    ASSERT_NO_THROW(broad.tree().validate());
    EXPECT_EQ(broad.tree().leafCount(), count);
    reinserted += broad.reinserted();
  }
  // The fat boxes spare the tree most updates: the slow two thirds of the shapes rarely leave theirs.
  EXPECT_LT(reinserted, 60 * 400 / 2);
  EXPECT_GT(reinserted, 0);
}

// The tree stays shallow whatever the order of insertion: boxes inserted in sorted order (the
// worst case for a tree without rotations, which would be a list) give a height near log₂ n.
TEST(Broadphase, TheTreeStaysShallow) {
  AabbTree tree;
  for (int i = 0; i < 4096; ++i) tree.insert(boxAt(Eigen::Vector2d(0.5 * i, 0.0), 0.2), i);
  tree.validate();
  EXPECT_LE(tree.height(), 2 * 12);
  std::vector<int> hits;
  tree.query(boxAt(Eigen::Vector2d(100.0, 0.0), 0.4), [&](int proxy) {
    hits.push_back(tree.user(proxy));
    return true;
  });
  std::sort(hits.begin(), hits.end());
  EXPECT_EQ(hits, (std::vector<int>{199, 200, 201}));
}

// Shapes of similar size spread at a fixed density: the tree nodes a shape's query visits grow like
// log n, not like a power of n. From 1000 to 64 000 shapes they grow about 3× (54 to 163 on this
// seed, with the tree's height from 12 to 19); √n would be 8×, n 64×.
TEST(Broadphase, CostPerShapeGrowsLikeALogarithm) {
  const auto perShape = [](int count) {
    std::mt19937 rng(11);
    const double side = std::sqrt(static_cast<double>(count));  // one shape per square metre
    std::uniform_real_distribution<double> where(0.0, side);
    std::vector<Aabb> boxes;
    for (int i = 0; i < count; ++i) boxes.push_back(boxAt(Eigen::Vector2d(where(rng), where(rng)), 0.3));
    Broadphase broad(0.05);
    broad.update(boxes);
    return static_cast<double>(broad.visited()) / count;
  };
  const double small = perShape(1000), large = perShape(64000);
  EXPECT_LT(large, 4.0 * small) << small << " nodes per shape for 1000 shapes, " << large << " for 64 000";
}

}  // namespace
}  // namespace tinkertoy
