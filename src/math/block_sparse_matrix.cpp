#include "tinkertoy/math/block_sparse_matrix.hpp"

#include <algorithm>
#include <stdexcept>

namespace tinkertoy {

void BlockSparseMatrix::reset(Eigen::Index rows, Eigen::Index cols) {
  rows_ = rows;
  cols_ = cols;
  blocks_.clear();
  values_.clear();
  rowOf_.clear();
  columnOf_.clear();
}

std::size_t BlockSparseMatrix::reserveBlock(Eigen::Index row, Eigen::Index col, int rows, int cols) {
  if (row < 0 || col < 0 || rows <= 0 || cols <= 0 || cols > kMaxBlockWidth || row + rows > rows_ || col + cols > cols_) {
    throw std::out_of_range("BlockSparseMatrix::reserveBlock: block outside the matrix");
  }
  const std::size_t offset = values_.size();
  blocks_.push_back({row, col, rows, cols, offset});
  values_.resize(offset + static_cast<std::size_t>(rows * cols), 0.0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      rowOf_.push_back(static_cast<int>(row + r));
      columnOf_.push_back(static_cast<int>(col + c));
    }
  }
  return offset;
}

void BlockSparseMatrix::setZero() { std::fill(values_.begin(), values_.end(), 0.0); }

void BlockSparseMatrix::multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  y.setZero(rows_);
  const double* a = values_.data();
  const int* row = rowOf_.data();
  const int* column = columnOf_.data();
  const double* in = x.data();
  double* out = y.data();
  for (std::size_t k = 0; k < values_.size(); ++k) out[row[k]] += a[k] * in[column[k]];
}

void BlockSparseMatrix::multiplyTransposed(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  y.setZero(cols_);
  const double* a = values_.data();
  const int* row = rowOf_.data();
  const int* column = columnOf_.data();
  const double* in = x.data();
  double* out = y.data();
  for (std::size_t k = 0; k < values_.size(); ++k) out[column[k]] += a[k] * in[row[k]];
}

Eigen::SparseMatrix<double> BlockSparseMatrix::toSparse() const {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(values_.size());
  for (const Block& b : blocks_) {
    for (int r = 0; r < b.rows; ++r) {
      for (int c = 0; c < b.cols; ++c) {
        triplets.emplace_back(b.row + r, b.col + c, values_[b.offset + r * b.cols + c]);
      }
    }
  }
  Eigen::SparseMatrix<double> A(rows_, cols_);
  A.setFromTriplets(triplets.begin(), triplets.end());
  return A;
}

}  // namespace tinkertoy
