// SimplicialLdlt: A = J W Jᵀ + S factored as P A Pᵀ = L D Lᵀ, column by column (an up-looking,
// "simplicial" factorization: Davis's LDL, from SuiteSparse), in a fill-reducing ordering (the
// best of AMD, METIS and nested dissection: solvers/fill_reducing_ordering.hpp).
//
// analyze() orders A's pattern, lays out the upper triangle of P A Pᵀ with its assembly
// plan (ConstraintMatrixAssembly) and computes the elimination tree and the column counts of L.
// factorize() assembles the values straight into that storage and factors; solveInPlace()
// runs the two triangular solves and the diagonal one. Every work array is sized by analyze(),
// so neither allocates. The cost is Σ_j c_j² flops per factorization and 4 Σ_j c_j per solve,
// c_j the entries below the diagonal in column j of L: linear in the size of a chain, whose
// J W Jᵀ is tridiagonal.
//
// Redundant constraints make A singular. A pivot below 1e-12 of its row's diagonal entry A_ii is
// reported as a SingularSystemError naming that row: in elimination order, the first row that
// depends on those eliminated before it.
//
//   SimplicialLdlt f;
//   f.analyze(A);  f.factorize(A);  f.solveInPlace(x);
#pragma once

#include <memory>
#include <vector>

#include "tinkertoy/solvers/factorization.hpp"

namespace tinkertoy {

class ConstraintMatrixAssembly;

class SimplicialLdlt final : public Factorization {
 public:
  SimplicialLdlt();
  ~SimplicialLdlt() override;

  [[nodiscard]] FactorizationKind kind() const override { return FactorizationKind::Simplicial; }
  void analyze(const ConstraintMatrix& A) override;
  void factorize(const ConstraintMatrix& A) override;
  void solveInPlace(Eigen::VectorXd& x) override;
  [[nodiscard]] FactorizationCost cost() const override { return cost_; }
  bool factoredDiagonal(Eigen::VectorXd& d) const override;
  void serialize(StateArchive& archive) override;

 private:
  // Factors the identity in A's pattern, which fills in the pattern of L (Li_) as any
  // factorization of the layout does: a restore then needs only the numbers.
  void factorIdentity();

  std::unique_ptr<ConstraintMatrixAssembly> assembly_;
  int m_ = 0;
  std::vector<int> pivotRow_;  // [m] P: the row of A eliminated k-th
  std::vector<int> columnStarts_, rowIndices_;  // the upper triangle of P A Pᵀ
  std::vector<double> values_;
  // L (strictly lower, compressed columns), D, the elimination tree and LDL's workspaces.
  std::vector<int> Lp_, Li_, parent_, Lnz_, pattern_, flag_;
  std::vector<double> Lx_, D_, Y_;
  Eigen::VectorXd permuted_;  // [m] P x
  FactorizationCost cost_;
};

}  // namespace tinkertoy
