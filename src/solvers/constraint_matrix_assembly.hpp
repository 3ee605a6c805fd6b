// ConstraintMatrixAssembly: A = J W Jᵀ + S assembled from J's blocks into compressed-column
// storage, the upper or lower triangle of P A Pᵀ for a symmetric ordering P, through a plan made once
// per layout (a scatter map), so that each assembly is a loop of short dot products with no
// search, no allocation and no virtual call.
//
// Row i of J meets row j wherever a block of each covers the same body; W is block-diagonal,
// so (J W Jᵀ)_ij = Σ over the bodies b they share of (J_ib W_b) · J_jb: one term per pair of
// block rows on a body. The plan lists, for every term, where its value goes and which two block
// rows it multiplies; an assembly first forms J W block row by block row, then adds each term.
//
//   ConstraintMatrixAssembly assembly;
//   assembly.analyze(J);                                  // the terms, unordered
//   Eigen::SparseMatrix<double> lower = assembly.pattern();   // for an ordering (AMD, METIS)
//   assembly.layOut(P, Triangle::Upper);                  // CSC of the upper triangle of P A Pᵀ
//   assembly.assemble(A, values);                         // values: [nonZeros()]
#pragma once

#include <Eigen/SparseCore>
#include <span>
#include <vector>

#include "tinkertoy/solvers/constraint_matrix.hpp"

namespace tinkertoy {

class ConstraintMatrixAssembly {
 public:
  enum class Triangle { Upper, Lower };

  // The terms of A for J's block layout.
  void analyze(const BlockSparseMatrix& J);
  // The pattern of A's lower triangle, diagonal included, in the original row order.
  [[nodiscard]] Eigen::SparseMatrix<double, Eigen::ColMajor, int> pattern() const;
  // Lays out one triangle of P A Pᵀ, where row i of A is row position[i] of P A Pᵀ (empty:
  // P = I).  position: [m]
  void layOut(std::span<const int> position, Triangle triangle);

  // Writes the entries of the triangle of P A Pᵀ, column by column as laid out; a held row of A
  // gets 1 on the diagonal and nothing else. values: [nonZeros()]
  void assemble(const ConstraintMatrix& A, double* values);

  [[nodiscard]] Eigen::Index rows() const { return rows_; }
  [[nodiscard]] std::span<const int> columnStarts() const { return columnStarts_; }  // [m + 1]
  [[nodiscard]] std::span<const int> rowIndices() const { return rowIndices_; }      // [nonZeros()]
  [[nodiscard]] std::size_t nonZeros() const { return rowIndices_.size(); }
  // Where A_ii sits in the values, per original row i.
  [[nodiscard]] std::size_t diagonal(Eigen::Index row) const { return diagonal_[static_cast<std::size_t>(row)]; }

 private:
  // A_rs += (J W)_r · J_s over one body's columns.
  struct Term {
    std::size_t value;  // index into the values
    std::size_t rowA;   // offset of block row r in J.values() (and in J W)
    std::size_t rowB;   // offset of block row s
    int width;          // the body's coordinate count
    int r, s;           // the two rows of A, to leave out held ones
  };
  struct Entry {
    int row, col;  // in A's original order, row ≥ col
    Term term;
  };

  Eigen::Index rows_ = 0;
  std::vector<Entry> entries_;  // the terms with their places in A, until layOut()
  std::vector<Term> terms_;
  std::vector<int> columnStarts_, rowIndices_;
  std::vector<std::size_t> diagonal_;
  std::vector<double> JW_;  // J W, laid out like J.values()
};

}  // namespace tinkertoy
