#include "dynamics/equality_block.hpp"

#include <algorithm>


namespace tinkertoy {

void EqualityBlock::build(const ConstraintSystem& system) {
  const auto kinds = system.kinds();
  systemRows_.clear();
  copies_.clear();
  std::vector<int> leading(system.constraintCount(), 0);
  for (std::size_t k = 0; k < system.constraintCount(); ++k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    while (leading[k] < b.rows && kinds[static_cast<std::size_t>(b.row + leading[k])] == RowKind::Equality) {
      systemRows_.push_back(b.row + leading[k]);
      ++leading[k];
    }
  }
  J_.reset(static_cast<Eigen::Index>(systemRows_.size()), system.jacobian().cols());
  Eigen::Index row = 0;
  for (std::size_t k = 0; k < system.constraintCount(); ++k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    if (leading[k] == 0) continue;
    for (std::size_t i = 0; i < b.count; ++i) {
      const std::size_t to = J_.reserveBlock(row, b.column[i], leading[k], b.width[i]);
      copies_.push_back({b.offset[i], to, static_cast<std::size_t>(leading[k] * b.width[i])});
    }
    row += leading[k];
  }
  solver_->analyze(J_);
}

void EqualityBlock::gather(const ConstraintSystem& system) {
  const auto from = system.jacobian().values();
  const auto to = J_.values();
  for (const Copy& c : copies_) {
    std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(c.from), c.count, to.begin() + static_cast<std::ptrdiff_t>(c.to));
  }
}

SolveStats EqualityBlock::solveAndApply(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta, Eigen::VectorXd& target) {
  const SolveStats stats = solveForDisplacement(rhs, delta, WJtDelta_);
  target += WJtDelta_;
  return stats;
}

SolveStats EqualityBlock::solveForDisplacement(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta,
                                               Eigen::VectorXd& displacement) {
  const SolveStats stats = solver_->solve(matrix_, rhs, delta);
  J_.multiplyTransposed(delta, JtDelta_);
  W_.multiply(JtDelta_, displacement);
  return stats;
}

}  // namespace tinkertoy
