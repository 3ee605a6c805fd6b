// SupernodalCholesky: A = J W Jᵀ + S factored as P A Pᵀ = L Lᵀ by CHOLMOD's supernodal method
// (SuiteSparse): columns of L with the same pattern are grouped into supernodes, dense blocks that
// the factorization updates with BLAS (Debian's OpenBLAS) instead of entry by entry.
//
// analyze() lets CHOLMOD choose the ordering that gives the fewest flops among AMD, METIS and
// its own nested dissection (NESDIS), lays out the lower triangle of P A Pᵀ already permuted with
// its assembly plan (ConstraintMatrixAssembly), and makes the supernodal symbolic factorization
// of that matrix. factorize() assembles the values straight into CHOLMOD's input matrix and
// factors it; solveInPlace() solves with the factors into work arrays kept between solves. What
// CHOLMOD allocates inside a factorization (its update workspace) comes from a pool that hands
// the same blocks back at the next one (src/solvers/recycling_pool.hpp), so neither allocates
// once the first has run.
//
// On a grid (joint_grid, a large cloth) the factor is wide and the supernodes are big, and
// the dense kernels beat the simplicial factorization; on a chain every supernode is a column
// or two and the simplicial one is faster (makeFactorization chooses by the flop count).
//
// A pivot L_kk² below 1e-12 of its row's diagonal entry A_ii, or a matrix CHOLMOD finds not
// positive definite, is reported as a SingularSystemError naming the row.
//
//   SupernodalCholesky f;
//   f.analyze(A);  f.factorize(A);  f.solveInPlace(x);
#pragma once

#include <memory>
#include <vector>

#include "tinkertoy/solvers/factorization.hpp"

namespace tinkertoy {

class SupernodalCholesky final : public Factorization {
 public:
  SupernodalCholesky();
  ~SupernodalCholesky() override;
  SupernodalCholesky(const SupernodalCholesky&) = delete;
  SupernodalCholesky& operator=(const SupernodalCholesky&) = delete;

  [[nodiscard]] FactorizationKind kind() const override { return FactorizationKind::Supernodal; }
  void analyze(const ConstraintMatrix& A) override;
  void factorize(const ConstraintMatrix& A) override;
  void solveInPlace(Eigen::VectorXd& x) override;
  [[nodiscard]] FactorizationCost cost() const override { return cost_; }
  bool factoredDiagonal(Eigen::VectorXd& d) const override;
  void serialize(StateArchive& archive) override;

 private:
  struct Cholmod;  // CHOLMOD's common block and matrices, kept out of this header
  // Factors the identity in A's pattern, which allocates the numeric factor as any factorization
  // of the layout does: a restore then needs only the numbers.
  void factorIdentity();
  // Throws if a pivot of the last factorization is not positive enough.
  void checkPivots() const;

  std::unique_ptr<Cholmod> cholmod_;
  int m_ = 0;
  std::vector<int> pivotRow_;  // [m] P: the row of A eliminated k-th
  FactorizationCost cost_;
};

}  // namespace tinkertoy
