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
      matrix_(system_.jacobian(), inverseMass_.matrix()) {}

void AccelerationDynamics::rebuild() {
  system_.build(model_);
  inverseMass_.build(model_);
  massesCurrent_ = false;
  parametric_.clear();
  for (std::size_t i = 0; i < model_.bodyCount(); ++i) {
    if (!model_.body(model_.bodyAt(i)).hasDiagonalMass()) parametric_.push_back(i);
  }
  solver_->analyze(system_.jacobian());
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
  Q_.setZero(state.q.size());
  for (std::size_t i = 0; i < model_.forceCount(); ++i) {
    model_.force(model_.forceAt(i)).accumulate(model_, state, Q_);
  }
  for (const std::size_t i : parametric_) {
    const std::size_t offset = model_.offsetOf(model_.bodyAt(i));
    const Body& body = model_.body(model_.bodyAt(i));
    body.addInertialForce(model_.slice(state.q, i), model_.slice(state.v, i),
                          Q_.segment(static_cast<Eigen::Index>(offset), body.coordinateCount()));
  }

  // 3. Constraint force Q̂ = Jᵀ λ with J W Jᵀ λ = −J̇q̇ − JWQ − Ctt − ks C − kd Ċ.
  constraintForce_.setZero(state.q.size());
  if (system_.rows() > 0) {
    system_.evaluate(model_, state);
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

void AccelerationDynamics::updateInverseMass(const Eigen::VectorXd& q) {
  if (massesCurrent_) {
    inverseMass_.update(model_, q);
  } else {
    inverseMass_.updateAll(model_, q);
    massesCurrent_ = true;
  }
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
