// SparseLdlt: direct solve of J W Jᵀ x = b with Eigen's simplicial LDLᵀ factorization.
//
// The lower triangle of A is assembled straight from J's blocks through a plan computed
// once per layout (analyze): for every pair of blocks that share a body, which entry of A
// each product term lands in. Each solve first forms J W block by block (W is block-diagonal,
// one block per body), then every term is a dot product of a row of J W with a row of J. The fill-reducing ordering (AMD) and symbolic analysis are
// also done once per layout, so a step costs one numeric factorization and two triangular
// solves, with no allocation.
//
// Redundant constraints make A singular. Without regularization that is reported as a
// SingularSystemError naming the row; with regularization ε > 0, εA_ii is added to each
// diagonal entry, which makes the system solvable at a relative error of about ε.
//
//   SparseLdlt ldlt(0.0);
//   ldlt.analyze(J);
//   ldlt.solve(ConstraintMatrix(J, W), b, lambda);
#pragma once

#include <Eigen/SparseCholesky>
#include <vector>

#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

class SparseLdlt final : public LinearSolver {
 public:
  explicit SparseLdlt(double regularization);

  [[nodiscard]] std::string_view name() const override { return "ldlt"; }
  void analyze(const BlockSparseMatrix& J) override;
  SolveStats solve(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                   Eigen::VectorXd& x) override;

  // The assembled lower triangle of J W Jᵀ from the last solve, for tests.
  [[nodiscard]] const Eigen::SparseMatrix<double>& lowerTriangle() const { return A_; }

 private:
  // One term of A_rs = Σ_c (J W)_rc J_sc over the columns c of the body two blocks share.
  struct Term {
    std::size_t value;  // index into A_'s value array
    std::size_t rowA;   // offset of row r of the first block in J.values() (and in J W)
    std::size_t rowB;   // offset of row s of the second block
    int width;          // the body's coordinate count
  };
  void assemble(const ConstraintMatrix& A);

  double regularization_;
  std::vector<Term> terms_;
  std::vector<double> JW_;             // J W, laid out like J.values()
  std::vector<std::size_t> diagonal_;  // index of A_ii in A_'s values, per row
  Eigen::SparseMatrix<double> A_;
  Eigen::VectorXd residual_;  // [m] scratch for the reported residual
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> factorization_;
};

}  // namespace tinkertoy
