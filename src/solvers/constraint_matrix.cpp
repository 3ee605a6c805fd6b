#include "tinkertoy/solvers/constraint_matrix.hpp"

namespace tinkertoy {

void ConstraintMatrix::apply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  Workspace& w = *workspace_;
  if (held_.empty()) {
    J_.multiplyTransposed(x, w.transposed);
    W_.multiply(w.transposed, w.weighted);
    J_.multiply(w.weighted, y);
    if (shift_) y += shift_->cwiseProduct(x);
    return;
  }
  w.masked = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (held_[static_cast<std::size_t>(i)]) w.masked[i] = 0.0;
  }
  J_.multiplyTransposed(w.masked, w.transposed);
  W_.multiply(w.transposed, w.weighted);
  J_.multiply(w.weighted, y);
  if (shift_) y += shift_->cwiseProduct(w.masked);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (held_[static_cast<std::size_t>(i)]) y[i] = x[i];
  }
}

void ConstraintMatrix::diagonal(Eigen::VectorXd& d) const {
  d.setZero(J_.rows());
  const auto values = J_.values();
  double rowTimesW[kMaxBlockWidth];
  for (const BlockSparseMatrix::Block& b : J_.blocks()) {
    for (int r = 0; r < b.rows; ++r) {
      const double* row = values.data() + b.offset + static_cast<std::size_t>(r * b.cols);
      W_.multiplyRow(b.col, row, rowTimesW);
      double sum = 0.0;
      for (int c = 0; c < b.cols; ++c) sum += rowTimesW[c] * row[c];
      d[b.row + r] += sum;
    }
  }
  if (shift_) d += *shift_;
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    if (isHeld(i)) d[i] = 1.0;
  }
}

}  // namespace tinkertoy
