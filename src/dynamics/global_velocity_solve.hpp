// GlobalVelocitySolve: the velocity level's solves of all rows at once, with a LinearSolver on
// J W Jᵀ (the direct solve, or CG) in place of sequential impulses (docs/theory.md, "The global solve"):
//
//   impulses     J W Jᵀ δ = −(J v + b),   v += W Jᵀ δ,   λ += δ
//   projection   J W Jᵀ δ = −C,           q += W Jᵀ δ
//
// Both work on the system's own J, with rows held out of a solve (ConstraintMatrix's held
// rows) instead of a copy: the spring rows always (sequential passes solve them), and the rows
// of an active set. The layout never changes between steps, so the solver analyzes it once, and
// the direct solver factors J W Jᵀ once and reuses the factorization for the other solves of a
// step, substep after substep, until it stops paying (solvers/direct_solver.hpp).
//
// Impulses: a row whose accumulated impulse leaves its bounds (inequality rows, motors) is
// clamped to the bound and held there, and a held row whose target then pulls it back inside
// (J v + b < 0 at the lower bound, > 0 at the upper) is let go; the solve repeats until the set
// settles, at most `iterations` times. The inequality rows start held at zero; the velocity pass
// then starts from the previous substep's set. A motor and a limit of one joint act on the same
// coordinate and cannot both meet their targets: while the limit is active the motor is held at
// the bound it pushes toward. Spring rows get one sequential pass before each solve.
//
// Projection: Newton's method on C(q) = 0 in the mass metric, each step the minimum-norm
// correction of the linearized constraints, with the backtracking line search and stall test
// of NewtonLineSearch (far from the manifold, a cloth's whip in one large step, a full step can
// overshoot). Each linear solve
// needs only as much accuracy as the step can use, a relative residual of a tenth of the
// tolerance over the current violation, so a reused factorization usually serves it in one or
// two CG iterations. The rows are the equality rows and an active set of inequality rows held at
// their bound (C = 0): those within the current violation of it, which a correction of that size
// could push past, and any that a full step does push past, after which the step is recomputed
// (at most once per inequality row, and not counted as an iteration). The set only grows, so a
// correction cannot trade one stretched rope segment for its neighbour and back. Motor rows take
// no part. The projection reports whether it reached the tolerance, and whether it stalled
// (newton_line_search.hpp), which happens where the constraints cannot all hold.
//
//   GlobalVelocitySolve global(settings.solver);
//   global.build(system, W);                                        // after the layout changed
//   global.solveImpulses(system, W, targets, ImpulsePass::Velocity, lambda, v, springs, 10, tally);
//   ProjectionResult r = global.project(system, W, t, q, v, settings.projection, tally);
#pragma once

#include <Eigen/Core>
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "dynamics/row_carry.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/formulation.hpp"
#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/dynamics/velocity_targets.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"
#include "tinkertoy/dynamics/sequential_impulses.hpp"

namespace tinkertoy {

class GlobalVelocitySolve {
 public:
  explicit GlobalVelocitySolve(const SolverSettings& settings) : solver_(makeLinearSolver(settings)) {}

  // Lays out the held-row sets for the system's layout and analyzes J W Jᵀ. The rows of
  // constraints kept since the layout before keep their place in the velocity pass's active
  // set (carry).
  void build(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const RowCarry& carry);
  // The velocity pass's active set and the solver's state (Simulator::saveState).
  void serialize(StateArchive& archive);
  // Symbolic analyses of J W Jᵀ so far.
  [[nodiscard]] long analyses() const { return solver_->analyses(); }

  // Solves for the accumulated impulses λ [m] of a pass, starting from their current values,
  // and applies what they add to v (the velocity, or the position pass's pseudo velocity) [n].
  void solveImpulses(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const VelocityTargets& targets,
                     ImpulsePass pass, Eigen::VectorXd& lambda, Eigen::VectorXd& v, SequentialImpulses& springs,
                     int iterations, SolveTally& tally);

  // Projects q [n] onto C = 0 at `time`; leaves the system evaluated there (C, Ċ with v, J).
  ProjectionResult project(ConstraintSystem& system, const BlockDiagonalMatrix& W, double time,
                           Eigen::VectorXd& q, const Eigen::VectorXd& v, const ProjectionSettings& settings,
                           SolveTally& tally);

 private:
  // J_row v and v += W J_rowᵀ δ for one row of the system.
  [[nodiscard]] static double rowVelocity(const ConstraintSystem& system, Eigen::Index row, const Eigen::VectorXd& v);
  static void applyImpulse(const ConstraintSystem& system, const BlockDiagonalMatrix& W, Eigen::Index row, double delta,
                           Eigen::VectorXd& v);
  // Sets mask_ to the held rows plus the spring rows, and solves J W Jᵀ δ = rhs with them held
  // out; δ starts from zero.
  SolveStats solveHeldOut(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const std::vector<char>& held,
                          double tolerance);

  std::unique_ptr<LinearSolver> solver_;
  std::vector<RowKind> kinds_;                    // of the system's rows, as built
  std::vector<char> mask_;                        // [m] the rows held out of the current solve
  std::array<std::vector<char>, 2> held_;         // [m] the impulse passes' active sets
  std::vector<char> active_;                      // [m] the projection's rows
  ConstraintMatrix::Workspace workspace_;         // the products of every solve's matrix
  std::vector<std::pair<Eigen::Index, Eigen::Index>> motorLimits_;  // (motor, limit of its joint), rows
  Eigen::VectorXd rhs_, delta_, Jv_, JtDelta_, displacement_, trial_;  // [m] and [n] scratch
};

}  // namespace tinkertoy
