// ConstraintMatrix: A = J W Jᵀ, the matrix of the multiplier equation (seed 000 eq. 11).
//
// It is never formed for the iterative solver: apply() computes A x as J (W (Jᵀ x)) with the
// block-sparse products, exactly as seed 000 §4.4 describes. Since A is symmetric no
// transpose product is needed.
//
//   J: [m × n] block-sparse Jacobian   W: [n × n] block-diagonal inverse mass   A: [m × m]
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
  ConstraintMatrix(const BlockSparseMatrix& J, const BlockDiagonalMatrix& W) : J_(J), W_(W) {}

  [[nodiscard]] Eigen::Index size() const { return J_.rows(); }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return J_; }
  [[nodiscard]] const BlockDiagonalMatrix& inverseMass() const { return W_; }

  // y = J W Jᵀ x.  x, y: [m]
  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    J_.multiplyTransposed(x, scratch_);
    W_.multiply(scratch_, weighted_);
    J_.multiply(weighted_, y);
  }

  // diag(J W Jᵀ)_i = Σ over the blocks B of row i of (B W_b Bᵀ)_ii.  d: [m]
  void diagonal(Eigen::VectorXd& d) const;

 private:
  const BlockSparseMatrix& J_;
  const BlockDiagonalMatrix& W_;
  // Jᵀ x and W Jᵀ x, [n]; reused so apply() does not allocate.
  mutable Eigen::VectorXd scratch_, weighted_;
};

}  // namespace tinkertoy
