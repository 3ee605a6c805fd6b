// Broadphase: which pairs of shapes are near enough to need the narrowphase.
//
// Each shape gives a box each step (its bounds grown by half the speculative distance, say); the
// pairs are exactly those whose boxes overlap, sorted, whatever happened before. An AabbTree finds
// them: each shape has a leaf whose fat box is its box grown by `margin`, and keeps it while its
// box stays inside, so a shape that barely moves costs no tree update. The pairs of overlapping
// fat boxes are kept from one update to the next: only a leaf that was reinserted (or is new) is
// queried again (about log n nodes), so a pile at rest costs no query at all. The fat pairs are
// then checked against the boxes themselves, which makes the result independent of when the fat
// boxes were made (every pair of overlapping boxes is a pair of overlapping fat boxes).
//
//   Broadphase broad(0.1);
//   broad.update(boxes);                        // one box per shape, by index
//   for (const auto& [i, j] : broad.pairs()) collide(shape[i], ..., shape[j], ...);
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "tinkertoy/collision/aabb_tree.hpp"

namespace tinkertoy {

class Broadphase {
 public:
  // margin ≥ 0 (m): how far a shape may move before its leaf is reinserted.
  explicit Broadphase(double margin) : margin_(margin) {}

  // The shapes' boxes, by index: a new index is added, a missing one removed.
  void update(std::span<const Aabb> boxes);
  // The pairs (i, j), i < j, of shapes whose boxes overlap, sorted by i, then j.
  [[nodiscard]] const std::vector<std::pair<int, int>>& pairs() const { return pairs_; }

  // For tests: how many leaves the last update reinserted, and how many tree nodes its queries
  // visited (none when no leaf moved).
  [[nodiscard]] int reinserted() const { return reinserted_; }
  [[nodiscard]] long visited() const { return visited_; }
  [[nodiscard]] const AabbTree& tree() const { return tree_; }

 private:
  double margin_;
  AabbTree tree_;
  std::vector<int> proxies_;  // by shape index
  std::vector<std::pair<int, int>> pairs_;
  std::vector<std::pair<int, int>> fatPairs_;  // (i, j), i < j, whose fat boxes overlap, sorted
  std::vector<std::pair<int, int>> merged_;    // scratch: the kept pairs merged with the new ones
  std::vector<char> moved_;                    // by shape index: its leaf changed in this update
  std::vector<int> found_;                     // one query's partners, scratch
  int reinserted_ = 0;
  long visited_ = 0;
};

}  // namespace tinkertoy
