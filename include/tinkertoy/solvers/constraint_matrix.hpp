// ConstraintMatrix: A = J W Jᵀ + S, the matrix of the multiplier equation (seed 000 eq. 11),
// with an optional diagonal S (zero unless given).
//
// It is never formed for the iterative solver: apply() computes A x as J (W (Jᵀ x)) with the
// block-sparse products, exactly as seed 000 §4.4 describes. Since A is symmetric no
// transpose product is needed.
//
// S lets a solve hold some rows out without changing the layout: a row of J that is zero with
// S_ii = 1 reads δ_i = b_i (an active-set iteration sets b_i = 0 for a row it leaves out).
//
//   J: [m × n] block-sparse Jacobian   W: [n × n] block-diagonal inverse mass   A, S: [m × m]
//
//   ConstraintMatrix A(J, W);
//   A.apply(x, y);    // y = J W Jᵀ x
#pragma once

#include <Eigen/Core>

#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/math/block_sparse_matrix.hpp"

namespace tinkertoy {

class ConstraintMatrix {
 public:
  // shift: the diagonal of S, [m], which must outlive the matrix; none for S = 0.
  ConstraintMatrix(const BlockSparseMatrix& J, const BlockDiagonalMatrix& W, const Eigen::VectorXd* shift = nullptr)
      : J_(J), W_(W), shift_(shift) {}

  [[nodiscard]] Eigen::Index size() const { return J_.rows(); }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return J_; }
  [[nodiscard]] const BlockDiagonalMatrix& inverseMass() const { return W_; }
  // The diagonal of S, or null.
  [[nodiscard]] const Eigen::VectorXd* shift() const { return shift_; }

  // y = (J W Jᵀ + S) x.  x, y: [m]
  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    J_.multiplyTransposed(x, scratch_);
    W_.multiply(scratch_, weighted_);
    J_.multiply(weighted_, y);
    if (shift_) y += shift_->cwiseProduct(x);
  }

  // diag(A)_i = Σ over the blocks B of row i of (B W_b Bᵀ)_ii, plus S_ii.  d: [m]
  void diagonal(Eigen::VectorXd& d) const;

 private:
  const BlockSparseMatrix& J_;
  const BlockDiagonalMatrix& W_;
  const Eigen::VectorXd* shift_;
  // Jᵀ x and W Jᵀ x, [n]; reused so apply() does not allocate.
  mutable Eigen::VectorXd scratch_, weighted_;
};

}  // namespace tinkertoy
