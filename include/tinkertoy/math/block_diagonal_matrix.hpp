// BlockDiagonalMatrix: a square matrix made of square blocks along its diagonal.
//
// Tinkertoy's inverse mass matrix W = M⁻¹ has this shape, one block per body
// (docs/theory.md, "The block-sparse Jacobian"):
// particles (and other bodies whose M is diagonal) store only the diagonal of their block;
// a parametric body stores its dense n_b × n_b block, W_b = M_b(q)⁻¹. The diagonal blocks
// share one vector over all coordinates (zero where a dense block sits), so a product is one
// coefficient-wise multiply plus a small matrix-vector product per dense block.
//
//   BlockDiagonalMatrix W;
//   W.reset(5);
//   std::size_t particle = W.addBlock(0, 2, true);   // entries 0, 1: a 2D particle
//   std::size_t chain = W.addBlock(2, 3, false);     // a dense 3 × 3 block at (2, 2)
//   W.diagonalBlock(particle).setConstant(1.0);
//   W.denseBlock(chain) = Minv;
//   W.multiply(x, y);                                // y = W x
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <span>
#include <vector>

namespace tinkertoy {

class BlockDiagonalMatrix {
 public:
  struct Block {
    Eigen::Index offset = 0;  // first row and column
    int size = 0;
    bool diagonal = true;     // only the diagonal is stored (and non-zero)
    std::size_t value = 0;    // dense blocks: first entry in the dense values, size² column-major
    bool zero = false;        // identically zero, whatever is written in it (a body nothing moves)
  };

  // Removes every block; the matrix becomes size × size and must be covered by blocks.
  void reset(Eigen::Index size);
  // Adds the block at (offset, offset); blocks must be added in order and must not overlap. A
  // zero block is one the matrix's user keeps at zero (a diagonal one).
  std::size_t addBlock(Eigen::Index offset, int size, bool diagonal, bool zero = false);

  [[nodiscard]] Eigen::Index size() const { return diagonal_.size(); }
  [[nodiscard]] std::span<const Block> blocks() const { return blocks_; }
  // The block whose columns include `column`, and its index.
  [[nodiscard]] const Block& blockOfColumn(Eigen::Index column) const {
    return blocks_[blockOfColumn_[static_cast<std::size_t>(column)]];
  }
  [[nodiscard]] std::size_t indexOfColumn(Eigen::Index column) const {
    return blockOfColumn_[static_cast<std::size_t>(column)];
  }
  // Block `block` written out in full, column-major.  out: [size × size]
  void copyBlock(std::size_t block, double* out) const;
  // Whether block `block` was laid out as identically zero (a body nothing moves).
  [[nodiscard]] bool isZeroBlock(std::size_t block) const { return blocks_[block].zero; }
  // The entries of a diagonal block [size] or of a dense one [size × size].
  [[nodiscard]] Eigen::VectorBlock<Eigen::VectorXd> diagonalBlock(std::size_t block);
  [[nodiscard]] Eigen::Map<Eigen::MatrixXd> denseBlock(std::size_t block);

  // y = W x.  x, y: [size] (y resized if needed); x and y must be different vectors.
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  // out = row · W_b for the block b at `column` (where a row of a Jacobian block starts).
  // row, out: [b.size], not overlapping. Inline: the kernels call it for every block of J.
  void multiplyRow(Eigen::Index column, const double* row, double* out) const {
    const Block& b = blockOfColumn(column);
    if (!b.diagonal) {
      multiplyDenseRow(b, row, out);
      return;
    }
    const double* w = diagonal_.data() + b.offset;
    for (int i = 0; i < b.size; ++i) out[i] = row[i] * w[i];
  }

  // Whether every block is diagonal (particles and rigid bodies only): W is then its diagonal.
  [[nodiscard]] bool isDiagonal() const { return denseBlocks_.empty(); }
  // The diagonal blocks' entries, 0 where a dense block sits. [size]
  [[nodiscard]] const Eigen::VectorXd& diagonal() const { return diagonal_; }

  // The assembled matrix, for tests.
  [[nodiscard]] Eigen::MatrixXd toDense() const;

 private:
  void multiplyDenseRow(const Block& b, const double* row, double* out) const;

  std::vector<Block> blocks_;
  std::vector<std::size_t> denseBlocks_;     // indices of the dense blocks
  std::vector<std::size_t> blockOfColumn_;   // [size]
  Eigen::VectorXd diagonal_;                 // [size]: diagonal blocks' entries, 0 elsewhere
  std::vector<double> dense_;                // dense blocks' entries
};

}  // namespace tinkertoy
