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
// The same greedy colouring orders any items that touch bodies (the contact manifolds of a
// substep, ContactSolver): build(items, columns, columnsOf) takes, for each item, the first
// columns of the bodies it moves. It allocates only when the items outgrow what it held before.
//
//   ConstraintColouring colours;
//   colours.build(system);
//   for (std::size_t c = 0; c < colours.count(); ++c)
//     for (std::size_t k : colours.members(c)) solve(k);   // any order, or shared among threads
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"

namespace tinkertoy {

class ConstraintColouring {
 public:
  static constexpr std::size_t kMostColours = 63;  // and the overflow colour after them

  void build(const ConstraintSystem& system);
  // `items` items among bodies whose first columns are below `columns`, item k touching the
  // bodies of the first columns columnsOf(k) returns (a range of Eigen::Index; leave out bodies
  // nothing moves, which need no colour of their own).
  template <class ColumnsOf>
  void build(std::size_t items, std::size_t columns, ColumnsOf&& columnsOf) {
    begin(items, columns);
    for (std::size_t k = 0; k < items; ++k) {
      std::uint64_t used = 0;
      for (const Eigen::Index column : columnsOf(k)) used |= taken_[static_cast<std::size_t>(column)];
      const std::size_t colour = take(k, used);
      if (colour == kMostColours) continue;
      for (const Eigen::Index column : columnsOf(k)) taken_[static_cast<std::size_t>(column)] |= std::uint64_t{1} << colour;
    }
    finish(items);
  }

  // Room for `items` items among `columns` columns, so that building them allocates nothing.
  void reserve(std::size_t items, std::size_t columns);

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
  // The colouring's three stages: scratch sized and cleared; item k given the lowest colour not
  // in `used` (or the overflow colour), which take returns; the order laid out colour by colour.
  void begin(std::size_t items, std::size_t columns);
  std::size_t take(std::size_t k, std::uint64_t used);
  void finish(std::size_t items);

  std::vector<std::size_t> order_;
  std::vector<std::size_t> starts_{0};
  bool overflow_ = false;
  // Scratch: the colours each body's items took so far (one bit each, by its first column), each
  // item's colour, the colours' sizes and where each colour's next item goes in order_.
  std::vector<std::uint64_t> taken_;
  std::vector<std::size_t> colour_, sizes_, next_;
};

}  // namespace tinkertoy
