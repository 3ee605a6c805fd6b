#include "tinkertoy/dynamics/acceleration_dynamics.hpp"

#include <algorithm>

namespace tinkertoy {

void SolveTally::add(const SolveStats& s) {
  ++solves;
  iterations += s.iterations;
  maxResidual = std::max(maxResidual, s.residual);
}

AccelerationDynamics::AccelerationDynamics(const Model& model, const SolverSettings& solver,
                                           double ks, double kd)
    : model_(model), ks_(ks), kd_(kd), solver_(makeLinearSolver(solver)),
      matrix_(system_.jacobian(), model.inverseMass()) {}

void AccelerationDynamics::rebuild() {
  system_.build(model_);
  solver_->analyze(system_.jacobian());
  const Eigen::Index m = system_.rows();
  lambda_.setZero(m);
  rhs_.setZero(m);
  JdotV_.setZero(m);
}

void AccelerationDynamics::acceleration(const StateView& state, Eigen::VectorXd& a) {
  const Eigen::VectorXd& W = model_.inverseMass();

  // 1–2. Clear the accumulator, then let every force add into it.
  Q_.setZero(state.q.size());
  for (std::size_t i = 0; i < model_.forceCount(); ++i) {
    model_.force(model_.forceAt(i)).accumulate(model_, state, Q_);
  }

  // 3. Constraint force Q̂ = Jᵀ λ with J W Jᵀ λ = −J̇q̇ − JWQ − Ctt − ks C − kd Ċ.
  constraintForce_.setZero(state.q.size());
  if (system_.rows() > 0) {
    system_.evaluate(model_, state);
    system_.jacobianDot().multiply(state.v, JdotV_);
    WQ_ = W.cwiseProduct(Q_);
    system_.jacobian().multiply(WQ_, rhs_);
    rhs_ = -JdotV_ - rhs_ - system_.timeTerm() - ks_ * system_.value() - kd_ * system_.velocity();
    tally_.add(solver_->solve(matrix_, rhs_, lambda_));
    system_.jacobian().multiplyTransposed(lambda_, constraintForce_);
  }

  // 4. Derivative: q̈ = W (Q + Q̂).
  a = W.cwiseProduct(Q_ + constraintForce_);
}

SolveStats AccelerationDynamics::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  const SolveStats stats = solver_->solve(matrix_, b, x);
  tally_.add(stats);
  return stats;
}

void AccelerationDynamics::addConstraintDisplacement(const Eigen::VectorXd& x,
                                                     Eigen::VectorXd& target) {
  system_.jacobian().multiplyTransposed(x, JtX_);
  target += model_.inverseMass().cwiseProduct(JtX_);
}

}  // namespace tinkertoy
