// BlockSparseMatrix: a sparse matrix stored as a list of small dense blocks (Witkin, "Constrained Dynamics", §4.2).
//
// Each block has an origin (row, col), a size (rows × cols) and its entries, row-major, in
// one contiguous array shared by all blocks. Constraints reserve their blocks once, when the
// layout is built, and overwrite the entries at every evaluation; the step loop never
// allocates. The two products Witkin's CG needs, A x and Aᵀ x, run over the entries in one flat
// loop, each entry knowing its row and column (recorded when its block was reserved).
// Blocks may overlap; overlapping entries add, as in a sum of per-constraint contributions.
//
//   BlockSparseMatrix J(rows, cols);
//   std::size_t at = J.reserveBlock(0, 2, 1, 2);   // a 1×2 block at (0, 2)
//   J.values()[at] = 1.0;
//   J.multiply(x, y);                              // y = J x
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstddef>
#include <span>
#include <vector>

namespace tinkertoy {

// The widest block (columns): a block spans the coordinates of one body.
inline constexpr int kMaxBlockWidth = 64;

class BlockSparseMatrix {
 public:
  struct Block {
    Eigen::Index row = 0;
    Eigen::Index col = 0;
    int rows = 0;
    int cols = 0;
    std::size_t offset = 0;  // index of the block's first entry in values()
  };

  BlockSparseMatrix() = default;
  BlockSparseMatrix(Eigen::Index rows, Eigen::Index cols) { reset(rows, cols); }

  // Removes every block and sets the matrix size.
  void reset(Eigen::Index rows, Eigen::Index cols);
  // Adds a zero block, at most kMaxBlockWidth wide; returns the offset of its first entry.
  std::size_t reserveBlock(Eigen::Index row, Eigen::Index col, int rows, int cols);

  [[nodiscard]] Eigen::Index rows() const { return rows_; }
  [[nodiscard]] Eigen::Index cols() const { return cols_; }
  [[nodiscard]] std::span<const Block> blocks() const { return blocks_; }
  [[nodiscard]] std::span<double> values() { return values_; }
  [[nodiscard]] std::span<const double> values() const { return values_; }
  // The column of each entry of values().
  [[nodiscard]] std::span<const int> columns() const { return columnOf_; }
  void setZero();

  // y = A x.   x: [cols], y: [rows] (resized if needed)
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  // y = Aᵀ x.  x: [rows], y: [cols] (resized if needed)
  void multiplyTransposed(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;

  // The assembled matrix, for direct solvers and tests.
  [[nodiscard]] Eigen::SparseMatrix<double> toSparse() const;

 private:
  Eigen::Index rows_ = 0;
  Eigen::Index cols_ = 0;
  std::vector<Block> blocks_;
  std::vector<double> values_;
  std::vector<int> rowOf_, columnOf_;  // of each entry of values_
};

}  // namespace tinkertoy
