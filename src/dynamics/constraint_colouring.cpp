#include "tinkertoy/dynamics/constraint_colouring.hpp"

#include <bit>
#include <cstdint>

namespace tinkertoy {

void ConstraintColouring::build(const ConstraintSystem& system) {
  build(system.constraintCount(), static_cast<std::size_t>(system.jacobian().cols()), [&](std::size_t k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    return std::span<const Eigen::Index>(b.column.data(), b.count);
  });
}

void ConstraintColouring::reserve(std::size_t items, std::size_t columns) {
  taken_.reserve(columns);
  colour_.reserve(items);
  order_.reserve(items);
  sizes_.reserve(kMostColours + 1);
  next_.reserve(kMostColours + 1);
  starts_.reserve(kMostColours + 2);
}

void ConstraintColouring::begin(std::size_t items, std::size_t columns) {
  taken_.assign(columns, 0);
  colour_.assign(items, 0);
  sizes_.assign(kMostColours + 1, 0);
}

std::size_t ConstraintColouring::take(std::size_t k, std::uint64_t used) {
  const auto free = static_cast<std::size_t>(std::countr_one(used));
  colour_[k] = free < kMostColours ? free : kMostColours;
  ++sizes_[colour_[k]];
  return colour_[k];
}

void ConstraintColouring::finish(std::size_t items) {
  overflow_ = sizes_[kMostColours] > 0;
  starts_.assign(1, 0);
  next_.assign(kMostColours + 1, 0);
  for (std::size_t c = 0; c <= kMostColours; ++c) {
    if (sizes_[c] == 0) continue;
    next_[c] = starts_.back();
    starts_.push_back(starts_.back() + sizes_[c]);
  }
  order_.resize(items);
  for (std::size_t k = 0; k < items; ++k) order_[next_[colour_[k]]++] = k;
}

}  // namespace tinkertoy
