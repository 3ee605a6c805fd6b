#include "tinkertoy/collision/collide.hpp"

#include "collision/narrowphase.hpp"

namespace tinkertoy {

Manifold collide(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb, double speculative) {
  if (a.count == 1 && b.count == 1) return narrowphase::circles(a, xa, b, xb, speculative);
  if (b.count == 1) return narrowphase::polygonAndCircle(a, xa, b, xb, speculative);
  if (a.count > 1) return narrowphase::polygons(a, xa, b, xb, speculative);
  // A circle and a polygon: the polygon's manifold, its normal turned to point from a to b.
  Manifold m = narrowphase::polygonAndCircle(b, xb, a, xa, speculative);
  m.normal = -m.normal;
  return m;
}

}  // namespace tinkertoy
