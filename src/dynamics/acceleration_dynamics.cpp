#include "tinkertoy/dynamics/acceleration_dynamics.hpp"

#include <stdexcept>

#include "tinkertoy/archive/state_archive.hpp"

namespace tinkertoy {

AccelerationDynamics::AccelerationDynamics(const Model& model, const SolverSettings& solver,
                                           double ks, double kd)
    : model_(model), ks_(ks), kd_(kd), solver_(makeLinearSolver(solver)),
      matrix_(system_.jacobian(), inverseMass_.matrix()) {}

void AccelerationDynamics::rebuild() {
  system_.build(model_);
  if (!system_.allEquality()) {
    for (std::size_t k = 0; k < model_.constraintCount(); ++k) {
      if (onlyEqualityRows(model_.constraint(model_.constraintAt(k)))) continue;
      throw std::invalid_argument(model_.describe(model_.constraintAt(k)) +
                                  " has limit, motor, spring or rope rows, which Witkin's acceleration-level "
                                  "formulation cannot solve; use the velocity formulation");
    }
  }
  inverseMass_.build(model_);
  applied_.build(model_);
  solver_->analyze(matrix_);
  const Eigen::Index m = system_.rows();
  lambda_.setZero(m);
  rhs_.setZero(m);
  JdotV_.setZero(m);
}

void AccelerationDynamics::acceleration(const StateView& state, Eigen::VectorXd& a) {
  // 0. W = M(q)⁻¹ at this stage's configuration (the blocks that depend on it).
  updateInverseMass(state.q);
  const BlockDiagonalMatrix& W = inverseMass_.matrix();

  // 1–2. Clear the accumulator, then let every force add into it, and move the velocity terms
  // of parametric bodies' inertia to the right-hand side (seed 000 eq. 13).
  applied_.evaluate(model_, state, Q_);

  // 3. Constraint force Q̂ = Jᵀ λ with J W Jᵀ λ = −J̇q̇ − JWQ − Ctt − ks C − kd Ċ.
  constraintForce_.setZero(state.q.size());
  if (system_.rows() > 0) {
    system_.evaluate(state);
    system_.jacobianDot().multiply(state.v, JdotV_);
    W.multiply(Q_, WQ_);
    system_.jacobian().multiply(WQ_, rhs_);
    rhs_ = -JdotV_ - rhs_ - system_.timeTerm() - ks_ * system_.value() - kd_ * system_.velocity();
    tally_.add(solver_->solve(matrix_, rhs_, lambda_));
    system_.jacobian().multiplyTransposed(lambda_, constraintForce_);
  }

  // 4. Derivative: q̈ = W (Q + Q̂).
  Q_ += constraintForce_;
  W.multiply(Q_, a);
}

void AccelerationDynamics::serialize(StateArchive& archive) {
  archive.numbers(lambda_, system_.rows());
  solver_->serialize(archive);
}

SolveStats AccelerationDynamics::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  const SolveStats stats = solver_->solve(matrix_, b, x);
  tally_.add(stats);
  return stats;
}

void AccelerationDynamics::addConstraintDisplacement(const Eigen::VectorXd& x,
                                                     Eigen::VectorXd& target) {
  system_.jacobian().multiplyTransposed(x, JtX_);
  inverseMass_.matrix().multiply(JtX_, WJtX_);
  target += WJtX_;
}

}  // namespace tinkertoy
