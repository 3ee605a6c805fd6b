// TreeFactorization: A = J W Jᵀ + S solved through the primal–dual matrix
//
//   H = [ M   Jᵀ ]     H [ x ] = [  0 ]   ⇔   (J W Jᵀ + S) λ = b,   x = −W Jᵀ λ
//       [ J  −S  ]       [ λ ]   [ −b ]
//
// in the order of a spanning forest of bodies and constraints, after Baraff (Linear-time dynamics
// using Lagrange multipliers, SIGGRAPH 1996). H = L D Lᵀ block by block, one block per node
// (a body, n_b × n_b; a constraint, its rows), each node before its parent:
//
//   D_i = H_ii − Σ_{children c} L_ic D_c L_icᵀ,     L_pi = H_pi D_i⁻¹   (p the parent of i)
//
// where H_ii is M_b = W_b⁻¹ or −S_c and H_pi a block of J or its transpose. A node has one
// later neighbour, its parent, so nothing fills in: the cost is linear in the number of bodies
// and constraints on any forest, and a body shared by many joints (a star) costs nothing more,
// where J W Jᵀ would be dense. Body pivots stay positive definite and constraint pivots negative
// definite (src/solvers/constraint_forest.hpp says why the order guarantees it).
//
// Constraints that close loops (auxiliary, k rows in all) are solved through the tree by their
// Schur complement, Baraff's §8: with B their columns of the primal–dual matrix and H_T the
// tree's,
//
//   factor:  Z = H_T⁻¹ B  (k solves with the tree),   S_a = −S_aux − Bᵀ Z  (k × k, dense)
//   solve:   y₀ = H_T⁻¹ f,   λ_a = S_a⁻¹ (g − Bᵀ y₀),   y = y₀ − Z λ_a
//
// which costs O(k n) per factorization and per solve: for a few loops (a four-bar, a
// strandbeest) almost nothing, for a cloth with a loop per cell far more than a sparse
// factorization of J W Jᵀ (makeFactorization chooses).
//
// analyze() throws std::invalid_argument for a model with so many loops that Z would pass
// kMostSchurEntries (a cloth, a large joint grid): the sparse factorizations suit it.
//
// A constraint pivot, or a pivot of S_a, below 1e-12 of its row's A_ii is reported as a
// SingularSystemError naming the row, as the sparse factorizations do. Rows held out of A
// (ConstraintMatrix) have a zero row of J and −1 on the diagonal, so they read λ_i = b_i.
//
//   TreeFactorization f;
//   f.analyze(A);  f.factorize(A);  f.solveInPlace(x);
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tinkertoy/solvers/factorization.hpp"

namespace tinkertoy {

class ConstraintForest;

class TreeFactorization final : public Factorization {
 public:
  TreeFactorization();
  ~TreeFactorization() override;

  [[nodiscard]] FactorizationKind kind() const override { return FactorizationKind::Tree; }
  void analyze(const ConstraintMatrix& A) override;
  void factorize(const ConstraintMatrix& A) override;
  void solveInPlace(Eigen::VectorXd& x) override;
  [[nodiscard]] FactorizationCost cost() const override { return cost_; }
  void serialize(StateArchive& archive) override;

  // The rows that close loops (solved through the dense Schur complement), after analyze().
  [[nodiscard]] int auxiliaryRows() const;

  // What a factorization of A and a solve would cost, without preparing either; nullopt if A's
  // loops need a Schur complement bigger than kMostSchurEntries (analyze() then refuses it).
  static std::optional<FactorizationCost> estimate(const ConstraintMatrix& A);
  // The most entries of Z = H_T⁻¹ B (tree size × loop rows) the factorization keeps: 400 MB.
  static constexpr double kMostSchurEntries = 5e7;

 private:
  // x ← H_T⁻¹ x for a vector of the tree's primal–dual space [forest size].
  void solveTree(double* x) const;
  // The entries of H_pi, the block between node i and its parent, into out (row-major
  // [s_p × s_i]), with the held rows of the constraint zeroed.
  void couplingBlock(const ConstraintMatrix& A, std::size_t node, double* out) const;

  std::unique_ptr<ConstraintForest> forest_;
  const BlockSparseMatrix* J_ = nullptr;  // of the last factorize()
  Eigen::Index m_ = 0;
  std::vector<std::size_t> inverseAt_, lowerAt_;  // per node: its D⁻¹ and L_pi in the arrays below
  std::vector<double> inverse_, lower_;           // D_i⁻¹ [s_i × s_i], L_pi [s_p × s_i], row-major
  std::vector<Eigen::Index> auxiliaryRow_;        // [k] the system row of each auxiliary row
  // B, by columns: auxiliary row a has entries [auxiliaryStart_[a], auxiliaryStart_[a + 1]) at
  // rows auxiliaryIndex_ of the tree vector, with the values of the last factorization.
  std::vector<std::size_t> auxiliaryStart_;
  std::vector<Eigen::Index> auxiliaryIndex_;
  std::vector<double> auxiliaryValue_;
  Eigen::MatrixXd Z_;                             // [forest size × k]
  Eigen::MatrixXd schur_;                         // [k × k] T = −S_a, then its lower Cholesky factor, row-major
  Eigen::VectorXd diagonal_, tree_, auxiliary_;  // A's diagonal [m]; a tree vector; [k]
  std::vector<double> scratch_;                   // one node's blocks
  FactorizationCost cost_;
};

}  // namespace tinkertoy
