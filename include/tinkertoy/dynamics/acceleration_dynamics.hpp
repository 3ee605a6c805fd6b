// AccelerationDynamics: Witkin's constrained derivative evaluation (Witkin, "Constrained Dynamics", §4.1, §4.5).
//
// acceleration() is the function the integrator calls once per stage:
//
//   0. inverse mass at this configuration       W = M(q)⁻¹, block-diagonal    [n × n]
//   1. clear the force accumulator              Q = 0                         [n]
//   2. apply forces                             Q += f for every force, and
//                                               Q −= Jᵀ M J̇ q̇ for parametric bodies (eq. 13)
//   3. constraint force: evaluate C, Ċ, J, J̇, Ctt, solve
//        J W Jᵀ λ = −J̇ q̇ − J W Q − Ctt − ks C − kd Ċ                         [m]
//      and form Q̂ = Jᵀ λ                                                       [n]
//   4. derivative                               a = W (Q + Q̂)                 [n]
//
// Ctt is the time-dependent term of Witkin, Gleicher and Welch's "Interactive Dynamics" (zero for constraints that do not move). ks
// and kd are the feedback gains that pull drifted states back to C = 0, Ċ = 0: they ask
// for C̈ = −ks C − kd Ċ instead of C̈ = 0.
//
//   AccelerationDynamics dynamics(model, SolverSettings{}, /*ks=*/0, /*kd=*/0);
//   dynamics.rebuild();
//   dynamics.acceleration(StateView{t, q, v}, a);
#pragma once

#include <Eigen/Core>
#include <memory>

#include "tinkertoy/dynamics/applied_forces.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/integrators/integrator.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

class AccelerationDynamics final : public AccelerationField {
 public:
  AccelerationDynamics(const Model& model, const SolverSettings& solver, double ks, double kd);

  // Re-lays out J, J̇ and W after bodies or constraints were added or removed. Resets λ.
  // Throws std::invalid_argument if a constraint has rows other than equalities (limits,
  // motors, springs, ropes): those need the velocity formulation.
  void rebuild();
  // After an edit of the model: the parts of W that do not depend on the configuration are
  // recomputed at the next evaluation (particle masses may have been edited).
  void invalidateMasses() { inverseMass_.invalidate(); }
  void acceleration(const StateView& state, Eigen::VectorXd& a) override;

  // Q = the applied generalized force at `state` (steps 1–2 above, without the constraints).
  void appliedForce(const StateView& state, Eigen::VectorXd& Q) const { applied_.evaluate(model_, state, Q); }
  // W = M⁻¹ at the configuration of the last updateInverseMass() or acceleration().
  [[nodiscard]] const BlockDiagonalMatrix& inverseMass() const { return inverseMass_.matrix(); }

  // Solves J W Jᵀ x = b with the current J (for projection). x is the warm start.
  SolveStats solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);
  // q += W Jᵀ x (or v), the generalized displacement produced by multipliers x, with W at
  // the configuration of the last evaluation.
  void addConstraintDisplacement(const Eigen::VectorXd& x, Eigen::VectorXd& target);
  // Recomputes W at coordinates q (projection evaluates W at states it produced itself).
  // Throws SingularMassError if a body's mass matrix is singular there.
  void updateInverseMass(const Eigen::VectorXd& q) { inverseMass_.update(model_, q); }

  [[nodiscard]] ConstraintSystem& constraints() { return system_; }
  [[nodiscard]] const ConstraintSystem& constraints() const { return system_; }
  // λ of the most recent acceleration() call [m].
  [[nodiscard]] const Eigen::VectorXd& lambda() const { return lambda_; }
  // The constraint force Q̂ = Jᵀλ of the most recent acceleration() call [n].
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const { return constraintForce_; }

  [[nodiscard]] SolveTally& tally() { return tally_; }
  [[nodiscard]] const SolveTally& tally() const { return tally_; }
  // λ, every solve's warm start, and the solver's own state (Simulator::saveState).
  void serialize(StateArchive& archive);
  // Symbolic analyses of J W Jᵀ so far (one per rebuild()).
  [[nodiscard]] long analyses() const { return solver_->analyses(); }

 private:
  const Model& model_;
  double ks_;
  double kd_;
  ConstraintSystem system_;
  InverseMass inverseMass_;
  AppliedForces applied_;
  std::unique_ptr<LinearSolver> solver_;
  ConstraintMatrix matrix_;
  SolveTally tally_;
  // Scratch, sized on use: Q, Q̂, W Q, Jᵀx and W Jᵀx are [n]; λ, rhs and J̇ q̇ are [m].
  Eigen::VectorXd Q_, constraintForce_, WQ_, JtX_, WJtX_, lambda_, rhs_, JdotV_;
};

}  // namespace tinkertoy
