#include "tinkertoy/solvers/constraint_matrix.hpp"

namespace tinkertoy {

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
}

}  // namespace tinkertoy
