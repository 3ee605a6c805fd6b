// Aabb: an axis-aligned box, the broadphase's bound of a shape.
#pragma once

#include <Eigen/Core>

#include "tinkertoy/collision/convex.hpp"

namespace tinkertoy {

struct Aabb {
  Eigen::Vector2d lower = Eigen::Vector2d::Zero();
  Eigen::Vector2d upper = Eigen::Vector2d::Zero();

  [[nodiscard]] bool overlaps(const Aabb& other) const {
    return lower.x() <= other.upper.x() && other.lower.x() <= upper.x() && lower.y() <= other.upper.y() &&
           other.lower.y() <= upper.y();
  }
  [[nodiscard]] bool contains(const Aabb& other) const {
    return lower.x() <= other.lower.x() && lower.y() <= other.lower.y() && other.upper.x() <= upper.x() &&
           other.upper.y() <= upper.y();
  }
  [[nodiscard]] Aabb merged(const Aabb& other) const { return {lower.cwiseMin(other.lower), upper.cwiseMax(other.upper)}; }
  [[nodiscard]] Aabb grown(double margin) const {
    return {lower.array() - margin, upper.array() + margin};
  }
  // Half the perimeter: the cost the tree's insertion minimizes (a box's chance to be hit by a query).
  [[nodiscard]] double halfPerimeter() const { return (upper - lower).sum(); }
};

// The smallest box around a shape at its placement: its core's vertices, grown by its radius.
[[nodiscard]] Aabb boundsOf(const Convex& shape, const Placement& placement);

}  // namespace tinkertoy
