// Distance part: one row keeping two points a and b at distance L.
//
// Derivation (docs/theory.md, "Distance"). Let d = x_a − x_b, ℓ = |d|, n = d/ℓ.
//
//   C   = ℓ − L                                   (metres, so λ is the rod tension in N)
//   Ċ   = n·ḋ                                     since ∂ℓ/∂d = n
//   J_a = nᵀ,  J_b = −nᵀ
//   ṅ   = (ḋ − n (n·ḋ)) / ℓ                      derivative of d/|d|
//   J̇_a = ṅᵀ,  J̇_b = −ṅᵀ,  so J̇ q̇ = ṅ·ḋ = (|ḋ|² − (n·ḋ)²) / ℓ  (centripetal term)
//   ∂C/∂t = 0
//
// Witkin writes the bead's circle as C = ½(x·x − 1); the ℓ − L form has the same zero set
// and gradient direction, but C is in metres and λ in newtons, which makes ‖C‖ and the
// reaction forces directly readable. The part is singular at ℓ = 0 (n undefined); the
// scene loader rejects zero-length rods and the simulator reports a blow-up if one forms.
#pragma once

#include <Eigen/Core>

namespace tinkertoy::detail {

struct DistanceRow {
  double C;
  double Cdot;
  Eigen::Vector3d gradient;     // ∂C/∂x_a; ∂C/∂x_b is its negative
  Eigen::Vector3d gradientDot;  // d/dt of the gradient
};

inline DistanceRow evaluateDistance(const Eigen::Vector3d& xa, const Eigen::Vector3d& va,
                                    const Eigen::Vector3d& xb, const Eigen::Vector3d& vb,
                                    double length) {
  const Eigen::Vector3d d = xa - xb;
  const Eigen::Vector3d dDot = va - vb;
  const double l = d.norm();
  const double inverse = 1.0 / l;  // one division for n and ṅ
  const Eigen::Vector3d n = d * inverse;
  const double nDotDdot = n.dot(dDot);
  return {l - length, nDotDdot, n, (dDot - n * nDotDdot) * inverse};
}

}  // namespace tinkertoy::detail
