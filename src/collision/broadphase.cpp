// Broadphase: the fat-box pairs kept between updates, requeried only for the leaves that moved
// (broadphase.hpp).
#include "tinkertoy/collision/broadphase.hpp"

#include <algorithm>

namespace tinkertoy {

void Broadphase::update(std::span<const Aabb> boxes) {
  const auto count = static_cast<int>(boxes.size());
  // Room for a pile's pairs from the start (a shape in a pile touches a few others), so that the
  // step rarely has to grow it; what it grows to is kept.
  if (pairs_.capacity() < 4 * boxes.size()) pairs_.reserve(4 * boxes.size());
  if (fatPairs_.capacity() < 8 * boxes.size()) fatPairs_.reserve(8 * boxes.size());
  if (merged_.capacity() < fatPairs_.capacity()) merged_.reserve(fatPairs_.capacity());
  if (found_.capacity() < boxes.size()) found_.reserve(boxes.size());
  bool changed = static_cast<int>(proxies_.size()) > count;  // shapes gone (their pairs go too), or a leaf moved
  while (static_cast<int>(proxies_.size()) > count) {
    tree_.remove(proxies_.back());
    proxies_.pop_back();
  }
  // The leaves whose fat boxes change: a new shape's, and one whose box left its fat box.
  moved_.assign(boxes.size(), 0);
  reinserted_ = 0;
  for (int i = 0; i < count; ++i) {
    if (i == static_cast<int>(proxies_.size())) {
      proxies_.push_back(tree_.insert(boxes[i].grown(margin_), i));
      moved_[static_cast<std::size_t>(i)] = 1;
      changed = true;
    } else if (!tree_.box(proxies_[i]).contains(boxes[i])) {
      tree_.remove(proxies_[i]);
      proxies_[i] = tree_.insert(boxes[i].grown(margin_), i);
      moved_[static_cast<std::size_t>(i)] = 1;
      changed = true;
      ++reinserted_;
    }
  }
  visited_ = 0;
  if (changed) {
    // The pairs of fat boxes that overlap: those of two unmoved leaves stay as they were; a moved
    // leaf's are found again by a query of its fat box (a pair of two moved leaves once, from
    // the lower index).
    const auto stale = [&](const std::pair<int, int>& p) {
      return p.second >= count || moved_[static_cast<std::size_t>(p.first)] || moved_[static_cast<std::size_t>(p.second)];
    };
    fatPairs_.erase(std::remove_if(fatPairs_.begin(), fatPairs_.end(), stale), fatPairs_.end());
    const auto kept = static_cast<std::ptrdiff_t>(fatPairs_.size());  // still sorted
    for (int i = 0; i < count; ++i) {
      if (!moved_[static_cast<std::size_t>(i)]) continue;
      found_.clear();
      visited_ += tree_.query(tree_.box(proxies_[i]), [&](int proxy) {
        const int j = tree_.user(proxy);
        if (j != i && !(moved_[static_cast<std::size_t>(j)] && j < i)) found_.push_back(j);
        return true;
      });
      for (const int j : found_) fatPairs_.emplace_back(std::min(i, j), std::max(i, j));
    }
    // The new pairs sorted among themselves, then merged with the kept ones (a sort of all of
    // them redid the kept ones' order: a turning container's walls keep thousands).
    // Merged into a buffer kept between updates (std::inplace_merge would allocate its own).
    std::sort(fatPairs_.begin() + kept, fatPairs_.end());
    merged_.resize(fatPairs_.size());
    std::merge(fatPairs_.begin(), fatPairs_.begin() + kept, fatPairs_.begin() + kept, fatPairs_.end(), merged_.begin());
    fatPairs_.swap(merged_);
  }
  // Of those, the pairs whose boxes themselves overlap, in the fat pairs' order: sorted.
  pairs_.clear();
  for (const auto& [i, j] : fatPairs_) {
    if (boxes[i].overlaps(boxes[j])) pairs_.emplace_back(i, j);
  }
}

}  // namespace tinkertoy
