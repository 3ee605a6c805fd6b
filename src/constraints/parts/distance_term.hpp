// Distance term: s = |x_a − x_b|, the length part of distance_part.hpp as a term, for the
// distance joint's rigid, spring, minimum and maximum rows and for the pulley (a sum of two).
#pragma once

#include "constraints/parts/distance_part.hpp"
#include "constraints/parts/scalar_term.hpp"

namespace tinkertoy::detail {

inline ScalarTerm distanceTerm(const JointEnd& a, const JointEnd& b) {
  const DistanceRow row = evaluateDistance(a.position, a.velocity, b.position, b.velocity, 0.0);
  ScalarTerm t;
  t.value = row.C;
  t.rate = row.Cdot;
  Eigen::Vector4d g, gDot;
  g << row.gradient, 0.0;
  gDot << row.gradientDot, 0.0;
  t.add(a, g, gDot);
  t.add(b, -g, -gDot);
  return t;
}

}  // namespace tinkertoy::detail
