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

// Eigen's simplicial LDLᵀ on a matrix that is already in its fill-reducing order. Its public
// factorize() copies the input into a fresh matrix; the preordered factorization it calls
// works on the input directly, so exposing that saves an allocation per solve.
class PreorderedLdlt
    : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Upper, Eigen::NaturalOrdering<int>> {
 public:
  void factorizePreordered(const Eigen::SparseMatrix<double>& upper) { factorize_preordered<true>(upper); }
};

class SparseLdlt final : public LinearSolver {
 public:
  explicit SparseLdlt(double regularization);

  [[nodiscard]] std::string_view name() const override { return "ldlt"; }
  void analyze(const BlockSparseMatrix& J) override;
  SolveStats solve(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                   Eigen::VectorXd& x) override;

  // The whole J W Jᵀ of the last solve, in the original row order, for tests.
  [[nodiscard]] Eigen::SparseMatrix<double> assembledMatrix() const;

 private:
  // One term of A_rs = Σ_c (J W)_rc J_sc over the columns c of the body two blocks share.
  struct Term {
    std::size_t value;  // index into A_'s value array (the upper triangle of P A Pᵀ)
    std::size_t rowA;   // offset of row r of the first block in J.values() (and in J W)
    std::size_t rowB;   // offset of row s of the second block
    int width;          // the body's coordinate count
  };
  void assemble(const ConstraintMatrix& A);

  double regularization_;
  std::vector<Term> terms_;
  std::vector<double> JW_;             // J W, laid out like J.values()
  std::vector<std::size_t> diagonal_;  // index of A_ii in A_'s values, per original row i
  Eigen::SparseMatrix<double> A_;      // upper triangle of P A Pᵀ
  // Row i of A is row P(i) of P A Pᵀ; Pinv is the inverse, from pivots back to rows of A.
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P_, Pinv_;
  Eigen::VectorXd permuted_, residual_;  // [m] scratch: P b and P x; b − A x
  PreorderedLdlt factorization_;
};

}  // namespace tinkertoy
