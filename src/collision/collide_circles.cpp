// Two circles (or rounded points): centers c_A, c_B, radii r_A, r_B.
//
//   d = c_B − c_A,   ℓ = |d|,   n = d / ℓ,   s = ℓ − r_A − r_B
//
// and the surface points x_A = c_A + r_A n, x_B = c_B − r_B n, so that (x_B − x_A)·n = s. With the
// centers on top of each other n is undefined; any unit vector serves, and x̂ is taken. One point,
// with id 0.
#include "collision/narrowphase.hpp"

namespace tinkertoy::narrowphase {

Manifold circles(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb, double speculative) {
  const Eigen::Vector2d ca = xa.apply(a.vertices[0]), cb = xb.apply(b.vertices[0]);
  const Eigen::Vector2d d = cb - ca;
  const double length = d.norm();
  Manifold m;
  if (length - a.radius - b.radius > speculative) return m;
  m.normal = length > 0.0 ? Eigen::Vector2d(d / length) : Eigen::Vector2d::UnitX();
  m.points[0] = midway(ca + a.radius * m.normal, cb - b.radius * m.normal, m.normal, 0);
  m.count = 1;
  return m;
}

}  // namespace tinkertoy::narrowphase
