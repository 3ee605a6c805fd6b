// collide: the contact manifold of two convex shapes at their placements (collision/manifold.hpp).
//
//   const Manifold m = collide(convexOf(ball), Placement::of(0, 0.45, 0), convexOf(floor),
//                              Placement::of(0, 0, 0), 0.02);
//   // m.count == 1, m.normal ≈ (0, −1), m.points[0].separation ≈ −0.05
//
// One routine per pair of kinds, each with its geometry derived in its file: two circles
// (collide_circles.cpp), a polygon, capsule or segment and a circle (collide_polygon_circle.cpp),
// two of those (collide_polygons.cpp).
#pragma once

#include "tinkertoy/collision/convex.hpp"
#include "tinkertoy/collision/manifold.hpp"

namespace tinkertoy {

// The points of A and B whose separation is at most `speculative` (≥ 0, m); the normal points
// from A toward B.
[[nodiscard]] Manifold collide(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb,
                               double speculative);

}  // namespace tinkertoy
