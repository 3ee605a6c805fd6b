// ScalarTerm: a scalar function s of a constraint's points (a distance, a coordinate along an
// axis, a relative angle) with everything a row needs: its value, its rate ṡ, and for each of
// the constraint's (at most two) points the gradient ∂s/∂(x, y, z, φ) and its time derivative.
//
// A joint builds its rows from terms (docs/theory.md, "Joint parts"):
//
//   equality row        C = s − s₀              (kind Equality)
//   lower limit         C = s − lower ≥ 0        (kind Inequality)
//   upper limit         C = upper − s ≥ 0        (kind Inequality: the term with sign −1)
//   motor               C ≡ 0, Ċ = ṡ → target    (kind Motor: only the gradient matters)
//
// so writeRow() takes the term, a sign and an offset: C = sign·s − offset.
#pragma once

#include <Eigen/Core>
#include <array>

#include "constraints/parts/joint_end.hpp"
#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy::detail {

struct ScalarTerm {
  double value = 0.0;  // s
  double rate = 0.0;   // ṡ
  std::array<Eigen::Vector4d, 2> gradient{Eigen::Vector4d::Zero(), Eigen::Vector4d::Zero()};     // ∂s/∂(x, φ) per point
  std::array<Eigen::Vector4d, 2> gradientDot{Eigen::Vector4d::Zero(), Eigen::Vector4d::Zero()};  // d/dt of it

  // Adds `g` (and ġ) to the gradient of end e, if e is a constraint point.
  void add(const JointEnd& e, const Eigen::Vector4d& g, const Eigen::Vector4d& gDot) {
    if (!e.point) return;
    gradient[*e.point] += g;
    gradientDot[*e.point] += gDot;
  }
};

// Writes row `row` as C = sign·s − offset, with Ċ = sign·ṡ and the signed gradients, for a
// constraint with `points` points. A Motor row passes offset = 0 and ignores C.
inline void writeRow(ConstraintOutput& out, int row, const ScalarTerm& s, double sign, double offset,
                     std::size_t points) {
  out.setValue(row, sign * s.value - offset);
  out.setVelocity(row, sign * s.rate);
  for (std::size_t k = 0; k < points; ++k) {
    out.setJacobian(k, row, sign * s.gradient[k].head<3>());
    out.setJacobianDot(k, row, sign * s.gradientDot[k].head<3>());
    out.setAngleJacobian(k, row, sign * s.gradient[k][3]);
    out.setAngleJacobianDot(k, row, sign * s.gradientDot[k][3]);
  }
}

}  // namespace tinkertoy::detail
