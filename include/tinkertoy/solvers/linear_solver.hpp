// LinearSolver: solves J W Jᵀ x = b for the Lagrange multipliers (or projection steps).
//
// Two solvers sit behind this interface, chosen at run time:
//   ConjugateGradient  matrix-free, warm-started from x, tolerates redundant constraints
//   DirectSolver       a sparse factorization (simplicial LDLᵀ, supernodal Cholesky or Baraff's
//                      tree; solvers/factorization.hpp), exact to round-off, reused as a CG
//                      preconditioner while the matrix changes little ("ldlt")
//
//   auto solver = makeLinearSolver(SolverSettings{.kind = SolverKind::ConjugateGradient});
//   solver->analyze(A);                              // after the layout of J or W changes
//   SolveStats stats = solver->solve(A, b, x);       // A = ConstraintMatrix(J, W)
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "tinkertoy/math/block_sparse_matrix.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"
#include "tinkertoy/solvers/factorization.hpp"

namespace tinkertoy {

// cg and ldlt solve J W Jᵀ x = b as a whole (at the velocity level, for all equality rows at
// once); sequential impulses (velocity level only) go row block by row block.
enum class SolverKind { ConjugateGradient, SparseLdlt, SequentialImpulses };

// The largest damping: ε = 1 already solves (J W Jᵀ + diag) instead of J W Jᵀ.
inline constexpr double kMostRegularization = 1.0;

struct SolverSettings {
  SolverKind kind = SolverKind::ConjugateGradient;
  // CG stops when ‖b − A x‖ ≤ tolerance · ‖b‖.
  double tolerance = 1e-10;
  // CG iteration cap; 0 means 2 m + 100 for m rows.
  int maxIterations = 0;
  // Damping ε of every solve (cg and ldlt): J W Jᵀ x = b is solved by iterative refinement on
  // J W Jᵀ + ε diag(J W Jᵀ), which converges to the exact x along every direction whose
  // eigenvalue is well above ε diag and stays bounded along those near zero, where J loses rank
  // (a singular configuration, redundant rows): damped least squares there (docs/theory.md,
  // "Singular configurations"). 0 solves J W Jᵀ as it is, and the direct solve then refuses
  // redundant rows.
  double regularization = 1e-8;  // at most kMostRegularization
  // The direct solve's factorization; Automatic picks by the model (solvers/factorization.hpp).
  FactorizationKind factorization = FactorizationKind::Automatic;
  // The most CG iterations the direct solve may spend with a factorization of an earlier matrix
  // as preconditioner before it factors the matrix of now: 0 factors at every solve; −1 (the
  // default) sets it from the costs, to what one factorization costs in iterations.
  int reuseIterations = -1;
};

struct SolveStats {
  int iterations = 0;       // CG iterations; 1 for a solve with a fresh factorization; 0 if
                            // there was nothing to solve
  double residual = 0.0;    // ‖b − A x‖ / ‖b‖ of the returned x (0 when b = 0)
  bool factorized = false;  // the solve factored the matrix
};

// Totals over linear solves since the last reset.
struct SolveTally {
  int solves = 0;
  long iterations = 0;
  int factorizations = 0;
  int relinearized = 0;  // velocity-level solves redone linearized at the predicted state (the
                         // energy safeguard, VelocityFormulation)
  double maxResidual = 0.0;

  void add(const SolveStats& s) {
    ++solves;
    iterations += s.iterations;
    factorizations += s.factorized ? 1 : 0;
    maxResidual = s.residual > maxResidual ? s.residual : maxResidual;
  }
};

// Thrown by the direct solver when J W Jᵀ is singular, and why, as LinearSolver::solve finds it
// from the row's diagonal entry: the row is redundant with others (its entry is fine: only a
// regularization of 0 lets this through), it has no gradient at this state (its entry is 0), or
// the matrix is not finite there (the state ran away within the step).
class SingularSystemError : public std::runtime_error {
 public:
  enum class Cause { Redundant, NoGradient, NotFinite };
  explicit SingularSystemError(Eigen::Index row, Cause cause = Cause::Redundant);
  // The constraint row at which the factorization found a zero pivot.
  [[nodiscard]] Eigen::Index row() const { return row_; }
  [[nodiscard]] Cause cause() const { return cause_; }

 private:
  Eigen::Index row_;
  Cause cause_;
};

class LinearSolver {
 public:
  // regularization ε ≥ 0 (finite): every solve is of A + ε diag(A) (SolverSettings).
  explicit LinearSolver(double regularization);
  virtual ~LinearSolver() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Prepares for a new block layout of A's J and W (called when constraints or bodies change):
  // the symbolic analysis, counted by analyses().
  void analyze(const ConstraintMatrix& A);
  // How many times analyze() has run on this solver.
  [[nodiscard]] long analyses() const { return analyses_; }
  // Solves A x = b to a relative residual `tolerance` (0: the solver's own; a direct solve with
  // a fresh factorization is exact regardless). On entry x is the warm start and must have size
  // b.size(). With a regularization ε > 0, a solution dominated by near-null directions of A
  // (bᵀx < kNearNullMargin · ε · xᵀ diag(A) x) or not finite, or a zero pivot (after which every
  // solve of the layout is damped at once), has the solve redone damped from
  // the warm start: x solves A_ε x = b, A_ε = A + ε diag(A), to a relative residual of ε at
  // the tightest, and then up to kMostRefinements refinements x += A_ε⁻¹ (b − A x) take it
  // toward A x = b, to the tolerance, while each at least halves that residual. The residual
  // reported is then A_ε's of the damped solve; the iterations, those of all. A singular A that
  // the damping does not cure throws SingularSystemError with its cause.
  SolveStats solve(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x, double tolerance);
  // The same to the solver's own tolerance.
  SolveStats solve(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x) { return solve(A, b, x, 0.0); }
  // What the solver carries from one solve to the next (whether the layout has redundant rows,
  // a factorization it may reuse), saved or restored (Simulator::saveState) for the same layout.
  void serialize(StateArchive& archive);
  // Takes the layout for one with redundant rows, whatever its solves meet: every solve of it is
  // damped at once (solve()). With no reuse either (SolverSettings::reuseIterations 0), what a
  // solve computes then depends on the matrix alone, not on whether an earlier solve of the
  // layout met a zero pivot: the exact mode's contact rows, which are redundant more often than
  // not (a face on a pile), and whose layout a restored run lays out afresh.
  void dampEverySolve() { redundantLayout_ = true; }

 private:
  // A solver's own part of serialize(): none unless it keeps something between solves.
  virtual void serializeSolver(StateArchive& /*archive*/) {}
  virtual void analyzeLayout(const ConstraintMatrix& A) = 0;
  // The relative residual a solve with tolerance 0 reaches.
  [[nodiscard]] virtual double ownTolerance() const = 0;
  // Solves A x = b as solve() describes, A already regularized.
  virtual SolveStats solveSystem(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                 double tolerance) = 0;
  // d = diag(A) for the A of the solve just made; a solver that assembled A reads it there.
  virtual void solvedDiagonal(const ConstraintMatrix& A, Eigen::VectorXd& d) const { A.diagonal(d); }
  // A + ε diag(A), kept in regularized_.
  const ConstraintMatrix& regularized(const ConstraintMatrix& A);
  // Whether the solution x of A x = b lies mostly along directions A nearly annihilates.
  bool dominatedByNearNull(const ConstraintMatrix& A, const Eigen::VectorXd& b, const Eigen::VectorXd& x);
  // solve() but for finding the cause of a SingularSystemError.
  SolveStats solveWithDamping(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x, double tolerance);
  // The damped solve and its refinements (solve()).
  SolveStats solveDamped(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x, double tolerance);

  static constexpr int kMostRefinements = 3;
  // Damping changes a solution only along directions of A with s ≲ ε d (the refinements restore
  // the rest), so a Rayleigh quotient 100 ε and more marks a solution it would leave as it is:
  // a long chain's or a cloth's smooth modes (s/d of 1e-6 on 1000 links) are not near-null.
  static constexpr double kNearNullMargin = 100.0;

  long analyses_ = 0;
  double regularization_;
  Eigen::VectorXd shift_;  // [m] S + ε diag(A), S the shift A already has
  std::optional<ConstraintMatrix> regularized_;
  Eigen::VectorXd residual_, correction_, product_, start_;  // [m] scratch
  bool redundantLayout_ = false;  // a factorization of this layout met a zero pivot: damp at once
};

// ‖b − A x‖ / ‖b‖, or 0 if b = 0. Every solver reports this for the x it returns (of the damped
// A when LinearSolver::solve damped the solve).
// scratch: [m] work vector, resized if needed.
double relativeResidual(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                        const Eigen::VectorXd& x, Eigen::VectorXd& scratch);

std::unique_ptr<LinearSolver> makeLinearSolver(const SolverSettings& settings);

// "cg" / "ldlt" / "sequential", as used by scenes and the command line.
std::string_view solverName(SolverKind kind);
std::optional<SolverKind> parseSolver(std::string_view name);

}  // namespace tinkertoy
