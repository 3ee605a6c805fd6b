// Distance term: s = |x_a − x_b|, the length part of distance_part.hpp as a term, for the
// distance joint's rigid, spring, minimum and maximum rows and for the pulley (a sum of two).
#pragma once

#include "constraints/parts/distance_part.hpp"
#include "constraints/parts/scalar_term.hpp"

namespace tinkertoy::detail {

// Writes row `row` as C = sign·(ℓ − L) − offset straight from the distance part (what writeRow
// does with distanceTerm, without assembling a term): the gradient n goes to point 0, −n to
// point 1 if the constraint has one (else b is a world point). Distance has no angle terms.
inline void writeDistanceRow(ConstraintOutput& out, int row, const DistanceRow& d, double sign, double offset,
                             bool twoPoints) {
  out.setValue(row, sign * d.C - offset);
  out.setVelocity(row, sign * d.Cdot);
  out.setJacobian(0, row, sign * d.gradient);
  out.setJacobianDot(0, row, sign * d.gradientDot);
  if (!twoPoints) return;
  out.setJacobian(1, row, -sign * d.gradient);
  out.setJacobianDot(1, row, -sign * d.gradientDot);
}

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
