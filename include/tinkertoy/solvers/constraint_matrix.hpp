// ConstraintMatrix: A = J W Jᵀ + S, the matrix of the multiplier equation (Witkin, "Constrained Dynamics", eq. 11),
// with an optional diagonal S and an optional set of rows held out of it.
//
// It is never formed for the iterative solver: apply() computes A x as J (W (Jᵀ x)) with the
// block-sparse products, exactly as Witkin, "Constrained Dynamics", §4.4 describes. Since A is symmetric no
// transpose product is needed.
//
// A held row takes no part: it reads as a row and column of the identity, A_ii = 1 and A_ij = 0,
// so a solve gives it δ_i = b_i, and a caller that passes b_i = 0 leaves it out. That is how the
// velocity level's global solves keep an active set (an inequality row that is slack, a row
// whose impulse sits at a bound) and leave the spring rows to sequential passes, with one
// layout for every solve. With P = diag(1 − held):
//
//   A = P (J W Jᵀ + S) P + (I − P)
//
//   J: [m × n] block-sparse Jacobian   W: [n × n] block-diagonal inverse mass   A, S: [m × m]
//   held: [m], non-zero for a held row (or empty: none)
//
//   ConstraintMatrix A(J, W);
//   A.apply(x, y);    // y = J W Jᵀ x
#pragma once

#include <Eigen/Core>
#include <span>

#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/math/block_sparse_matrix.hpp"

namespace tinkertoy {

class ConstraintMatrix {
 public:
  // Scratch of apply(): P x [m], Jᵀ P x and W Jᵀ P x [n]. A matrix made for one solve can use a
  // workspace that lives longer, so that its products do not allocate.
  struct Workspace {
    Eigen::VectorXd masked, transposed, weighted;
  };

  // shift: the diagonal of S, [m]; held: the held rows, [m]; workspace: scratch for apply() (its
  // own if null). All must outlive the matrix.
  ConstraintMatrix(const BlockSparseMatrix& J, const BlockDiagonalMatrix& W, const Eigen::VectorXd* shift = nullptr,
                   std::span<const char> held = {}, Workspace* workspace = nullptr)
      : J_(J), W_(W), shift_(shift), held_(held), workspace_(workspace ? workspace : &own_) {}
  ConstraintMatrix(const ConstraintMatrix& other)
      : J_(other.J_), W_(other.W_), shift_(other.shift_), held_(other.held_),
        workspace_(other.workspace_ == &other.own_ ? &own_ : other.workspace_) {}
  ConstraintMatrix& operator=(const ConstraintMatrix&) = delete;

  [[nodiscard]] Eigen::Index size() const { return J_.rows(); }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return J_; }
  [[nodiscard]] const BlockDiagonalMatrix& inverseMass() const { return W_; }
  // The diagonal of S, or null.
  [[nodiscard]] const Eigen::VectorXd* shift() const { return shift_; }
  // The held rows, or empty.
  [[nodiscard]] std::span<const char> held() const { return held_; }
  [[nodiscard]] bool isHeld(Eigen::Index row) const { return !held_.empty() && held_[static_cast<std::size_t>(row)]; }
  // The scratch its products use, for a matrix made from this one's J, W and held rows.
  [[nodiscard]] Workspace* workspace() const { return workspace_; }

  // y = A x.  x, y: [m]
  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;

  // diag(A)_i = Σ over the blocks B of row i of (B W_b Bᵀ)_ii, plus S_ii; 1 for a held row.
  // d: [m]
  void diagonal(Eigen::VectorXd& d) const;

 private:
  const BlockSparseMatrix& J_;
  const BlockDiagonalMatrix& W_;
  const Eigen::VectorXd* shift_;
  std::span<const char> held_;
  mutable Workspace own_;
  Workspace* workspace_;
};

}  // namespace tinkertoy
