// GlobalVelocitySolve: the velocity level's solves of all rows at once, with a LinearSolver on
// J W Jᵀ (the direct solve, or CG) in place of sequential impulses (docs/theory.md, "The global solve"):
//
//   impulses     J W Jᵀ δ = −(J v + b),   v += W Jᵀ δ,   λ += δ
//   projection   J W Jᵀ δ = −C,           q += W Jᵀ δ
//
// With contacts (the exact mode), both work on the joints' rows and the contacts' at once
// (dynamics/contact_rows.hpp), with solvers of their own that analyze each new layout of
// contact points, factor afresh and damp every solve: the normal rows are inequality rows
// (capped far above any pile's weight), the friction rows have the bounds ±μ Σλ_n, which move
// with the normal impulses: a held friction row follows its bound, and is let go once the
// bounds leave it inside. Each step goes only as far as the first free row meets a bound (a
// feasible active-set step, which stops a damped solve's long step along a near-null
// direction), and a held row is let go by its own target error only after a whole step, until
// the set and the bounds settle; a set that does not settle within the cap of changes is
// finished by sequential passes (projected Gauss–Seidel). The joints' rows keep their indices.
// The projection takes a contact row into its active set only once it penetrates.
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

#include "dynamics/contact_rows.hpp"
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
  explicit GlobalVelocitySolve(const SolverSettings& settings);

  // Lays out the held-row sets for the system's layout and analyzes J W Jᵀ. The rows of
  // constraints kept since the layout before keep their place in the velocity pass's active
  // set (carry).
  void build(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const RowCarry& carry);
  // The velocity pass's active set and the solver's state (Simulator::saveState).
  void serialize(StateArchive& archive);
  // Symbolic analyses of J W Jᵀ so far.
  [[nodiscard]] long analyses() const { return joints_.solver->analyses(); }

  // Solves for the accumulated impulses λ [m] of a pass, starting from their current values,
  // and applies what they add to v (the velocity, or the position pass's pseudo velocity) [n].
  void solveImpulses(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const VelocityTargets& targets,
                     ImpulsePass pass, Eigen::VectorXd& lambda, Eigen::VectorXd& v, SequentialImpulses& springs,
                     int iterations, SolveTally& tally);

  // Projects q [n] onto C = 0 at `time`; leaves the system evaluated there (C, Ċ with v, J).
  ProjectionResult project(ConstraintSystem& system, const BlockDiagonalMatrix& W, double time,
                           Eigen::VectorXd& q, const Eigen::VectorXd& v, const ProjectionSettings& settings,
                           SolveTally& tally);

  // The velocity pass with the contact points: the joints' impulses [m] and the points' own,
  // from their current values; `iterations` caps the changes of the active set (at least
  // kMostContactSetChanges). Restitution follows (ContactImpulseRows::restitute) and a second solve.
  void solveImpulses(const ConstraintSystem& system, const VelocityTargets& targets, ContactSolver& contacts,
                     const BlockDiagonalMatrix& W, Eigen::VectorXd& jointImpulses, Eigen::VectorXd& v,
                     SequentialImpulses& springs, int iterations, SolveTally& tally);
  // The projection onto C = 0 for the joints and separation ≥ 0 for the manifolds the finder
  // found, measured again at each step (ContactFinder::collideAgain) within `speculative` (m).
  ProjectionResult project(ConstraintSystem& system, const ContactSolver& contacts, const ContactFinder& finder,
                           const BlockDiagonalMatrix& W, double time, Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           const ProjectionSettings& settings, double speculative, SolveTally& tally);

  // The least cap on the active-set changes of a velocity pass with contacts, whatever the
  // iterations: a pile's first touch frees, then holds, many rows in turn.
  static constexpr int kMostContactSetChanges = 50;
  // The sequential passes that finish a contacts' solve whose active set did not settle.
  static constexpr int kFinishingPasses = 20;

 private:
  // What the solves of one layout of rows keep: the solver that analyzed it, and scratch.
  struct Rows {
    std::unique_ptr<LinearSolver> solver;
    std::vector<char> mask;                 // [m] the rows held out of the current solve
    std::vector<char> active;               // [m] the projection's rows
    ConstraintMatrix::Workspace workspace;  // the products of every solve's matrix
    Eigen::VectorXd rhs, delta, Jv;         // [m]
    // Sized for the rows' layout, which the solver analyzes (spring rows held out).
    template <class RowSet>
    void layOut(const RowSet& rows, const BlockDiagonalMatrix& W);
    void resize(Eigen::Index m);
  };
  // The active-set solve of the impulses `lambda` of `rows` (the system's, or with contacts), at
  // most `iterations` times; with spring rows the system's goes on to the cap (their sequential
  // passes need the repeats), the contacts' to `minimumIterations` and then until the set settles.
  // Returns whether the set settled within the cap.
  template <class RowSet>
  bool solveBounded(const RowSet& rows, Rows& with, const BlockDiagonalMatrix& W, std::vector<char>& held,
                    Eigen::VectorXd& lambda, Eigen::VectorXd& v, SequentialImpulses& springs, int iterations,
                    SolveTally& tally, int minimumIterations = 0);
  // Projected Gauss–Seidel on the rows but the spring rows, `passes` times: each row's impulse
  // moved by −(J_r v + b_r)/K_r into its bounds, K_r = J_r W J_rᵀ, and v with it.
  template <class RowSet>
  void sequentialPasses(const RowSet& rows, const BlockDiagonalMatrix& W, Eigen::VectorXd& lambda, Eigen::VectorXd& v,
                        int passes);
  // Newton's projection of q onto the rows' C = 0 (equality) and C ≥ 0 (inequality);
  // evaluate(q) evaluates them at q.
  template <class RowSet, class Evaluate>
  ProjectionResult projectRows(RowSet& rows, Rows& with, const BlockDiagonalMatrix& W, Eigen::VectorXd& q,
                               Evaluate&& evaluate, const ProjectionSettings& settings, SolveTally& tally);
  // Sets the mask to the held rows plus the spring rows, and solves J W Jᵀ δ = rhs with them held
  // out; δ starts from zero.
  template <class RowSet>
  SolveStats solveHeldOut(const RowSet& rows, Rows& with, const BlockDiagonalMatrix& W, const std::vector<char>& held,
                          double tolerance);

  Rows joints_;                           // the system's rows
  Rows contactImpulses_, contactProjection_;  // with the contacts' (the impulses', the projection's)
  std::vector<RowKind> kinds_;            // of the system's rows, as built
  std::array<std::vector<char>, 2> held_; // [m] the impulse passes' active sets
  std::vector<char> contactHeld_;         // the contact pass's, for its rows of the moment
  std::vector<std::pair<Eigen::Index, Eigen::Index>> motorLimits_;  // (motor, limit of its joint), rows
  Eigen::VectorXd JtDelta_, displacement_, trial_, lambda_;  // [n] scratch; the contact pass's λ
  Eigen::VectorXd rowMass_;  // the contact pass's K_r = J_r W J_rᵀ (sequentialPasses)
  ContactImpulseRows impulseRows_;
  ContactProjectionRows projectionRows_;
};

}  // namespace tinkertoy
