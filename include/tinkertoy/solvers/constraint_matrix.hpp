// ConstraintMatrix: A = J W Jᵀ, the matrix of the multiplier equation (seed 000 eq. 11).
//
// It is never formed for the iterative solver: apply() computes A x as J (W (Jᵀ x)) with the
// block-sparse products, exactly as seed 000 §4.4 describes. Since A is symmetric no
// transpose product is needed.
//
//   J: [m × n] block-sparse Jacobian     W: [n] diagonal inverse mass     A: [m × m]
//
//   ConstraintMatrix A(J, W);
//   A.apply(x, y);    // y = J W Jᵀ x
#pragma once

#include <Eigen/Core>

#include "tinkertoy/math/block_sparse_matrix.hpp"

namespace tinkertoy {

class ConstraintMatrix {
 public:
  ConstraintMatrix(const BlockSparseMatrix& J, const Eigen::VectorXd& W) : J_(J), W_(W) {}

  [[nodiscard]] Eigen::Index size() const { return J_.rows(); }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return J_; }
  [[nodiscard]] const Eigen::VectorXd& inverseMass() const { return W_; }

  // y = J W Jᵀ x.  x, y: [m]
  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    J_.multiplyTransposed(x, scratch_);
    scratch_.array() *= W_.array();
    J_.multiply(scratch_, y);
  }

  // diag(J W Jᵀ)_i = Σ_c J_ic² W_c, summed block by block.  d: [m]
  void diagonal(Eigen::VectorXd& d) const {
    d.setZero(J_.rows());
    const auto values = J_.values();
    for (const BlockSparseMatrix::Block& b : J_.blocks()) {
      for (int r = 0; r < b.rows; ++r) {
        double sum = 0.0;
        for (int c = 0; c < b.cols; ++c) {
          const double j = values[b.offset + static_cast<std::size_t>(r * b.cols + c)];
          sum += j * j * W_[b.col + c];
        }
        d[b.row + r] += sum;
      }
    }
  }

 private:
  const BlockSparseMatrix& J_;
  const Eigen::VectorXd& W_;
  mutable Eigen::VectorXd scratch_;  // Jᵀ x, [n]; reused so apply() does not allocate
};

}  // namespace tinkertoy
