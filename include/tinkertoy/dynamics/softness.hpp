// Box2D v3's soft constraint (docs/theory.md, "The soft step"): a row becomes, for the solve
// passes, an implicit damped spring on C of frequency f and damping ratio ζ over a step h. With
// ω = 2πf, a1 = 2ζ + hω and a2 = hω a1, the row's update is λ' = λ − s K⁻¹ (J v + r C) − i λ with
//
//   bias rate r = ω / a1,   mass scale s = a2 / (1 + a2),   impulse scale i = 1 / (1 + a2),
//
// which the joints' rows (VelocityTargets) and the contacts' (ContactSolver) share.
#pragma once

#include <cmath>
#include <numbers>

namespace tinkertoy {

struct Softness {
  double biasRate = 0.0, massScale = 1.0, impulseScale = 0.0;
};

// Every finite ζ and f are valid: for a damping ratio so large that a1 or a2 overflows (ζ = 1e308)
// the limits hold, r → 0, s → 1 and i → 0, a rigid velocity constraint without position bias.
inline Softness soften(double frequency, double dampingRatio, double h) {
  const double omega = 2.0 * std::numbers::pi * frequency;
  const double a1 = 2.0 * dampingRatio + h * omega, a2 = h * omega * a1;
  return {omega / a1, std::isfinite(a2) ? a2 / (1.0 + a2) : 1.0, 1.0 / (1.0 + a2)};
}

}  // namespace tinkertoy
