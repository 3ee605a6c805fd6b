#include "tinkertoy/solvers/sparse_ldlt.hpp"

#include <algorithm>
#include <cmath>
#include <Eigen/OrderingMethods>
#include <map>
#include <stdexcept>

namespace tinkertoy {

namespace {

// A pivot below this fraction of its row's diagonal entry means a redundant row.
constexpr double kSingularPivot = 1e-12;

// Index of entry (row, col) in a compressed column-major matrix that contains it.
std::size_t valueIndex(const Eigen::SparseMatrix<double>& A, Eigen::Index row, Eigen::Index col) {
  const auto* inner = A.innerIndexPtr();
  const auto* begin = inner + A.outerIndexPtr()[col];
  const auto* end = inner + A.outerIndexPtr()[col + 1];
  const auto* at = std::lower_bound(begin, end, static_cast<int>(row));
  return static_cast<std::size_t>(at - inner);
}

}  // namespace

SparseLdlt::SparseLdlt(double regularization) : regularization_(regularization) {
  if (!(regularization >= 0.0) || !std::isfinite(regularization)) {
    throw std::invalid_argument("LDLT regularization must be finite and not negative");
  }
}

// Builds the assembly plan. Blocks of J that start at the same column belong to the same
// body; every pair of them (b1, b2) contributes B1 W_b B2ᵀ to A at (rows of b1, rows of b2).
// Only entries on or below the diagonal are kept; the AMD ordering of that pattern then maps
// each into the upper triangle of P A Pᵀ.
void SparseLdlt::analyze(const BlockSparseMatrix& J) {
  const Eigen::Index m = J.rows();
  std::map<Eigen::Index, std::vector<const BlockSparseMatrix::Block*>> blocksByColumn;
  for (const BlockSparseMatrix::Block& b : J.blocks()) blocksByColumn[b.col].push_back(&b);

  struct Entry {
    Eigen::Index row, col;
    Term term;
  };
  std::vector<Entry> entries;
  for (const auto& [column, blocks] : blocksByColumn) {
    for (const auto* b1 : blocks) {
      for (const auto* b2 : blocks) {
        if (b1->cols != b2->cols) throw std::logic_error("blocks of one body differ in width");
        for (int r = 0; r < b1->rows; ++r) {
          for (int s = 0; s < b2->rows; ++s) {
            const Eigen::Index row = b1->row + r;
            const Eigen::Index col = b2->row + s;
            if (row < col) continue;
            entries.push_back({row, col,
                               {0, b1->offset + static_cast<std::size_t>(r * b1->cols),
                                b2->offset + static_cast<std::size_t>(s * b2->cols), b1->cols}});
          }
        }
      }
    }
  }

  // The fill-reducing order of the pattern (AMD works on A + Aᵀ, so the lower half suffices).
  std::vector<Eigen::Triplet<double>> pattern;
  pattern.reserve(entries.size() + static_cast<std::size_t>(m));
  for (const Entry& e : entries) pattern.emplace_back(e.row, e.col, 1.0);
  for (Eigen::Index i = 0; i < m; ++i) pattern.emplace_back(i, i, 1.0);
  Eigen::SparseMatrix<double> lower(m, m);
  lower.setFromTriplets(pattern.begin(), pattern.end());
  Eigen::AMDOrdering<int>()(lower, Pinv_);
  P_ = Pinv_.inverse();
  const auto permuted = [&](Eigen::Index row, Eigen::Index col) {
    const Eigen::Index i = P_.indices()[row], j = P_.indices()[col];
    return std::pair{std::min(i, j), std::max(i, j)};  // (row, col) in the upper triangle
  };

  for (Eigen::Triplet<double>& t : pattern) {
    const auto [i, j] = permuted(t.row(), t.col());
    t = Eigen::Triplet<double>(static_cast<int>(i), static_cast<int>(j), 0.0);
  }
  A_.resize(m, m);
  A_.setFromTriplets(pattern.begin(), pattern.end());
  A_.makeCompressed();

  terms_.clear();
  terms_.reserve(entries.size());
  for (Entry& e : entries) {
    const auto [i, j] = permuted(e.row, e.col);
    e.term.value = valueIndex(A_, i, j);
    terms_.push_back(e.term);
  }
  diagonal_.resize(static_cast<std::size_t>(m));
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::Index p = P_.indices()[i];
    diagonal_[static_cast<std::size_t>(i)] = valueIndex(A_, p, p);
  }
  permuted_.resize(m);
  factorization_.analyzePattern(A_);
}

Eigen::SparseMatrix<double> SparseLdlt::assembledMatrix() const {
  Eigen::SparseMatrix<double> full(A_.rows(), A_.cols());
  full = A_.selfadjointView<Eigen::Upper>().twistedBy(Pinv_);
  return full;
}

void SparseLdlt::assemble(const ConstraintMatrix& A) {
  const BlockSparseMatrix& J = A.jacobian();
  const auto values = J.values();
  JW_.resize(values.size());
  for (const BlockSparseMatrix::Block& b : J.blocks()) {
    for (int r = 0; r < b.rows; ++r) {
      const std::size_t at = b.offset + static_cast<std::size_t>(r * b.cols);
      A.inverseMass().multiplyRow(b.col, values.data() + at, JW_.data() + at);
    }
  }
  double* entries = A_.valuePtr();
  std::fill(entries, entries + A_.nonZeros(), 0.0);
  for (const Term& t : terms_) {
    double sum = 0.0;
    for (int c = 0; c < t.width; ++c) sum += JW_[t.rowA + static_cast<std::size_t>(c)] * values[t.rowB + static_cast<std::size_t>(c)];
    entries[t.value] += sum;
  }
  if (regularization_ > 0.0) {
    for (std::size_t i : diagonal_) entries[i] *= 1.0 + regularization_;
  }
  if (const Eigen::VectorXd* shift = A.shift()) {
    for (std::size_t i = 0; i < diagonal_.size(); ++i) entries[diagonal_[i]] += (*shift)[static_cast<Eigen::Index>(i)];
  }
}

SolveStats SparseLdlt::solve(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                             Eigen::VectorXd& x) {
  const Eigen::Index m = b.size();
  if (m == 0) return {0, 0.0};
  if (A_.rows() != m) analyze(A.jacobian());
  assemble(A);
  factorization_.factorizePreordered(A_);

  // P A Pᵀ = L D Lᵀ: pivot i belongs to row Pinv(i) of A. Eigen stops at an exact zero
  // pivot (leaving it 0 in D); a redundant row usually leaves a round-off-sized pivot instead,
  // so every pivot is compared with its row's diagonal entry A_ii, in elimination order: the
  // first small one is the row that depends on those eliminated before it.
  const Eigen::VectorXd& D = factorization_.vectorD();
  const double* values = A_.valuePtr();
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::Index row = Pinv_.indices()[i];
    const double scale = values[diagonal_[static_cast<std::size_t>(row)]];
    if (!(D[i] > kSingularPivot * scale)) {
      throw SingularSystemError(
          "J W Jᵀ is singular: constraint row " + std::to_string(row) +
              " is redundant with others (use the cg solver, or set an ldlt regularization)",
          row);
    }
  }
  if (factorization_.info() != Eigen::Success) {
    throw SingularSystemError("LDLT factorization of J W Jᵀ failed", 0);
  }
  // (P A Pᵀ)(P x) = P b.
  for (Eigen::Index i = 0; i < m; ++i) permuted_[P_.indices()[i]] = b[i];
  factorization_.matrixL().solveInPlace(permuted_);
  permuted_.array() /= factorization_.vectorD().array();
  factorization_.matrixU().solveInPlace(permuted_);
  x.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) x[i] = permuted_[P_.indices()[i]];
  return {1, relativeResidual(A, b, x, residual_)};
}

}  // namespace tinkertoy
