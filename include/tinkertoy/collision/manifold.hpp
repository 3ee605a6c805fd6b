// Manifold: where two shapes touch, or nearly do, as the contact rows need it.
//
// The normal n is a unit vector from shape A toward shape B, the same for every point. Each point
// has its world position, midway between the two surfaces, and its separation
//
//   s = (x_B − x_A) · n,
//
// where x_A and x_B are the points of A's and B's surfaces it joins: s < 0 is a penetration of
// depth −s, s > 0 a gap. A point is reported while s is at most the caller's speculative distance,
// so that a contact row can stop an approach before it becomes a penetration. In 2D two shapes
// touch at one point (a corner, a circle) or along a segment, whose two ends are the points.
//
// `id` names the pair of features (vertices, edges) a point comes from, so that the solver can
// give a point the impulse it had at the previous step, as Box2D's manifold ids do.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>

namespace tinkertoy {

struct ContactPoint {
  Eigen::Vector2d point = Eigen::Vector2d::Zero();  // world, m
  double separation = 0.0;                          // s, m
  std::uint32_t id = 0;                             // the features it joins
};

struct Manifold {
  Eigen::Vector2d normal = Eigen::Vector2d::UnitX();  // n, from A toward B
  std::array<ContactPoint, 2> points{};
  int count = 0;  // 0: apart by more than the speculative distance
};

}  // namespace tinkertoy
