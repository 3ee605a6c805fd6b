#include "tinkertoy/dynamics/sequential_kernel.hpp"

#include <algorithm>
#include <cmath>

#include "common/parallel_loop.hpp"
#include "dynamics/impulse_update.hpp"

namespace tinkertoy {

namespace {

// The rows of constraint k by kind: equality rows first (required), then the rest.
struct RowCounts {
  int equalities = 0, springs = 0, others = 0;
  std::uint8_t springMask = 0;
  bool equalityAfterOthers = false;  // a layout SequentialImpulses refuses
};

RowCounts countRows(const ConstraintSystem& system, std::size_t k) {
  const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
  const auto kinds = system.kinds();
  RowCounts counts;
  for (int r = 0; r < b.rows; ++r) {
    const RowKind kind = kinds[static_cast<std::size_t>(b.row + r)];
    if (kind == RowKind::Equality) {
      if (counts.others != 0) counts.equalityAfterOthers = true;
      ++counts.equalities;
      continue;
    }
    if (kind == RowKind::Spring) {
      ++counts.springs;
      counts.springMask = static_cast<std::uint8_t>(counts.springMask | (1u << counts.others));
    }
    ++counts.others;
  }
  return counts;
}

}  // namespace

bool SequentialKernel::covers(const ConstraintSystem& system) {
  for (std::size_t k = 0; k < system.constraintCount(); ++k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    if (b.count > 2 || b.rows > 8) return false;  // the spring mask has a bit for each row
    for (std::size_t i = 0; i < b.count; ++i) {
      if (b.width[i] > kWidth) return false;
    }
    const RowCounts counts = countRows(system, k);
    if (counts.equalityAfterOthers || counts.equalities > kMostBlockRows || counts.springs > kMostBlockRows) {
      return false;
    }
  }
  return true;
}

void SequentialKernel::build(const ConstraintSystem& system, const ConstraintColouring& colouring) {
  colouring_ = colouring;
  const std::size_t constraints = system.constraintCount();
  bodyA_.assign(constraints, kNoBody);
  bodyB_.assign(constraints, kNoBody);
  firstRow_.assign(constraints, 0);
  equalities_.assign(constraints, 0);
  others_.assign(constraints, 0);
  springMask_.assign(constraints, 0);
  equalityMass_.assign(constraints, 0);
  springMass_.assign(constraints, 0);
  column_.clear();
  width_.clear();
  std::vector<std::int32_t> slotOfColumn(static_cast<std::size_t>(system.jacobian().cols()), kNoBody);
  std::size_t masses = 0;
  for (std::size_t k = 0; k < constraints; ++k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    for (std::size_t i = 0; i < b.count; ++i) {
      std::int32_t& slot = slotOfColumn[static_cast<std::size_t>(b.column[i])];
      if (slot == kNoBody) {
        slot = static_cast<std::int32_t>(column_.size());
        column_.push_back(b.column[i]);
        width_.push_back(b.width[i]);
      }
      (i == 0 ? bodyA_ : bodyB_)[k] = slot;
    }
    const RowCounts counts = countRows(system, k);
    firstRow_[k] = b.row;
    equalities_[k] = static_cast<std::uint8_t>(counts.equalities);
    others_[k] = static_cast<std::uint8_t>(counts.others);
    springMask_[k] = counts.springMask;
    equalityMass_[k] = masses;
    masses += static_cast<std::size_t>(counts.equalities * counts.equalities);
    springMass_[k] = masses;
    masses += static_cast<std::size_t>(counts.springs * counts.springs);
  }
  masses_.assign(masses, 0.0);
  const auto rows = static_cast<std::size_t>(system.rows());
  jacobian_.assign(kRowStride * rows, 0.0);
  weighted_.assign(kRowStride * rows, 0.0);
  rowMass_.assign(rows, 0.0);
  velocity_.assign(kWidth * column_.size(), 0.0);
}

namespace {

// K of `count` rows of a constraint, rows[i] relative to `first`, from its packed J and W Jᵀ.
template <int size>
Eigen::Matrix<double, size, size> effectiveMass(const double* J, const double* JW, std::int64_t first,
                                                const std::uint8_t* rows, int stride) {
  Eigen::Matrix<double, size, size> K;
  for (int i = 0; i < size; ++i) {
    for (int j = 0; j < size; ++j) {
      const double* a = JW + (first + rows[i]) * stride;
      const double* b = J + (first + rows[j]) * stride;
      double sum = 0.0;
      for (int c = 0; c < stride; ++c) sum += a[c] * b[c];
      K(i, j) = sum;
    }
  }
  return K;
}

template <int size>
void invertBlock(const double* J, const double* JW, std::int64_t first, const std::uint8_t* rows, int stride,
                 double* out) {
  invertEffectiveMass(effectiveMass<size>(J, JW, first, rows, stride), out);
}

// The inverse of a block of 1 to 3 rows.
void invertRows(const double* J, const double* JW, std::int64_t first, const std::uint8_t* rows, int count, int stride,
                double* out) {
  switch (count) {
    case 1:
      invertBlock<1>(J, JW, first, rows, stride, out);
      break;
    case 2:
      invertBlock<2>(J, JW, first, rows, stride, out);
      break;
    case 3:
      invertBlock<3>(J, JW, first, rows, stride, out);
      break;
    default:
      break;
  }
}

}  // namespace

void SequentialKernel::prepare(const ConstraintSystem& system, const BlockDiagonalMatrix& W) {
  const auto J = system.jacobian().values();
  constexpr std::uint8_t kInOrder[kMostBlockRows] = {0, 1, 2};
  for (std::size_t k = 0; k < firstRow_.size(); ++k) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    const std::int64_t first = firstRow_[k];
    for (int r = 0; r < b.rows; ++r) {
      double* packed = jacobian_.data() + (first + r) * kRowStride;
      double* weighed = weighted_.data() + (first + r) * kRowStride;
      for (std::size_t i = 0; i < b.count; ++i) {
        const std::size_t at = b.offset[i] + static_cast<std::size_t>(r * b.width[i]);
        std::copy_n(J.data() + at, b.width[i], packed + i * kWidth);
        W.multiplyRow(b.column[i], J.data() + at, weighed + i * kWidth);
      }
    }
    invertRows(jacobian_.data(), weighted_.data(), first, kInOrder, equalities_[k], kRowStride,
               masses_.data() + equalityMass_[k]);
    std::uint8_t springs[kMostBlockRows]{};
    int springCount = 0;
    for (int i = 0; i < others_[k]; ++i) {
      const auto row = static_cast<std::uint8_t>(equalities_[k] + i);
      if ((springMask_[k] >> i) & 1u) {
        springs[springCount++] = row;
      } else {
        const double K = effectiveMass<1>(jacobian_.data(), weighted_.data(), first, &row, kRowStride)(0, 0);
        rowMass_[static_cast<std::size_t>(first + row)] = K > 0.0 ? 1.0 / K : 0.0;
      }
    }
    invertRows(jacobian_.data(), weighted_.data(), first, springs, springCount, kRowStride,
               masses_.data() + springMass_[k]);
  }
}

namespace {

// J_r (v_A, v_B) for a row's packed J, and (v_A, v_B) += W J_rᵀ δ for its packed W Jᵀ.
inline double rowTimes(const double* J, const double* a, const double* b) {
  return (J[0] * a[0] + J[1] * a[1] + J[2] * a[2]) + (J[3] * b[0] + J[4] * b[1] + J[5] * b[2]);
}

inline void addRow(const double* JW, double delta, double* a, double* b) {
  a[0] += JW[0] * delta;
  a[1] += JW[1] * delta;
  a[2] += JW[2] * delta;
  b[0] += JW[3] * delta;
  b[1] += JW[4] * delta;
  b[2] += JW[5] * delta;
}

}  // namespace

SequentialKernel::Bodies SequentialKernel::bodies(std::size_t c, double* none) {
  double* a = velocity_.data() + kWidth * bodyA_[c];
  double* b = bodyB_[c] == kNoBody ? none : velocity_.data() + kWidth * bodyB_[c];
  return {a, b};
}

// δ = −s K⁻¹ (J v + b) − i λ over the block's rows, all at once (K⁻¹ column-major). The two
// bodies' velocities are worked on in locals, which the stores into λ cannot alias.
template <int size>
void SequentialKernel::solveEqualities(std::size_t c, const double* bias, double massScale, double impulseScale,
                                       double* lambda) {
  double none[kWidth] = {};
  const auto [a, b] = bodies(c, none);
  double va[kWidth] = {a[0], a[1], a[2]}, vb[kWidth] = {b[0], b[1], b[2]};
  const std::int64_t first = firstRow_[c];
  const double* J = jacobian_.data() + first * kRowStride;
  const double* JW = weighted_.data() + first * kRowStride;
  const double* inverse = masses_.data() + equalityMass_[c];
  double target[size], updated[size];
  for (int i = 0; i < size; ++i) target[i] = bias[first + i] + rowTimes(J + i * kRowStride, va, vb);
  impulse::updateBlock(size, inverse, target, lambda + first, massScale, impulseScale, updated);
  for (int i = 0; i < size; ++i) {
    addRow(JW + i * kRowStride, updated[i] - lambda[first + i], va, vb);
    lambda[first + i] = updated[i];
  }
  std::copy_n(va, kWidth, a);
  std::copy_n(vb, kWidth, b);
}

void SequentialKernel::solveSprings(std::size_t c, const VelocityTargets& targets, double* lambda) {
  double none[kWidth] = {};
  const auto [a, b] = bodies(c, none);
  const std::int64_t first = firstRow_[c] + equalities_[c];
  std::int64_t rows[kMostBlockRows]{};
  int n = 0;
  for (int i = 0; i < others_[c]; ++i) {
    if ((springMask_[c] >> i) & 1u) rows[n++] = first + i;
  }
  const Eigen::VectorXd& bias = targets.bias(ImpulsePass::Velocity);
  const double massScale = targets.massScale(rows[0]), impulseScale = targets.impulseScale(rows[0]);
  const double maxImpulse = targets.bounds(rows[0], ImpulsePass::Velocity).second;
  const double* inverse = masses_.data() + springMass_[c];
  double target[kMostBlockRows], accumulated[kMostBlockRows], updated[kMostBlockRows];
  for (int i = 0; i < n; ++i) {
    target[i] = bias[rows[i]] + rowTimes(jacobian_.data() + rows[i] * kRowStride, a, b);
    accumulated[i] = lambda[rows[i]];
  }
  impulse::updateBlock(n, inverse, target, accumulated, massScale, impulseScale, updated);
  impulse::limitNorm(n, maxImpulse, updated);
  for (int i = 0; i < n; ++i) {
    addRow(weighted_.data() + rows[i] * kRowStride, updated[i] - lambda[rows[i]], a, b);
    lambda[rows[i]] = updated[i];
  }
}

void SequentialKernel::solveSingles(std::size_t c, const VelocityTargets& targets, ImpulsePass pass, double* lambda) {
  double none[kWidth] = {};
  const auto [a, b] = bodies(c, none);
  const Eigen::VectorXd& bias = targets.bias(pass);
  const std::int64_t first = firstRow_[c] + equalities_[c];
  for (int i = 0; i < others_[c]; ++i) {
    if ((springMask_[c] >> i) & 1u) continue;
    const std::int64_t row = first + i;
    const auto [lower, upper] = targets.bounds(row, pass);
    if (lower == upper) continue;  // a motor in the position pass
    const auto [massScale, impulseScale] = targets.scales(row, pass);
    const double old = lambda[row];
    const double Jv = rowTimes(jacobian_.data() + row * kRowStride, a, b);
    const double updated =
        impulse::updated(old, rowMass_[static_cast<std::size_t>(row)], Jv + bias[row], massScale, impulseScale, lower, upper);
    if (updated != old) addRow(weighted_.data() + row * kRowStride, updated - old, a, b);
    lambda[row] = updated;
  }
}

template <ImpulsePass pass>
void SequentialKernel::solveConstraint(std::size_t c, const VelocityTargets& targets, double* lambda) {
  constexpr bool velocity = pass == ImpulsePass::Velocity;
  if (velocity && springMask_[c] != 0) solveSprings(c, targets, lambda);
  if (others_[c] != 0) solveSingles(c, targets, pass, lambda);
  if (equalities_[c] == 0) return;
  const double* bias = targets.bias(pass).data();
  const Eigen::Index first = firstRow_[c];
  const auto [massScale, impulseScale] = targets.scales(first, pass);
  switch (equalities_[c]) {
    case 1:
      solveEqualities<1>(c, bias, massScale, impulseScale, lambda);
      break;
    case 2:
      solveEqualities<2>(c, bias, massScale, impulseScale, lambda);
      break;
    default:
      solveEqualities<3>(c, bias, massScale, impulseScale, lambda);
      break;
  }
}

// Colour by colour; a colour's constraints share no moving body, so its share of them on each
// thread reads and writes velocities no other thread touches.
template <ImpulsePass pass>
void SequentialKernel::sweep(const VelocityTargets& targets, double* lambda) {
  for (std::size_t colour = 0; colour < colouring_.count(); ++colour) {
    const std::span<const std::size_t> members = colouring_.members(colour);
    const auto solveShare = [&](std::size_t begin, std::size_t end, int) {
      for (std::size_t i = begin; i < end; ++i) solveConstraint<pass>(members[i], targets, lambda);
    };
    if (parallel_ == nullptr || colouring_.isOverflow(colour)) {
      solveShare(0, members.size(), 0);
    } else {
      parallel_->run(members.size(), solveShare, kMinimumShare);
    }
  }
}

void SequentialKernel::solve(const VelocityTargets& targets, ImpulsePass pass, int passes, Eigen::VectorXd& lambda,
                             Eigen::VectorXd& v) {
  for (std::size_t s = 0; s < column_.size(); ++s) {
    double* slot = velocity_.data() + kWidth * s;
    std::fill_n(slot, kWidth, 0.0);
    std::copy_n(v.data() + column_[s], width_[s], slot);
  }
  for (int i = 0; i < passes; ++i) {
    if (pass == ImpulsePass::Velocity) {
      sweep<ImpulsePass::Velocity>(targets, lambda.data());
    } else {
      sweep<ImpulsePass::Position>(targets, lambda.data());
    }
  }
  for (std::size_t s = 0; s < column_.size(); ++s) std::copy_n(velocity_.data() + kWidth * s, width_[s], v.data() + column_[s]);
}

}  // namespace tinkertoy
