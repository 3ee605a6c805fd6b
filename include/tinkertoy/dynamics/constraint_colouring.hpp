// ConstraintColouring: an order of a system's constraints in colours, such that no two
// constraints of one colour share a body that moves (Box2D v3's graph colouring). The
// sequential passes visit the colours one after another; within a colour the constraints touch
// disjoint velocities, so they may be solved in any order, or at once on several threads, with
// the same result to the bit.
//
// The colouring is greedy, constraint by constraint in the system's order: each takes the
// lowest colour that none of its bodies has yet. A chain alternates two colours, a grid of pins
// takes four. Constraints that would need more than kMostColours colours (a body in more than
// 63 constraints: a hub) go to a last colour that is solved in order on one thread.
//
//   ConstraintColouring colours;
//   colours.build(system);
//   for (std::size_t c = 0; c < colours.count(); ++c)
//     for (std::size_t k : colours.members(c)) solve(k);   // any order, or shared among threads
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"

namespace tinkertoy {

class ConstraintColouring {
 public:
  static constexpr std::size_t kMostColours = 63;  // and the overflow colour after them

  void build(const ConstraintSystem& system);

  // The colours in use, the overflow one (if used) last.
  [[nodiscard]] std::size_t count() const { return starts_.size() - 1; }
  // The constraints of colour c (dense indices), in the system's order.
  [[nodiscard]] std::span<const std::size_t> members(std::size_t c) const {
    return {order_.data() + starts_[c], starts_[c + 1] - starts_[c]};
  }
  // Whether colour c is the overflow colour, whose constraints may share bodies.
  [[nodiscard]] bool isOverflow(std::size_t c) const { return overflow_ && c + 1 == count(); }
  // Every constraint, colour by colour.
  [[nodiscard]] std::span<const std::size_t> order() const { return order_; }

 private:
  std::vector<std::size_t> order_;
  std::vector<std::size_t> starts_{0};
  bool overflow_ = false;
};

}  // namespace tinkertoy
