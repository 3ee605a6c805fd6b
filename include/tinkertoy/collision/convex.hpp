// Convex: the geometry the narrowphase works on, a convex polygon of 1 to kMaxConvexVertices
// vertices, rounded by a radius (a Minkowski sum with a disc of that radius):
//
//   circle     1 vertex (its center), radius r
//   capsule    2 vertices (the segment's ends), radius r
//   segment    2 vertices, radius 0 (two-sided)
//   polygon    3 to kMaxConvexVertices vertices counter-clockwise, radius 0 (a box is one)
//
// in the body's frame. Every edge i, from vertex i to vertex i + 1, has the outward unit normal
// n_i, the edge direction turned clockwise: for a segment the two "edges" are the segment each
// way, with normals ±n. One routine then collides any two of them that are not both circles
// (collide_polygons.cpp), the way Box2D v3 treats capsules as rounded two-vertex polygons.
//
//   const Convex box = convexOf(Shape::box(1.0, 0.5));
//   const Convex rod = convexCapsule(Eigen::Vector2d(-0.5, 0.0), Eigen::Vector2d(0.5, 0.0), 0.1);
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "tinkertoy/core/shape.hpp"

namespace tinkertoy {

// The most vertices a convex collision shape has (Box2D's limit too); convexOf refuses a polygon
// outline of more.
inline constexpr int kMaxConvexVertices = 8;

struct Convex {
  std::array<Eigen::Vector2d, kMaxConvexVertices> vertices{};
  std::array<Eigen::Vector2d, kMaxConvexVertices> normals{};  // normals[i]: of edge i → i + 1
  int count = 0;
  double radius = 0.0;  // m, ≥ 0
};

// The collision shape of a rigid body's outline. Throws std::invalid_argument for a polygon of
// more than kMaxConvexVertices vertices, and for a chain, which is several (convexParts).
[[nodiscard]] Convex convexOf(const Shape& shape);
// The collision shapes of an outline: a chain's links, each a segment, in order; any other
// outline's one.
[[nodiscard]] std::vector<Convex> convexParts(const Shape& shape);
// A disc of `radius` about `center`.
[[nodiscard]] Convex convexCircle(const Eigen::Vector2d& center, double radius);
// The segment from a to b (distinct) rounded by `radius` ≥ 0: a capsule, or with 0 a segment.
[[nodiscard]] Convex convexCapsule(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double radius);
// A convex polygon from its vertices counter-clockwise (3 to kMaxConvexVertices), rounded by
// `radius` ≥ 0. The caller has checked convexity (Shape::polygon does).
[[nodiscard]] Convex convexPolygon(const Eigen::Vector2d* vertices, int count, double radius = 0.0);

// A rigid placement: x ↦ R(θ) x + p, with R stored as cos θ, sin θ.
struct Placement {
  Eigen::Vector2d p = Eigen::Vector2d::Zero();
  double c = 1.0, s = 0.0;

  static Placement of(double x, double y, double angle);
  [[nodiscard]] Eigen::Vector2d rotate(const Eigen::Vector2d& v) const { return {c * v.x() - s * v.y(), s * v.x() + c * v.y()}; }
  [[nodiscard]] Eigen::Vector2d unrotate(const Eigen::Vector2d& v) const { return {c * v.x() + s * v.y(), -s * v.x() + c * v.y()}; }
  [[nodiscard]] Eigen::Vector2d apply(const Eigen::Vector2d& x) const { return rotate(x) + p; }
  [[nodiscard]] Eigen::Vector2d applyInverse(const Eigen::Vector2d& x) const { return unrotate(x - p); }
};

}  // namespace tinkertoy
