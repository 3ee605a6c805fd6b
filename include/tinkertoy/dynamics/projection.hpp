// Post-step projection (post-stabilization): pulls a drifted state back onto C = 0, Ċ = 0.
//
// Positions, Gauss–Newton on C with the mass-weighted metric and a line search on ½‖C‖₂²
// (dynamics/newton_line_search.hpp):
//   repeat:  J W Jᵀ δ = −C,   q += s W Jᵀ δ,  s = 1, ½, … 1/64   until ‖C‖∞ ≤ tolerance
// At a singular configuration the solves are damped (LinearSolver), so each step stays bounded;
// a step that cannot lower the violation stops the projection there, reported as stalled.
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
  // On by default: without it, C and Ċ drift like t² under any explicit integrator and a long
  // run fails (docs/theory.md, "The default remedy"). Its cost is about one more constraint solve
  // per step on top of the integrator's (bench/RESULTS.md).
  bool enabled = true;
  double tolerance = 1e-12;  // target ‖C‖∞ after the position projection
  int maxIterations = 10;    // Gauss–Newton iterations per step
};

// What one position projection did.
struct ProjectionResult {
  int iterations = 0;     // Gauss–Newton iterations taken
  double error = 0.0;     // ‖C‖∞ (the violation) it ended at
  bool converged = true;  // error ≤ tolerance
  bool stalled = false;   // its last step could not reduce the violation: the constraints cannot
                          // all hold here (inconsistent, or a singular configuration)
};

// The projections of one step (one per substep at the velocity level).
struct ProjectionTally {
  int projections = 0;
  int iterations = 0;
  int unconverged = 0;      // projections that stopped at the iteration cap above the tolerance
  int splits = 0;           // substeps redone as two halves because their projection did not converge
  double worstError = 0.0;  // the largest final ‖C‖∞ among them

  void add(const ProjectionResult& r) {
    ++projections;
    iterations += r.iterations;
    unconverged += r.converged ? 0 : 1;
    worstError = r.error > worstError ? r.error : worstError;
  }
};

class Projection {
 public:
  explicit Projection(const ProjectionSettings& settings) : settings_(settings) {}

  // Projects (q, v) at time t. Leaves the dynamics' constraint system evaluated at the result
  // (C and Ċ; J at the projected q).
  ProjectionResult apply(AccelerationDynamics& dynamics, double time, Eigen::VectorXd& q,
                         Eigen::VectorXd& v);
  // The velocity half alone: J W Jᵀ μ = −Ċ, v += W Jᵀ μ, with J, W and Ċ as the dynamics last
  // evaluated them, at (time, q, v). Leaves C and Ċ evaluated at the result.
  void projectVelocities(AccelerationDynamics& dynamics, double time, const Eigen::VectorXd& q,
                         Eigen::VectorXd& v);

 private:
  ProjectionSettings settings_;
  Eigen::VectorXd multipliers_, rhs_;     // [m] scratch
  Eigen::VectorXd displacement_, start_;  // [n] scratch
};

}  // namespace tinkertoy
