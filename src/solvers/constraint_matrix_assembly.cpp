#include "solvers/constraint_matrix_assembly.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tinkertoy {

// Blocks that start at the same column belong to the same body (blocks span a whole body's
// coordinates); every pair of them (b1, b2) contributes B1 W_b B2ᵀ at (rows of b1, rows of b2).
// Only entries on or below the diagonal are kept.
void ConstraintMatrixAssembly::analyze(const BlockSparseMatrix& J) {
  rows_ = J.rows();
  const auto blocks = J.blocks();
  std::vector<std::size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return blocks[a].col < blocks[b].col; });
  entries_.clear();
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first;
    while (last < order.size() && blocks[order[last]].col == blocks[order[first]].col) ++last;
    for (std::size_t i = first; i < last; ++i) {
      for (std::size_t j = first; j < last; ++j) {
        const BlockSparseMatrix::Block& b1 = blocks[order[i]];
        const BlockSparseMatrix::Block& b2 = blocks[order[j]];
        if (b1.cols != b2.cols) throw std::logic_error("blocks of one body differ in width");
        for (int r = 0; r < b1.rows; ++r) {
          for (int s = 0; s < b2.rows; ++s) {
            const auto row = static_cast<int>(b1.row + r), col = static_cast<int>(b2.row + s);
            if (row < col) continue;
            entries_.push_back({row, col,
                                {0, b1.offset + static_cast<std::size_t>(r * b1.cols),
                                 b2.offset + static_cast<std::size_t>(s * b2.cols), b1.cols, row, col}});
          }
        }
      }
    }
    first = last;
  }
  JW_.assign(J.values().size(), 0.0);
}

Eigen::SparseMatrix<double, Eigen::ColMajor, int> ConstraintMatrixAssembly::pattern() const {
  std::vector<Eigen::Triplet<double, int>> triplets;
  triplets.reserve(entries_.size() + static_cast<std::size_t>(rows_));
  for (const Entry& e : entries_) triplets.emplace_back(e.row, e.col, 1.0);
  for (int i = 0; i < rows_; ++i) triplets.emplace_back(i, i, 1.0);
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> lower(rows_, rows_);
  lower.setFromTriplets(triplets.begin(), triplets.end());
  return lower;
}

void ConstraintMatrixAssembly::layOut(std::span<const int> position, Triangle triangle) {
  const auto m = static_cast<std::size_t>(rows_);
  const auto at = [&](int row) { return position.empty() ? row : position[static_cast<std::size_t>(row)]; };
  // (row, col) in the triangle of P A Pᵀ for each entry, and every diagonal entry.
  const auto place = [&](int i, int j) {
    return triangle == Triangle::Upper ? std::pair{std::min(i, j), std::max(i, j)} : std::pair{std::max(i, j), std::min(i, j)};
  };
  std::vector<std::pair<int, int>> places;
  places.reserve(entries_.size() + m);
  for (const Entry& e : entries_) places.push_back(place(at(e.row), at(e.col)));
  for (std::size_t i = 0; i < m; ++i) places.emplace_back(at(static_cast<int>(i)), at(static_cast<int>(i)));
  std::vector<std::pair<int, int>> unique = places;  // (col, row) order for compressed columns
  for (auto& p : unique) std::swap(p.first, p.second);
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  columnStarts_.assign(m + 1, 0);
  rowIndices_.resize(unique.size());
  for (std::size_t k = 0; k < unique.size(); ++k) {
    ++columnStarts_[static_cast<std::size_t>(unique[k].first) + 1];
    rowIndices_[k] = unique[k].second;
  }
  std::partial_sum(columnStarts_.begin(), columnStarts_.end(), columnStarts_.begin());
  const auto indexOf = [&](int row, int col) {
    const auto begin = rowIndices_.begin() + columnStarts_[static_cast<std::size_t>(col)];
    const auto end = rowIndices_.begin() + columnStarts_[static_cast<std::size_t>(col) + 1];
    return static_cast<std::size_t>(std::lower_bound(begin, end, row) - rowIndices_.begin());
  };
  terms_.clear();
  terms_.reserve(entries_.size());
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    Term t = entries_[k].term;
    t.value = indexOf(places[k].first, places[k].second);
    terms_.push_back(t);
  }
  diagonal_.resize(m);
  for (std::size_t i = 0; i < m; ++i) diagonal_[i] = indexOf(at(static_cast<int>(i)), at(static_cast<int>(i)));
}

void ConstraintMatrixAssembly::assemble(const ConstraintMatrix& A, double* values) {
  const BlockSparseMatrix& J = A.jacobian();
  const double* Jv = J.values().data();
  const BlockDiagonalMatrix& W = A.inverseMass();
  if (W.isDiagonal()) {  // J W entry by entry: each entry scaled by its column's W_jj
    const double* w = W.diagonal().data();
    const int* column = J.columns().data();
    for (std::size_t k = 0; k < JW_.size(); ++k) JW_[k] = Jv[k] * w[column[k]];
  } else {
    for (const BlockSparseMatrix::Block& b : J.blocks()) {
      for (int r = 0; r < b.rows; ++r) {
        const std::size_t at = b.offset + static_cast<std::size_t>(r * b.cols);
        W.multiplyRow(b.col, Jv + at, JW_.data() + at);
      }
    }
  }
  std::fill(values, values + nonZeros(), 0.0);
  const std::span<const char> held = A.held();
  for (const Term& t : terms_) {
    if (!held.empty() && (held[static_cast<std::size_t>(t.r)] || held[static_cast<std::size_t>(t.s)])) continue;
    const double* a = JW_.data() + t.rowA;
    const double* b = Jv + t.rowB;
    double sum = 0.0;
    for (int c = 0; c < t.width; ++c) sum += a[c] * b[c];
    values[t.value] += sum;
  }
  if (const Eigen::VectorXd* shift = A.shift()) {
    for (std::size_t i = 0; i < diagonal_.size(); ++i) values[diagonal_[i]] += (*shift)[static_cast<Eigen::Index>(i)];
  }
  for (std::size_t i = 0; i < held.size(); ++i) {
    if (held[i]) values[diagonal_[i]] = 1.0;
  }
}

}  // namespace tinkertoy
