// ConjugateGradient: matrix-free preconditioned CG on J W Jᵀ x = b (seed 000 §4.4).
//
// A is touched only through ConstraintMatrix::apply, i.e. J (W (Jᵀ p)): the matrix is never
// formed. The preconditioner is Jacobi, diag(J W Jᵀ), computed block by block. The solve
// starts from the x it is given, so passing last step's λ warm-starts it.
//
// Redundant constraints make A singular but leave b in its range (identical rows have
// identical right-hand sides). CG then still converges: the part of x in A's null space
// keeps its starting value, which changes λ but not the force Jᵀλ. If a search direction
// has zero curvature (pᵀ A p ≤ 0) the iteration stops with the best x so far.
//
//   ConjugateGradient cg(1e-10, 500);
//   SolveStats s = cg.solve(ConstraintMatrix(J, W), b, lambda);
#pragma once

#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

class ConjugateGradient final : public LinearSolver {
 public:
  // tolerance: relative residual target; maxIterations: cap, 0 for 2 m + 100.
  ConjugateGradient(double tolerance, int maxIterations);

  [[nodiscard]] std::string_view name() const override { return "cg"; }
  void analyze(const BlockSparseMatrix& J) override;
  SolveStats solve(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                   Eigen::VectorXd& x) override;

 private:
  double tolerance_;
  int maxIterations_;
  Eigen::VectorXd r_, z_, p_, Ap_, inverseDiagonal_;  // [m] scratch, sized by analyze()
};

}  // namespace tinkertoy
