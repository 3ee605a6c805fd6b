// VelocityTargets: what each row asks of the velocities in one substep of the velocity level,
// and the bounds of its accumulated impulse (docs/theory.md, "The velocity-level step"). Both
// solvers read them: the sequential impulses row block by row block, the global solve all at once.
//
// An equality row asks that the constraint keep its value over the substep,
// C(q + h v⁺, t + h) = C(q, t). With C̃ = C(q + h v*, t + h), where the bodies would be without
// the constraints, and J the Jacobian the system was evaluated with (at q, or at the prediction
// q + h v* when the caller found q's too coarse):
//
//   C(q + h v⁺) ≈ C̃ + h J (v⁺ − v*)     ⇒    J v⁺ = −b,   b = (C̃ − C(q))/h − J v*
//
// With J at q, b is to second order the tangent target Ct plus the curvature term
// (h/2)(J̇ v* + Ctt); without that term a swinging chain drifts outward every substep and the
// next solve takes the energy away. Ct = Ċ − J v* is the part of Ċ not due to the bodies.
//
//   equality     J v = −b                                            λ free
//   inequality   J v ≥ −b, with C(q) = 0 in b while C(q) > 0         λ ≥ 0   (may close the gap,
//                                                                              not cross it)
//   motor        J v = target − Ct                                   |λ| ≤ F h
//   spring       soft: δ = −s K⁻¹(J v + Ct + r C(q)) − i λ,          |λ| ≤ F h
//
// and for a spring of frequency f and damping ratio ζ, ω = 2πf: r = ω/(2ζ + hω),
// s = hω(2ζ + hω)/(1 + hω(2ζ + hω)), i = 1/(1 + hω(2ζ + hω)) (Box2D's soft step: an implicit
// damped spring on C).
//
// The soft step (computeSoft) aims every equality row at C = 0 through a spring of the joint
// frequency f (capped at a quarter of the substep rate) and damping ratio ζ, with the same
// coefficients, from C at the substep's current positions; its relax pass, after the positions
// moved, asks J v = −Ct alone (rigid, no bias). An inequality row that is open (C > 0) may close
// its gap within the substep, J v ≥ −C / h − Ct; closed, it is soft like an equality.
//
// Baumgarte's correction is a separate target for the position pass: J u = −β C(q)/h for the
// equality rows and J u ≥ −β min(C(q), 0)/h for the inequality rows, solved for a pseudo
// velocity u that only moves the positions (split impulses); its impulses are bounded like the
// velocity pass's for those rows, and motors and springs take no part in it.
//
//   VelocityTargets targets;
//   targets.resize(system.rows());
//   targets.compute(system, vStar, C, Ct, predictedC, h, settings.velocity);   // each substep
//   double b = targets.bias(Pass::Velocity)[row];
#pragma once

#include <Eigen/Core>
#include <utility>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"

namespace tinkertoy {

// The velocity pass (the rows' velocity targets, warm-started) or the position pass
// (Baumgarte's targets for a pseudo velocity, from zero impulses each substep).
enum class ImpulsePass { Velocity, Position };

// The soft step's two passes in a substep: soft constraints toward C = 0, then rigid without bias.
enum class SoftPass { Solve, Relax };

class VelocityTargets {
 public:
  void resize(Eigen::Index rows);
  // For a substep of length h from the velocities v* [n] (after the applied forces), the Jacobian
  // the system holds, and C at the substep's start (`current`), its time rate Ct = Ċ − J v there
  // (`timeRate`) and C at the prediction (`predicted`) [m].
  void compute(const ConstraintSystem& system, const Eigen::VectorXd& v, const Eigen::VectorXd& current,
               const Eigen::VectorXd& timeRate, const Eigen::VectorXd& predicted, double h,
               const VelocitySettings& settings);
  // The soft step's targets for one of its passes in a substep of length h, from C at the current
  // positions [m] and the time rate Ct [m] (docs/theory.md, "The soft step"). Only the velocity
  // pass's targets are written.
  void computeSoft(const ConstraintSystem& system, const Eigen::VectorXd& C, const Eigen::VectorXd& timeRate,
                   double h, const VelocitySettings& settings, SoftPass pass);
  // The Verlet scheme's velocity stage at the end of a substep of h
  // (docs/theory.md, "The velocity-level step"): the equality rows ask J v = −Ct; the
  // inequality rows that are closed (C ≤ 0) or were pushed in the substep's solve (impulse > 0) J v ≥ −Ct with λ ≥ 0; a motor its speed within what the
  // substep's solve left of its budget F h. Open inequality rows and springs take no part (a
  // spring is thus first order). C, Ct and the substep's impulses are [m].
  void computeVelocityStage(const ConstraintSystem& system, const Eigen::VectorXd& C, const Eigen::VectorXd& timeRate,
                            const Eigen::VectorXd& impulses, double h);
  // The soft step's joint frequency in a substep of length h: the setting, at most 1 / (4 h).
  [[nodiscard]] static double softHertz(const VelocitySettings& settings, double h);
  // Ct = Ċ − J v of the system as evaluated with velocities v [n], into timeRate [m].
  static void timeRate(const ConstraintSystem& system, const Eigen::VectorXd& v, Eigen::VectorXd& timeRate);

  // The target error of row r is J_r v + bias_r: sequential impulses would move λ_r by −that / K.
  [[nodiscard]] const Eigen::VectorXd& bias(ImpulsePass pass) const {
    return pass == ImpulsePass::Velocity ? bias_ : positionBias_;
  }
  // The bounds on a row's accumulated impulse in a pass (equal bounds: the row takes no part).
  [[nodiscard]] std::pair<double, double> bounds(Eigen::Index row, ImpulsePass pass) const;
  // A row's soft-step factors s and i in the velocity pass (1 and 0 for a rigid row):
  // δ = −s K⁻¹ (J v + b) − i λ.
  [[nodiscard]] double massScale(Eigen::Index row) const { return massScale_[row]; }
  [[nodiscard]] double impulseScale(Eigen::Index row) const { return impulseScale_[row]; }
  // (s, i) of a row in a pass: the position pass is always rigid, (1, 0).
  [[nodiscard]] std::pair<double, double> scales(Eigen::Index row, ImpulsePass pass) const {
    if (pass == ImpulsePass::Position) return {1.0, 0.0};
    return {massScale_[row], impulseScale_[row]};
  }

 private:
  // A row's velocity-pass bounds unlimited and its scales rigid (s = 1, i = 0), before its kind
  // sets what differs.
  void makeRigidAndFree(Eigen::Index row);
  // A spring row's targets: soft at its own frequency and damping ratio, |λ| ≤ F h.
  void spring(Eigen::Index row, const RowParameters& p, double C, double Ct, double h);

  Eigen::VectorXd bias_, positionBias_, lower_, upper_, positionLower_, positionUpper_;  // [m]
  Eigen::VectorXd massScale_, impulseScale_;                                             // [m]
  Eigen::VectorXd Jv_;                                                                   // [m] scratch
};

}  // namespace tinkertoy
