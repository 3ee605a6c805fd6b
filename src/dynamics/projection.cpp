#include "tinkertoy/dynamics/projection.hpp"

#include "dynamics/newton_line_search.hpp"

namespace tinkertoy {

ProjectionResult Projection::apply(AccelerationDynamics& dynamics, double time,
                                   Eigen::VectorXd& q, Eigen::VectorXd& v) {
  ConstraintSystem& system = dynamics.constraints();
  if (system.rows() == 0) return {};
  const auto evaluate = [&](const Eigen::VectorXd& at) {
    dynamics.updateInverseMass(at);
    system.evaluate({time, at, v}, ConstraintSystem::Evaluation::WithoutJacobianDot);
  };
  const auto merit = [&] { return 0.5 * system.value().squaredNorm(); };

  // Positions: J W Jᵀ δ = −C, q += W Jᵀ δ with a line search, until ‖C‖∞ ≤ tolerance.
  displacement_.resize(q.size());  // sized before the loop: a step never allocates
  start_.resize(q.size());
  ProjectionResult result;
  evaluate(q);
  result.error = system.value().lpNorm<Eigen::Infinity>();
  NewtonLineSearch search;
  while (result.error > settings_.tolerance && result.iterations < settings_.maxIterations) {
    rhs_ = -system.value();
    multipliers_.setZero(system.rows());
    dynamics.solve(rhs_, multipliers_);
    displacement_.setZero();
    dynamics.addConstraintDisplacement(multipliers_, displacement_);
    const double before = merit();
    start_ = q;
    q += displacement_;
    evaluate(q);
    ++result.iterations;
    if (!NewtonLineSearch::backtrack(q, start_, displacement_, before, evaluate, merit)) {
      result.stalled = true;
      break;
    }
    result.error = system.value().lpNorm<Eigen::Infinity>();
    if (result.error > settings_.tolerance && search.plateau(merit())) {
      result.stalled = true;
      break;
    }
  }
  result.converged = result.error <= settings_.tolerance;

  projectVelocities(dynamics, time, q, v);
  return result;
}

// Ċ is linear in v, so after the correction Ċ = 0 to the solve's accuracy, which is what the
// end state's evaluation is made to say.
void Projection::projectVelocities(AccelerationDynamics& dynamics, double time,
                                   const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  ConstraintSystem& system = dynamics.constraints();
  rhs_ = -system.velocity();
  multipliers_.setZero(system.rows());
  dynamics.solve(rhs_, multipliers_);
  dynamics.addConstraintDisplacement(multipliers_, v);
  system.evaluate({time, q, v}, ConstraintSystem::Evaluation::ValuesOnly);
}

}  // namespace tinkertoy
