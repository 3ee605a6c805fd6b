#include "tinkertoy/dynamics/projection.hpp"

namespace tinkertoy {

ProjectionResult Projection::apply(AccelerationDynamics& dynamics, const Model& model, double time,
                                   Eigen::VectorXd& q, Eigen::VectorXd& v) {
  ConstraintSystem& system = dynamics.constraints();
  if (system.rows() == 0) return {};

  // Positions: J W Jᵀ δ = −C, q += W Jᵀ δ, until ‖C‖∞ ≤ tolerance.
  ProjectionResult result;
  dynamics.updateInverseMass(q);
  system.evaluate(model, {time, q, v});
  result.error = system.value().lpNorm<Eigen::Infinity>();
  while (result.error > settings_.tolerance && result.iterations < settings_.maxIterations) {
    rhs_ = -system.value();
    multipliers_.setZero(system.rows());
    dynamics.solve(rhs_, multipliers_);
    dynamics.addConstraintDisplacement(multipliers_, q);
    ++result.iterations;
    dynamics.updateInverseMass(q);
    system.evaluate(model, {time, q, v});
    result.error = system.value().lpNorm<Eigen::Infinity>();
  }
  result.converged = result.error <= settings_.tolerance;

  projectVelocities(dynamics, model, time, q, v);
  return result;
}

// Ċ is linear in v, so after the correction Ċ = 0 to the solve's accuracy, which is what the
// end state's evaluation is made to say.
void Projection::projectVelocities(AccelerationDynamics& dynamics, const Model& model, double time,
                                   const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  ConstraintSystem& system = dynamics.constraints();
  rhs_ = -system.velocity();
  multipliers_.setZero(system.rows());
  dynamics.solve(rhs_, multipliers_);
  dynamics.addConstraintDisplacement(multipliers_, v);
  system.evaluate(model, {time, q, v}, ConstraintSystem::Evaluation::ValuesOnly);
}

}  // namespace tinkertoy
