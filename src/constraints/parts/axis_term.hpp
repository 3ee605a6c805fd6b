// Axis term: the coordinate of end a relative to end b along a unit axis n, where n is fixed
// either in the world or in the frame of end b (docs/theory.md, "Joint parts").
//
// Derivation. With d = x_a − x_b and n = R(φ_b) n₀ (a frame-fixed axis) or n = n₀ (world):
//
//   s = n·d
//   ṡ = n·ḋ + φ̇_b n⊥·d                     n⊥ = ∂n/∂φ_b = (−n_y, n_x), 0 for a world axis
//   ∂s/∂x_a = n,  ∂s/∂x_b = −n,  ∂s/∂φ_b = n⊥·d
//   d/dt ∂s/∂x_a = φ̇_b n⊥,  d/dt ∂s/∂x_b = −φ̇_b n⊥
//   d/dt ∂s/∂φ_b = ṅ⊥·d + n⊥·ḋ = −φ̇_b n·d + n⊥·ḋ        since ṅ⊥ = −φ̇_b n
//
// With the world axes x̂ and ŷ the two terms are the rows of a point-to-point (revolute)
// constraint, C = x_a − x_b; with an axis in b's frame they are a prismatic joint's rows.
#pragma once

#include "constraints/parts/scalar_term.hpp"

namespace tinkertoy::detail {

// axis: the unit axis n₀, in the world (inFrameOfB = false) or in b's frame at φ_b = 0.
inline ScalarTerm axisTerm(const JointEnd& a, const JointEnd& b, const Eigen::Vector2d& axis, bool inFrameOfB) {
  const double omega = inFrameOfB ? b.angularVelocity : 0.0;
  const double c = inFrameOfB ? std::cos(b.angle) : 1.0, s = inFrameOfB ? std::sin(b.angle) : 0.0;
  const Eigen::Vector3d n(c * axis.x() - s * axis.y(), s * axis.x() + c * axis.y(), 0.0);
  const Eigen::Vector3d nPerp(-n.y(), n.x(), 0.0);
  const Eigen::Vector3d d = a.position - b.position, dDot = a.velocity - b.velocity;
  ScalarTerm t;
  t.value = n.dot(d);
  t.rate = n.dot(dDot) + (inFrameOfB ? omega * nPerp.dot(d) : 0.0);
  Eigen::Vector4d g, gDot;
  g << n, 0.0;
  gDot << omega * nPerp, 0.0;
  t.add(a, g, gDot);
  g << -n, inFrameOfB ? nPerp.dot(d) : 0.0;
  gDot << -omega * nPerp, inFrameOfB ? -omega * n.dot(d) + nPerp.dot(dDot) : 0.0;
  t.add(b, g, gDot);
  return t;
}

}  // namespace tinkertoy::detail
