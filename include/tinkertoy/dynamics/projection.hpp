// Post-step projection (post-stabilization): pulls a drifted state back onto C = 0, Ċ = 0.
//
// Positions, Gauss–Newton on C with the mass-weighted metric:
//   repeat:  J W Jᵀ δ = −C,   q += W Jᵀ δ        until ‖C‖∞ ≤ tolerance
// Velocities, one linear solve (Ċ is linear in v):
//   J W Jᵀ μ = −Ċ,   v += W Jᵀ μ
//
// Each correction is the smallest change in the kinetic-energy norm that satisfies the
// linearized constraints, so it never pushes along legal directions. The velocity
// projection removes the velocity component normal to the constraints, which can only
// lower the kinetic energy.
#pragma once

#include <Eigen/Core>

#include "tinkertoy/dynamics/acceleration_dynamics.hpp"

namespace tinkertoy {

struct ProjectionSettings {
  bool enabled = false;
  double tolerance = 1e-12;  // target ‖C‖∞ after the position projection
  int maxIterations = 10;    // Gauss–Newton iterations per step
};

class Projection {
 public:
  explicit Projection(const ProjectionSettings& settings) : settings_(settings) {}

  // Projects (q, v) at time t. Overwrites the dynamics' constraint evaluation.
  void apply(AccelerationDynamics& dynamics, const Model& model, double time, Eigen::VectorXd& q,
             Eigen::VectorXd& v);

 private:
  ProjectionSettings settings_;
  Eigen::VectorXd multipliers_, rhs_;  // [m] scratch
};

}  // namespace tinkertoy
