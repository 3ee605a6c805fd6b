// The narrowphase routines behind collide() (collision/collide.hpp); each in its own file with
// its derivation. All take the shapes in their body frames with their placements, and give the
// manifold in world coordinates with the normal from the first shape toward the second.
#pragma once

#include "tinkertoy/collision/convex.hpp"
#include "tinkertoy/collision/manifold.hpp"

namespace tinkertoy::narrowphase {

// a and b have one vertex each.
Manifold circles(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb, double speculative);
// a has 2 or more vertices, b one.
Manifold polygonAndCircle(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb, double speculative);
// a and b have 2 or more vertices each.
Manifold polygons(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb, double speculative);

// A point midway between a surface point of A and one of B along n, with its separation:
// x_A = surface of A, x_B = surface of B.
inline ContactPoint midway(const Eigen::Vector2d& onA, const Eigen::Vector2d& onB, const Eigen::Vector2d& n,
                           std::uint32_t id) {
  return {.point = 0.5 * (onA + onB), .separation = (onB - onA).dot(n), .id = id};
}

}  // namespace tinkertoy::narrowphase
