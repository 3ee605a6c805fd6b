// Angle term: the angle of end a's frame relative to end b's, with a gear ratio r:
//
//   s = φ_a − r φ_b,   ṡ = φ̇_a − r φ̇_b,   ∂s/∂φ_a = 1,  ∂s/∂φ_b = −r,   gradients constant
//
// r = 1 is a relative angle (a weld's third row, a revolute's limits and motor); a world end
// has φ = 0, so s is then the angle of a alone.
#pragma once

#include "constraints/parts/scalar_term.hpp"

namespace tinkertoy::detail {

inline ScalarTerm angleTerm(const JointEnd& a, const JointEnd& b, double ratio = 1.0) {
  ScalarTerm t;
  t.value = a.angle - ratio * b.angle;
  t.rate = a.angularVelocity - ratio * b.angularVelocity;
  t.add(a, Eigen::Vector4d(0, 0, 0, 1.0), Eigen::Vector4d::Zero());
  t.add(b, Eigen::Vector4d(0, 0, 0, -ratio), Eigen::Vector4d::Zero());
  return t;
}

}  // namespace tinkertoy::detail
