// The sequential-impulse update of a row, or of a block of rows solved together, that both
// paths of SequentialImpulses share: the general one over the constraint system's blocks and
// SequentialKernel's over packed rows (docs/theory.md, "Sequential impulses").
//
// With e = J v + b the row's velocity error against its target, K = J W Jᵀ its effective mass,
// s and i the mass and impulse scales of a soft row (s = 1, i = 0 for a rigid one), the new
// accumulated impulse is
//
//   λ' = λ − s K⁻¹ e − i λ
//
// and the bounds apply to λ', the accumulated impulse, never to the increment λ' − λ (seed
// 004): a row may give back what it pushed earlier in the step, down to its lower bound, but no
// further. A block of rows solved at once (an equality block, a joint's springs) keeps its
// coupling through the n × n K⁻¹; a spring block's bound is on the norm of its force.
//
// The expressions are written once so that the two paths agree to the bit (the threads test
// and the solvers' agreement test compare them).
#pragma once

#include <algorithm>
#include <cmath>

namespace tinkertoy::impulse {

// λ' for one row, clamped to [lower, upper]. effectiveMass is K⁻¹ (0 for a row without a
// gradient), error is J v + b.
inline double updated(double accumulated, double effectiveMass, double error, double massScale, double impulseScale,
                      double lower, double upper) {
  return std::clamp(accumulated - massScale * effectiveMass * error - impulseScale * accumulated, lower, upper);
}

// λ' for a block of n rows, into updated[0 … n): inverse is K⁻¹ column-major [n × n], error
// and accumulated [n]. A compile-time n (a template argument passed on) unrolls the loops.
template <class Size>
inline void updateBlock(Size n, const double* inverse, const double* error, const double* accumulated,
                        double massScale, double impulseScale, double* updated) {
  for (Size i = 0; i < n; ++i) {
    double product = 0.0;
    for (Size j = 0; j < n; ++j) product += inverse[i + j * n] * error[j];
    updated[i] = accumulated[i] - massScale * product - impulseScale * accumulated[i];
  }
}

// A block's λ' scaled back onto the ball |λ'| ≤ maxImpulse, if it left it.
template <class Size>
inline void limitNorm(Size n, double maxImpulse, double* updated) {
  double squaredNorm = 0.0;
  for (Size i = 0; i < n; ++i) squaredNorm += updated[i] * updated[i];
  if (squaredNorm > maxImpulse * maxImpulse) {
    const double scale = maxImpulse / std::sqrt(squaredNorm);
    for (Size i = 0; i < n; ++i) updated[i] *= scale;
  }
}

}  // namespace tinkertoy::impulse
