// A polygon, capsule or segment A (core vertices v_i, outward edge normals n_i, radius r_A) and a
// circle B (center c, radius r_B), worked in A's frame, where the center is c'.
//
// The circle's center is outside A's core, or inside it. Either way the edge that separates most,
//
//   i* = argmax_i s_i,   s_i = n_i · (c' − v_i),
//
// decides: s_i is the signed distance from c' to the line of edge i, and for a convex core the
// largest of them is a lower bound of the distance from c' to the core, equal to it when c' is
// inside (then −s_i* is the depth) or in front of edge i* (its projection falls on the edge).
// So s_i* − r_A − r_B > speculative means the shapes are farther apart than that: no point.
//
// Outside (s_i* > 0), the closest feature of the core is edge i* = [v1, v2] unless c' projects
// beyond one of its ends: (c' − v1)·(v2 − v1) < 0 puts it in v1's region, (c' − v2)·(v1 − v2) < 0
// in v2's, where the distance is |c' − v| along n = (c' − v)/|c' − v| (the rounded corner of a
// polygon, the cap of a capsule). On the face, and inside, n = n_i* and the distance is s_i*.
// The surface points are x_A = (closest core point) + r_A n and x_B = c' − r_B n.
//
// A capsule's or segment's core has no area: a center on its line beyond an end has s = 0 on both
// "edges", which would miss the cap. There the closest core point is the segment's point nearest
// c', q = v1 + f (v2 − v1) with f = clamp((c' − v1)·(v2 − v1) / |v2 − v1|², 0, 1), and n is
// (c' − q)/|c' − q|, or the edge normal if c' lies on the segment.
//
// One point. Its id is the feature of A: the edge index, or 0x100 + the vertex index.
#include <algorithm>
#include <limits>

#include "collision/narrowphase.hpp"

namespace tinkertoy::narrowphase {

namespace {

// A capsule or segment A and a circle of `radius` whose center is c in A's frame.
Manifold segmentAndCircle(const Convex& a, const Placement& xa, const Eigen::Vector2d& c, double radius,
                          double speculative) {
  const Eigen::Vector2d& v1 = a.vertices[0];
  const Eigen::Vector2d d = a.vertices[1] - v1;
  const double f = std::clamp((c - v1).dot(d) / d.squaredNorm(), 0.0, 1.0);
  const Eigen::Vector2d closest = v1 + f * d;
  const Eigen::Vector2d gap = c - closest;
  const double length = gap.norm();
  Manifold m;
  if (length - a.radius - radius > speculative) return m;
  const Eigen::Vector2d normal = length > 0.0 ? Eigen::Vector2d(gap / length) : a.normals[0];
  const std::uint32_t id = f == 0.0 ? 0x100U : (f == 1.0 ? 0x101U : 0U);
  m.normal = xa.rotate(normal);
  m.points[0] = midway(xa.apply(closest + a.radius * normal), xa.apply(c - radius * normal), m.normal, id);
  m.count = 1;
  return m;
}

}  // namespace

Manifold polygonAndCircle(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb,
                          double speculative) {
  const Eigen::Vector2d c = xa.applyInverse(xb.apply(b.vertices[0]));
  const double radius = a.radius + b.radius;
  int edge = 0;
  double separation = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < a.count; ++i) {
    const double s = a.normals[i].dot(c - a.vertices[i]);
    if (s > separation) separation = s, edge = i;
  }
  Manifold m;
  if (separation - radius > speculative) return m;
  if (a.count == 2) return segmentAndCircle(a, xa, c, b.radius, speculative);

  const Eigen::Vector2d& v1 = a.vertices[edge];
  const Eigen::Vector2d& v2 = a.vertices[(edge + 1) % a.count];
  Eigen::Vector2d normal = a.normals[edge];
  Eigen::Vector2d closest = c - separation * normal;  // on the face's line
  std::uint32_t id = static_cast<std::uint32_t>(edge);
  if (separation > 0.0) {
    const int corner = (c - v1).dot(v2 - v1) < 0.0 ? edge : ((c - v2).dot(v1 - v2) < 0.0 ? (edge + 1) % a.count : -1);
    if (corner >= 0) {
      closest = a.vertices[corner];
      const Eigen::Vector2d d = c - closest;
      const double length = d.norm();
      if (length - radius > speculative) return m;
      normal = d / length;  // > 0: c' is outside the core
      id = 0x100U + static_cast<std::uint32_t>(corner);
    }
  }
  m.normal = xa.rotate(normal);
  m.points[0] = midway(xa.apply(closest + a.radius * normal), xa.apply(c - b.radius * normal), m.normal, id);
  m.count = 1;
  return m;
}

}  // namespace tinkertoy::narrowphase
