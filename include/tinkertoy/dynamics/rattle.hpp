// RATTLE: the constrained Störmer–Verlet method (Andersen 1983; Leimkuhler & Reich,
// "Simulating Hamiltonian Dynamics", ch. 7). One step from (t, q, v) to t + h:
//
//   kick     v½ = v + ½h W(q) (Q(t, q, v) + J(q)ᵀ λ)
//   drift    q' = q + h v½,                          λ chosen so that C(q', t + h) = 0
//   kick     v' = v½ + ½h W(q') (Q(t+h, q', v') + J(q')ᵀ μ),  μ chosen so that Ċ(q', v', t + h) = 0
//
// The position stage is a nonlinear equation in Λ = ½h² λ: q(Λ) = q* + W Jₙᵀ Λ with
// q* = q + h (v + ½h W Q). It is solved by simplified Newton with the matrix of the step's
// start, A = Jₙ W Jₙᵀ (SHAKE's iteration):
//
//   repeat  A δ = −C(q(Λ), t + h),  Λ += δ   until ‖C‖∞ ≤ tolerance
//
// The exact Newton matrix is J(q(Λ)) W Jₙᵀ; it differs from A by O(h), so each iteration cuts
// ‖C‖ by a factor O(h |v| κ) (κ the constraints' curvature): a few iterations reach round-off.
// The force stays along Jₙᵀ, which is what makes the map symplectic. The velocity stage is
// linear in μ, a projection of v onto J v + ∂C/∂t = 0 in the metric of M
// (Projection::projectVelocities); forces that depend on velocity (drag, the inertial terms of
// parametric bodies) make it implicit in v', solved by fixed-point iteration.
//
// Properties (docs/theory.md, "RATTLE"): order 2; symmetric, so time-reversible; symplectic
// on the constraint manifold when M is constant and the forces have a potential (particles and
// rigid bodies under gravity, springs, torques), so the energy error stays bounded, O(h²), for
// exponentially long times instead of drifting; C = 0 to the Newton tolerance and Ċ = 0 to the
// linear solve's at the end of every step, so it needs neither feedback (ks, kd) nor projection.
//
//   Rattle rattle(settings.projection);
//   ProjectionResult r = rattle.step(dynamics, time, q, v, h);
#pragma once

#include <Eigen/Core>

#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/dynamics/acceleration_dynamics.hpp"
#include "tinkertoy/dynamics/projection.hpp"

namespace tinkertoy {

class Rattle {
 public:
  // settings: the position stage's tolerance on ‖C‖∞ and its iteration cap.
  explicit Rattle(const ProjectionSettings& settings) : settings_(settings), velocityStage_(settings) {}

  // Forgets the last step's multipliers (after the constraints' layout changed). m rows.
  void reset(Eigen::Index m);
  // The last step's Λ, the next one's warm start (Simulator::saveState). m rows.
  void serialize(StateArchive& archive, Eigen::Index m) { archive.numbers(multipliers_, m); }
  // Advances time, q and v by h. Leaves the dynamics' constraint system evaluated at the
  // result (C, Ċ; J at the new q). Returns what the position stage did.
  ProjectionResult step(AccelerationDynamics& dynamics, double& time, Eigen::VectorXd& q,
                        Eigen::VectorXd& v, double h);

  // λ of the position stage as forces [m]: the constraint force over the step's first half is Jₙᵀ λ.
  [[nodiscard]] const Eigen::VectorXd& lambda() const { return lambda_; }
  // Jₙᵀ λ [n].
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const { return constraintForce_; }

 private:
  // Q_ = Q(state) and WQ_ = W Q_, with W as last updated.
  void appliedAcceleration(AccelerationDynamics& dynamics, const StateView& state);

  ProjectionSettings settings_;
  Projection velocityStage_;
  // Λ of the last step [m], the first Newton iterate's warm start; scratch: λ, δ, −C [m];
  // Jₙᵀ λ, v½, Q and the previous Q, W Q [n].
  Eigen::VectorXd multipliers_, lambda_, delta_, rhs_;
  Eigen::VectorXd constraintForce_, half_, Q_, previousQ_, WQ_;
};

}  // namespace tinkertoy
