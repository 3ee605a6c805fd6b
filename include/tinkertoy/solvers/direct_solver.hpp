// DirectSolver: J W Jᵀ x = b by a sparse factorization (the "ldlt" solver), factored as seldom
// as accuracy allows.
//
// A factorization is exact for the matrix it was computed from. Between steps, stages,
// substeps and projection iterations the matrix moves a little (J follows the bodies), and a
// factorization of a nearby matrix is an excellent preconditioner for conjugate gradient on the
// matrix of now: its preconditioned spectrum clusters at 1. So each solve first tries CG
// preconditioned by the last factorization, from the caller's warm start, to a relative
// residual of 1e-12; only if that needs more than a few iterations does it factor the current
// matrix and solve directly. "A few" is set by the costs the symbolic analysis counts: as many
// iterations as one factorization (with its assembly) costs, at most 30 and at least 0, where 0
// factors at every solve — what a chain gets, whose factorization costs less than one iteration
// (SolverSettings::reuseIterations overrides it). The solve is exact in either case: to
// round-off, or to the 1e-12 residual (10× a fresh solve's own residual where the system is so
// ill-conditioned that round-off is above that).
//
//   DirectSolver solver(FactorizationKind::Automatic, 0.0, -1);
//   solver.analyze(A);
//   SolveStats s = solver.solve(A, b, x);   // s.factorized: whether it factored
#pragma once

#include <memory>

#include "tinkertoy/solvers/factorization.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"
#include "tinkertoy/solvers/preconditioned_cg.hpp"

namespace tinkertoy {

class DirectSolver final : public LinearSolver {
 public:
  // The residual a solve with a stale factorization must reach (a fresh one's is round-off).
  static constexpr double kReuseTolerance = 1e-12;

  // kind: which factorization (Automatic: by the model); regularization ε ≥ 0; reuseIterations:
  // −1 automatic, 0 never reuse, N the most CG iterations with a stale factorization.
  DirectSolver(FactorizationKind kind, double regularization, int reuseIterations);

  [[nodiscard]] std::string_view name() const override { return "ldlt"; }

  // The factorization analyze() chose (null before the first analyze()).
  [[nodiscard]] const Factorization* factorization() const { return factorization_.get(); }
  // The CG iterations a stale factorization may take, as set or computed by analyze().
  [[nodiscard]] int reuseCap() const { return reuseCap_; }

 private:
  void analyzeLayout(const ConstraintMatrix& A) override;
  // A fresh factorization's round-off, and what a stale one's CG iterations must reach.
  [[nodiscard]] double ownTolerance() const override { return kReuseTolerance; }
  // A caller's tolerance above the solver's own lets CG with a stale factorization stop early
  // (an inexact Newton step); a fresh factorization solves exactly either way.
  SolveStats solveSystem(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                         double tolerance) override;
  // From the factorization when the last solve factored A; from J and W otherwise.
  void solvedDiagonal(const ConstraintMatrix& A, Eigen::VectorXd& d) const override;
  // Whether a factorization is there to reuse, the factorization and the reuse's backoff.
  void serializeSolver(StateArchive& archive) override;

  // z = A_f⁻¹ r with the last factorization.
  class FactorPreconditioner final : public Preconditioner {
   public:
    explicit FactorPreconditioner(DirectSolver& solver) : solver_(solver) {}
    void apply(const Eigen::VectorXd& r, Eigen::VectorXd& z) override;

   private:
    DirectSolver& solver_;
  };

  FactorizationKind kind_;
  int reuseIterations_;
  int reuseCap_ = 0;
  int skipReuse_ = 0;     // solves left that factor without trying reuse (after one failed)
  int reuseBackoff_ = 1;  // the skip after the next failure: doubles per failure, 1 after a success
  std::unique_ptr<Factorization> factorization_;
  bool factored_ = false;         // the factorization holds a matrix of the current layout
  bool factoredLast_ = false;     // the last solve factored its matrix (did not reuse)
  double reuseTolerance_ = 0.0;   // the residual a CG solve with it must reach
  FactorPreconditioner preconditioner_{*this};
  CgScratch scratch_;
  Eigen::VectorXd residual_;  // [m]
};

// The factorization `kind` names; for Automatic, the one that suits A's structure and size.
std::unique_ptr<Factorization> makeFactorization(FactorizationKind kind, const ConstraintMatrix& A);

}  // namespace tinkertoy
