#include "tinkertoy/collision/broadphase.hpp"

#include <algorithm>

namespace tinkertoy {

void Broadphase::update(std::span<const Aabb> boxes) {
  const auto count = static_cast<int>(boxes.size());
  // Room for a pile's pairs from the start (a shape in a pile touches a few others), so that the
  // step rarely has to grow it; what it grows to is kept.
  if (pairs_.capacity() < 4 * boxes.size()) pairs_.reserve(4 * boxes.size());
  if (found_.capacity() < boxes.size()) found_.reserve(boxes.size());
  while (static_cast<int>(proxies_.size()) > count) {
    tree_.remove(proxies_.back());
    proxies_.pop_back();
  }
  reinserted_ = 0;
  for (int i = 0; i < count; ++i) {
    if (i == static_cast<int>(proxies_.size())) {
      proxies_.push_back(tree_.insert(boxes[i].grown(margin_), i));
    } else if (!tree_.box(proxies_[i]).contains(boxes[i])) {
      tree_.remove(proxies_[i]);
      proxies_[i] = tree_.insert(boxes[i].grown(margin_), i);
      ++reinserted_;
    }
  }
  pairs_.clear();
  visited_ = 0;
  for (int i = 0; i < count; ++i) {
    found_.clear();
    visited_ += tree_.query(boxes[i], [&](int proxy) {
      const int j = tree_.user(proxy);
      if (j > i && boxes[i].overlaps(boxes[j])) found_.push_back(j);
      return true;
    });
    std::sort(found_.begin(), found_.end());
    for (const int j : found_) pairs_.emplace_back(i, j);
  }
}

}  // namespace tinkertoy
