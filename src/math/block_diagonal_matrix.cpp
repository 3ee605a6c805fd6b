#include "tinkertoy/math/block_diagonal_matrix.hpp"

#include <cassert>
#include <stdexcept>

namespace tinkertoy {

void BlockDiagonalMatrix::reset(Eigen::Index size) {
  blocks_.clear();
  denseBlocks_.clear();
  dense_.clear();
  diagonal_.setZero(size);
  blockOfColumn_.assign(static_cast<std::size_t>(size), 0);
}

std::size_t BlockDiagonalMatrix::addBlock(Eigen::Index offset, int size, bool diagonal, bool zero) {
  const Eigen::Index end = blocks_.empty() ? 0 : blocks_.back().offset + blocks_.back().size;
  if (offset != end || size <= 0 || offset + size > this->size()) {
    throw std::out_of_range("BlockDiagonalMatrix::addBlock: blocks must tile the diagonal in order");
  }
  const std::size_t index = blocks_.size();
  if (zero && !diagonal) throw std::invalid_argument("BlockDiagonalMatrix::addBlock: a zero block is a diagonal one");
  blocks_.push_back({offset, size, diagonal, dense_.size(), zero});
  if (!diagonal) {
    denseBlocks_.push_back(index);
    dense_.resize(dense_.size() + static_cast<std::size_t>(size * size), 0.0);
  }
  for (Eigen::Index c = offset; c < offset + size; ++c) blockOfColumn_[static_cast<std::size_t>(c)] = index;
  return index;
}

Eigen::VectorBlock<Eigen::VectorXd> BlockDiagonalMatrix::diagonalBlock(std::size_t block) {
  const Block& b = blocks_[block];
  if (!b.diagonal) throw std::logic_error("BlockDiagonalMatrix: block is dense");
  return diagonal_.segment(b.offset, b.size);
}

Eigen::Map<Eigen::MatrixXd> BlockDiagonalMatrix::denseBlock(std::size_t block) {
  const Block& b = blocks_[block];
  if (b.diagonal) throw std::logic_error("BlockDiagonalMatrix: block is diagonal");
  return {dense_.data() + b.value, b.size, b.size};
}

void BlockDiagonalMatrix::copyBlock(std::size_t block, double* out) const {
  const Block& b = blocks_[block];
  Eigen::Map<Eigen::MatrixXd> full(out, b.size, b.size);
  if (b.diagonal) {
    full.setZero();
    full.diagonal() = diagonal_.segment(b.offset, b.size);
  } else {
    full = Eigen::Map<const Eigen::MatrixXd>(dense_.data() + b.value, b.size, b.size);
  }
}

void BlockDiagonalMatrix::multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  assert(&x != &y && "BlockDiagonalMatrix::multiply cannot work in place");
  y = diagonal_.cwiseProduct(x);
  for (const std::size_t index : denseBlocks_) {
    const Block& b = blocks_[index];
    const Eigen::Map<const Eigen::MatrixXd> W(dense_.data() + b.value, b.size, b.size);
    y.segment(b.offset, b.size).noalias() = W * x.segment(b.offset, b.size);
  }
}

// W_b is symmetric, so row · W_b = (W_b rowᵀ)ᵀ.
void BlockDiagonalMatrix::multiplyDenseRow(const Block& b, const double* row, double* out) const {
  assert(row != out && "BlockDiagonalMatrix::multiplyRow cannot work in place");
  const Eigen::Map<const Eigen::MatrixXd> W(dense_.data() + b.value, b.size, b.size);
  Eigen::Map<Eigen::VectorXd>(out, b.size).noalias() = W * Eigen::Map<const Eigen::VectorXd>(row, b.size);
}

Eigen::MatrixXd BlockDiagonalMatrix::toDense() const {
  Eigen::MatrixXd A = diagonal_.asDiagonal();
  for (const std::size_t index : denseBlocks_) {
    const Block& b = blocks_[index];
    A.block(b.offset, b.offset, b.size, b.size) =
        Eigen::Map<const Eigen::MatrixXd>(dense_.data() + b.value, b.size, b.size);
  }
  return A;
}

}  // namespace tinkertoy
