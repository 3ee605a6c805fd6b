#include "tinkertoy/dynamics/sequential_impulses.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "dynamics/impulse_update.hpp"

namespace tinkertoy {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// row · x and x += a row, over one body's block: spelled out for the common widths (a 2D
// particle, a rigid body), which the compiler then keeps in registers.
inline double dot(const double* row, const double* x, std::size_t width) {
  switch (width) {
    case 2:
      return row[0] * x[0] + row[1] * x[1];
    case 3:
      return row[0] * x[0] + row[1] * x[1] + row[2] * x[2];
    default:
      break;
  }
  double sum = 0.0;
  for (std::size_t c = 0; c < width; ++c) sum += row[c] * x[c];
  return sum;
}

inline void addScaled(const double* row, double scale, double* x, std::size_t width) {
  switch (width) {
    case 3:
      x[2] += row[2] * scale;
      [[fallthrough]];
    case 2:
      x[1] += row[1] * scale;
      x[0] += row[0] * scale;
      return;
    default:
      break;
  }
  for (std::size_t c = 0; c < width; ++c) x[c] += row[c] * scale;
}

}  // namespace

void SequentialImpulses::build(const ConstraintSystem& system, bool springsOnly) {
  groups_.clear();
  hasSprings_ = false;
  std::size_t masses = 0;
  const auto kinds = system.kinds();
  colouring_.build(system);
  for (const std::size_t k : colouring_.order()) {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    if (b.rows > kMaxRowsPerConstraint) {
      throw std::invalid_argument("constraint #" + std::to_string(k) + " has " + std::to_string(b.rows) +
                                  " rows; the sequential solver takes at most " +
                                  std::to_string(kMaxRowsPerConstraint));
    }
    Group g;
    g.constraint = k;
    for (int r = 0; r < b.rows; ++r) {
      const RowKind kind = kinds[static_cast<std::size_t>(b.row + r)];
      if (kind == RowKind::Spring) {
        hasSprings_ = true;
        g.springRows.push_back(r);
      } else if (springsOnly) {
        continue;
      } else if (kind == RowKind::Equality) {
        if (r != g.equality) throw std::invalid_argument("a constraint's equality rows must come first");
        g.equalityRows.push_back(r);
        ++g.equality;
      } else {
        g.singleRows.push_back(r);
      }
    }
    if (springsOnly && g.springRows.empty()) continue;
    g.equalityMass = masses;
    masses += static_cast<std::size_t>(g.equality * g.equality);
    g.springMass = masses;
    masses += g.springRows.size() * g.springRows.size();
    groups_.push_back(std::move(g));
  }
  masses_.assign(masses, 0.0);
  JW_.assign(system.jacobian().values().size(), 0.0);
  const Eigen::Index m = system.rows();
  impulses_.setZero(m);
  positionImpulses_.setZero(m);
  rowMass_.setZero(m);
  packed_ = path_ == Path::Kernel && !springsOnly && SequentialKernel::covers(system);
  if (packed_) kernel_.build(system, colouring_);
}

void SequentialImpulses::weighBlocks(const ConstraintSystem& system, const BlockDiagonalMatrix& W, std::size_t k) {
  const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
  const auto J = system.jacobian().values();
  for (std::size_t i = 0; i < b.count; ++i) {
    for (int r = 0; r < b.rows; ++r) {
      const std::size_t at = b.offset[i] + static_cast<std::size_t>(r * b.width[i]);
      W.multiplyRow(b.column[i], J.data() + at, JW_.data() + at);
    }
  }
}

double SequentialImpulses::effectiveMass(const ConstraintSystem& system, std::size_t k, int r, int s) const {
  const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
  const auto J = system.jacobian().values();
  double K = 0.0;
  for (std::size_t i = 0; i < b.count; ++i) {
    const std::size_t rowR = b.offset[i] + static_cast<std::size_t>(r * b.width[i]);
    const std::size_t rowS = b.offset[i] + static_cast<std::size_t>(s * b.width[i]);
    for (int c = 0; c < b.width[i]; ++c) K += JW_[rowR + static_cast<std::size_t>(c)] * J[rowS + static_cast<std::size_t>(c)];
  }
  return K;
}

// A singular block (a row that no body can move, e.g. a joint between two static bodies) gets
// a zero inverse: its rows then receive no impulse instead of an infinite one.
void SequentialImpulses::invertBlock(const ConstraintSystem& system, std::size_t k, const std::vector<int>& rows,
                                     std::size_t at) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  if (n == 0) return;
  Small K(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      K(i, j) = effectiveMass(system, k, rows[static_cast<std::size_t>(i)], rows[static_cast<std::size_t>(j)]);
    }
  }
  invertEffectiveMass(K, masses_.data() + at);
}

double SequentialImpulses::rowTimes(const ConstraintSystem& system, std::size_t k, int r, const Eigen::VectorXd& x) const {
  const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
  const auto J = system.jacobian().values();
  double sum = 0.0;
  for (std::size_t i = 0; i < b.count; ++i) {
    const auto width = static_cast<std::size_t>(b.width[i]);
    sum += dot(J.data() + b.offset[i] + static_cast<std::size_t>(r) * width, x.data() + b.column[i], width);
  }
  return sum;
}

void SequentialImpulses::applyRow(const ConstraintSystem& system, std::size_t k, int r, double delta,
                                  Eigen::VectorXd& x) const {
  if (delta == 0.0) return;
  const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
  for (std::size_t i = 0; i < b.count; ++i) {
    const auto width = static_cast<std::size_t>(b.width[i]);
    addScaled(JW_.data() + b.offset[i] + static_cast<std::size_t>(r) * width, delta, x.data() + b.column[i], width);
  }
}

// The effective masses K⁻¹ of every row group at the Jacobian the system holds
// (docs/theory.md, "Sequential impulses"): the targets themselves are VelocityTargets'.
void SequentialImpulses::prepare(const ConstraintSystem& system, const BlockDiagonalMatrix& W,
                                 const VelocityTargets& targets) {
  system_ = &system;
  targets_ = &targets;
  positionImpulses_.setZero();
  if (packed_) {
    kernel_.prepare(system, W);
    return;
  }
  for (const Group& g : groups_) {
    const std::size_t k = g.constraint;
    weighBlocks(system, W, k);
    invertBlock(system, k, g.equalityRows, g.equalityMass);
    invertBlock(system, k, g.springRows, g.springMass);
    const Eigen::Index first = system.blocks(k).row;
    for (const int r : g.singleRows) {
      const double K = effectiveMass(system, k, r, r);
      rowMass_[first + r] = K > 0.0 ? 1.0 / K : 0.0;
    }
  }
}

// The hot loop of the solver, written over the constraint's blocks directly: J v for all the
// block's rows in one sweep of each body's velocities, and W Jᵀ δ back in one more.
void SequentialImpulses::solveBlock(const Group& g, const std::vector<int>& rows, std::size_t mass,
                                    double massScale, double impulseScale, double maxImpulse, Pass pass,
                                    Eigen::VectorXd& v) {
  const std::size_t n = rows.size();
  if (n == 0) return;
  const Eigen::VectorXd& b = targets_->bias(pass);
  Eigen::VectorXd& lambda = impulses(pass);
  const ConstraintSystem::ConstraintBlocks& blocks = system_->blocks(g.constraint);
  const double* J = system_->jacobian().values().data();
  std::array<double, kMaxRowsPerConstraint> target{}, accumulated{}, updated{};
  for (std::size_t i = 0; i < n; ++i) {
    target[i] = b[blocks.row + rows[i]];
    accumulated[i] = lambda[blocks.row + rows[i]];
  }
  for (std::size_t j = 0; j < blocks.count; ++j) {
    const double* x = v.data() + blocks.column[j];
    const auto width = static_cast<std::size_t>(blocks.width[j]);
    for (std::size_t i = 0; i < n; ++i) {
      target[i] += dot(J + blocks.offset[j] + static_cast<std::size_t>(rows[i]) * width, x, width);
    }
  }
  impulse::updateBlock(n, masses_.data() + mass, target.data(), accumulated.data(), massScale, impulseScale,
                       updated.data());
  impulse::limitNorm(n, maxImpulse, updated.data());
  for (std::size_t i = 0; i < n; ++i) lambda[blocks.row + rows[i]] = updated[i];
  for (std::size_t j = 0; j < blocks.count; ++j) {
    double* x = v.data() + blocks.column[j];
    const auto width = static_cast<std::size_t>(blocks.width[j]);
    for (std::size_t i = 0; i < n; ++i) {
      addScaled(JW_.data() + blocks.offset[j] + static_cast<std::size_t>(rows[i]) * width, updated[i] - accumulated[i], x,
                width);
    }
  }
}

void SequentialImpulses::solveSprings(const Group& g, Eigen::VectorXd& v) {
  if (g.springRows.empty()) return;
  const Eigen::Index row = system_->blocks(g.constraint).row + g.springRows.front();
  solveBlock(g, g.springRows, g.springMass, targets_->massScale(row), targets_->impulseScale(row),
             targets_->bounds(row, Pass::Velocity).second, Pass::Velocity, v);
}

void SequentialImpulses::solve(Eigen::VectorXd& v, Pass pass, int passes) {
  if (packed_) {
    kernel_.solve(*targets_, pass, passes, impulses(pass), v);
    return;
  }
  for (int i = 0; i < passes; ++i) sweep(v, pass);
}

void SequentialImpulses::sweep(Eigen::VectorXd& v, Pass pass) {
  const Eigen::VectorXd& b = targets_->bias(pass);
  Eigen::VectorXd& lambda = impulses(pass);
  for (const Group& g : groups_) {
    const std::size_t k = g.constraint;
    const Eigen::Index first = system_->blocks(k).row;
    if (pass == Pass::Velocity) solveSprings(g, v);
    for (const int r : g.singleRows) {
      const Eigen::Index row = first + r;
      const auto [lower, upper] = targets_->bounds(row, pass);
      if (lower == upper) continue;  // a motor in the position pass
      const auto [massScale, impulseScale] = targets_->scales(row, pass);
      const double old = lambda[row];
      const double updated =
          impulse::updated(old, rowMass_[row], rowTimes(*system_, k, r, v) + b[row], massScale, impulseScale, lower, upper);
      applyRow(*system_, k, r, updated - old, v);
      lambda[row] = updated;
    }
    if (g.equality == 0) continue;
    const auto [massScale, impulseScale] = targets_->scales(first, pass);
    solveBlock(g, g.equalityRows, g.equalityMass, massScale, impulseScale, kInfinity, pass, v);
  }
}

void SequentialImpulses::solveSprings(Eigen::VectorXd& v) {
  for (const Group& g : groups_) solveSprings(g, v);
}

double SequentialImpulses::projectPositions(ConstraintSystem& system, const BlockDiagonalMatrix& W,
                                            double time, Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                            int iterations, double tolerance) {
  system_ = &system;
  const auto kinds = system.kinds();
  double worst = 0.0;
  for (int pass = 0; pass < iterations; ++pass) {
    worst = 0.0;
    for (const Group& g : groups_) {
      const std::size_t k = g.constraint;
      system.evaluate({time, q, v}, k, ConstraintSystem::Evaluation::WithoutJacobianDot);
      weighBlocks(system, W, k);
      const Eigen::Index first = system.blocks(k).row;
      const Eigen::VectorXd& C = system.value();
      if (g.equality > 0) {
        SmallVector error(g.equality);
        for (int r = 0; r < g.equality; ++r) {
          error[r] = C[first + r];
          worst = std::max(worst, std::abs(error[r]));
        }
        invertBlock(system, k, g.equalityRows, g.equalityMass);
        const Eigen::Map<const Eigen::MatrixXd> inverse(masses_.data() + g.equalityMass, g.equality, g.equality);
        SmallVector correction(g.equality);
        correction.noalias() = inverse * error;  // a bare product into fixed capacity: no temporary
        for (int r = 0; r < g.equality; ++r) applyRow(system, k, r, -correction[r], q);
      }
      for (const int r : g.singleRows) {
        const Eigen::Index row = first + r;
        if (kinds[static_cast<std::size_t>(row)] != RowKind::Inequality || !(C[row] < 0.0)) continue;
        worst = std::max(worst, -C[row]);
        const double K = effectiveMass(system, k, r, r);
        if (K > 0.0) applyRow(system, k, r, -C[row] / K, q);
      }
    }
    if (worst <= tolerance) break;
  }
  return worst;
}

}  // namespace tinkertoy
