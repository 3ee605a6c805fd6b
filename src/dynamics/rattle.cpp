#include "tinkertoy/dynamics/rattle.hpp"

namespace tinkertoy {

namespace {

// The velocity stage's fixed-point iteration on v' for forces that depend on velocity. Its
// contraction factor is ½h ‖W ∂Q/∂v‖, small at any step the explicit stages would take; forces
// that do not depend on v give the same Q at the second evaluation and stop it there.
constexpr int kMostVelocityIterations = 8;

}  // namespace

void Rattle::reset(Eigen::Index m) { multipliers_.setZero(m); }

void Rattle::appliedAcceleration(AccelerationDynamics& dynamics, const StateView& state) {
  dynamics.appliedForce(state, Q_);
  dynamics.inverseMass().multiply(Q_, WQ_);
}

ProjectionResult Rattle::step(AccelerationDynamics& dynamics, double& time, Eigen::VectorXd& q,
                              Eigen::VectorXd& v, double h) {
  ConstraintSystem& system = dynamics.constraints();
  const Eigen::Index m = system.rows();
  const double end = time + h;
  using Evaluation = ConstraintSystem::Evaluation;

  // Kick and drift without the constraints: v* = v + ½h W Q, q* = q + h v*, with Jₙ and W
  // at the step's start.
  dynamics.updateInverseMass(q);
  if (m > 0) system.evaluate({time, q, v}, Evaluation::WithoutJacobianDot);
  appliedAcceleration(dynamics, {time, q, v});
  v += (0.5 * h) * WQ_;
  q += h * v;

  // Position stage: Λ with C(q* + W Jₙᵀ Λ, t + h) = 0 by simplified Newton on A = Jₙ W Jₙᵀ.
  // Evaluating values only leaves Jₙ in place for the solves.
  ProjectionResult result;
  if (m > 0) {
    if (multipliers_.size() != m) multipliers_.setZero(m);
    system.evaluate({end, q, v}, Evaluation::ValuesOnly);
    result.error = system.value().lpNorm<Eigen::Infinity>();
    delta_ = multipliers_;  // last step's Λ: the first correction is most of it
    multipliers_.setZero();
    while (result.error > settings_.tolerance && result.iterations < settings_.maxIterations) {
      rhs_ = -system.value();
      if (result.iterations > 0) delta_.setZero();
      dynamics.solve(rhs_, delta_);
      multipliers_ += delta_;
      dynamics.addConstraintDisplacement(delta_, q);
      ++result.iterations;
      system.evaluate({end, q, v}, Evaluation::ValuesOnly);
      result.error = system.value().lpNorm<Eigen::Infinity>();
    }
    result.converged = result.error <= settings_.tolerance;
    lambda_ = (2.0 / (h * h)) * multipliers_;
    system.jacobian().multiplyTransposed(lambda_, constraintForce_);
    rhs_ = multipliers_ / h;  // v½ = v* + W Jₙᵀ Λ / h, the constraint impulse of q' − q* = W Jₙᵀ Λ
    dynamics.addConstraintDisplacement(rhs_, v);
  } else {
    lambda_.resize(0);
    constraintForce_.setZero(q.size());
  }
  time = end;

  // Velocity stage at q': v' = v½ + ½h W (Q(v') + J'ᵀ μ) with Ċ(q', v') = 0.
  dynamics.updateInverseMass(q);
  if (m > 0) system.evaluate({end, q, v}, Evaluation::WithoutJacobianDot);
  half_ = v;
  for (int k = 0; k < kMostVelocityIterations; ++k) {
    appliedAcceleration(dynamics, {end, q, v});  // v: v½, then the last estimate of v'
    if (k > 0 && (Q_ - previousQ_).lpNorm<Eigen::Infinity>() <= 1e-14 * Q_.lpNorm<Eigen::Infinity>()) break;
    previousQ_ = Q_;
    v = half_ + (0.5 * h) * WQ_;
    if (m > 0) {
      system.evaluate({end, q, v}, Evaluation::ValuesOnly);
      velocityStage_.projectVelocities(dynamics, end, q, v);
    }
  }
  return result;
}

}  // namespace tinkertoy
