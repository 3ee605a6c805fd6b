#include "tinkertoy/dynamics/projection.hpp"

namespace tinkertoy {

void Projection::apply(AccelerationDynamics& dynamics, const Model& model, double time,
                       Eigen::VectorXd& q, Eigen::VectorXd& v) {
  ConstraintSystem& system = dynamics.constraints();
  if (system.rows() == 0) return;

  // Positions: J W Jᵀ δ = −C, q += W Jᵀ δ, until ‖C‖∞ ≤ tolerance.
  for (int i = 0; i < settings_.maxIterations; ++i) {
    dynamics.updateInverseMass(q);
    system.evaluate(model, {time, q, v});
    if (system.value().lpNorm<Eigen::Infinity>() <= settings_.tolerance) break;
    rhs_ = -system.value();
    multipliers_.setZero(system.rows());
    dynamics.solve(rhs_, multipliers_);
    dynamics.addConstraintDisplacement(multipliers_, q);
  }

  // Velocities: J W Jᵀ μ = −Ċ, v += W Jᵀ μ.
  dynamics.updateInverseMass(q);
  system.evaluate(model, {time, q, v});
  rhs_ = -system.velocity();
  multipliers_.setZero(system.rows());
  dynamics.solve(rhs_, multipliers_);
  dynamics.addConstraintDisplacement(multipliers_, v);
}

}  // namespace tinkertoy
