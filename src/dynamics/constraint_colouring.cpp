#include "tinkertoy/dynamics/constraint_colouring.hpp"

#include <bit>
#include <cstdint>

namespace tinkertoy {

void ConstraintColouring::build(const ConstraintSystem& system) {
  const std::size_t constraints = system.constraintCount();
  // The colours each body's constraints took so far, one bit each, by the body's first column.
  std::vector<std::uint64_t> taken(static_cast<std::size_t>(system.jacobian().cols()), 0);
  std::vector<std::size_t> colour(constraints, 0);
  std::vector<std::size_t> sizes(kMostColours + 1, 0);
  for (std::size_t k = 0; k < constraints; ++k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    std::uint64_t used = 0;
    for (std::size_t i = 0; i < b.count; ++i) used |= taken[static_cast<std::size_t>(b.column[i])];
    const auto free = static_cast<std::size_t>(std::countr_one(used));
    colour[k] = free < kMostColours ? free : kMostColours;
    if (colour[k] < kMostColours) {
      for (std::size_t i = 0; i < b.count; ++i) taken[static_cast<std::size_t>(b.column[i])] |= std::uint64_t{1} << free;
    }
    ++sizes[colour[k]];
  }
  overflow_ = sizes[kMostColours] > 0;
  starts_.assign(1, 0);
  std::vector<std::size_t> next(kMostColours + 1, 0);
  for (std::size_t c = 0; c <= kMostColours; ++c) {
    if (sizes[c] == 0) continue;
    next[c] = starts_.back();
    starts_.push_back(starts_.back() + sizes[c]);
  }
  order_.resize(constraints);
  for (std::size_t k = 0; k < constraints; ++k) order_[next[colour[k]]++] = k;
}

}  // namespace tinkertoy
