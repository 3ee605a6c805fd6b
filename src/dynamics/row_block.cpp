#include "dynamics/row_block.hpp"

#include <algorithm>

namespace tinkertoy {

namespace {

bool selects(RowKind kind) { return kind != RowKind::Spring; }

}  // namespace

void RowBlock::build(const ConstraintSystem& system) {
  const auto kinds = system.kinds();
  const auto selected = static_cast<Eigen::Index>(
      std::count_if(kinds.begin(), kinds.end(), selects));
  J_.reset(selected, system.jacobian().cols());
  shift_.setZero(selected);
  rows_.clear();
  copies_.clear();
  // One block of J_B per (row, body): a constraint's selected rows need not be contiguous.
  for (std::size_t k = 0; k < system.constraintCount(); ++k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    for (int r = 0; r < b.rows; ++r) {
      if (!selects(kinds[static_cast<std::size_t>(b.row + r)])) continue;
      const auto i = static_cast<Eigen::Index>(rows_.size());
      rows_.push_back({b.row + r, copies_.size(), b.count});
      for (std::size_t j = 0; j < b.count; ++j) {
        const std::size_t to = J_.reserveBlock(i, b.column[j], 1, b.width[j]);
        copies_.push_back({b.offset[j] + static_cast<std::size_t>(r * b.width[j]), to, static_cast<std::size_t>(b.width[j])});
      }
    }
  }
  solver_->analyze(matrix_);
}

void RowBlock::gather(const ConstraintSystem& system) {
  const auto from = system.jacobian().values();
  const auto to = J_.values();
  for (const Copy& c : copies_) {
    std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(c.from), c.count, to.begin() + static_cast<std::ptrdiff_t>(c.to));
  }
  shift_.setZero();
}

void RowBlock::holdOut(Eigen::Index i) {
  const Row& row = rows_[static_cast<std::size_t>(i)];
  const auto to = J_.values();
  for (std::size_t c = row.firstCopy; c < row.firstCopy + row.copies; ++c) {
    std::fill_n(to.begin() + static_cast<std::ptrdiff_t>(copies_[c].to), copies_[c].count, 0.0);
  }
  shift_[i] = 1.0;
}

SolveStats RowBlock::solveAndApply(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta, Eigen::VectorXd& target) {
  const SolveStats stats = solveForDisplacement(rhs, delta, WJtDelta_);
  target += WJtDelta_;
  return stats;
}

SolveStats RowBlock::solveForDisplacement(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta,
                                          Eigen::VectorXd& displacement) {
  const SolveStats stats = solver_->solve(matrix_, rhs, delta);
  J_.multiplyTransposed(delta, JtDelta_);
  W_.multiply(JtDelta_, displacement);
  return stats;
}

}  // namespace tinkertoy
