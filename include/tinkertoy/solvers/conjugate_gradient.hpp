// ConjugateGradient: matrix-free preconditioned CG on J W Jᵀ x = b (Witkin, "Constrained Dynamics", §4.4).
//
// A is touched only through ConstraintMatrix::apply, i.e. J (W (Jᵀ p)): the matrix is never
// formed. The preconditioner is Jacobi, diag(J W Jᵀ), computed block by block; the iteration
// itself is preconditionedConjugateGradient (solvers/preconditioned_cg.hpp). The solve starts
// from the x it is given, so passing last step's λ warm-starts it.
//
// Redundant constraints make A singular but leave b in its range (identical rows have
// identical right-hand sides). CG then still converges: the part of x in A's null space
// keeps its starting value, which changes λ but not the force Jᵀλ. If a search direction
// has zero curvature (pᵀ A p ≤ 0) the iteration stops with the best x so far.
//
//   ConjugateGradient cg(1e-10, 500, 0.0);
//   SolveStats s = cg.solve(ConstraintMatrix(J, W), b, lambda);
#pragma once

#include "tinkertoy/solvers/linear_solver.hpp"
#include "tinkertoy/solvers/preconditioned_cg.hpp"

namespace tinkertoy {

class ConjugateGradient final : public LinearSolver {
 public:
  // tolerance: relative residual target; maxIterations: cap, 0 for 2 m + 100; regularization
  // ε ≥ 0 (LinearSolver).
  ConjugateGradient(double tolerance, int maxIterations, double regularization);

  [[nodiscard]] std::string_view name() const override { return "cg"; }

 private:
  void analyzeLayout(const ConstraintMatrix& A) override;
  [[nodiscard]] double ownTolerance() const override { return tolerance_; }
  SolveStats solveSystem(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                         double tolerance) override;

  // z = r / diag(A), 1 where a diagonal entry is not positive (a row nothing moves).
  class Jacobi final : public Preconditioner {
   public:
    void apply(const Eigen::VectorXd& r, Eigen::VectorXd& z) override { z = inverseDiagonal.cwiseProduct(r); }
    Eigen::VectorXd inverseDiagonal;  // [m]
  };

  double tolerance_;
  int maxIterations_;
  Jacobi jacobi_;
  CgScratch scratch_;
};

}  // namespace tinkertoy
