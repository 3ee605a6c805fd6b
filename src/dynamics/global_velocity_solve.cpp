#include "dynamics/global_velocity_solve.hpp"

#include "dynamics/newton_line_search.hpp"
#include "tinkertoy/archive/state_archive.hpp"

#include <algorithm>
#include <cmath>

namespace tinkertoy {

namespace {

constexpr auto kJacobian = ConstraintSystem::Evaluation::WithoutJacobianDot;

}  // namespace

void GlobalVelocitySolve::build(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const RowCarry& carry) {
  const Eigen::Index m = system.rows();
  const auto rows = static_cast<std::size_t>(m);
  kinds_.assign(system.kinds().begin(), system.kinds().end());
  mask_.assign(rows, 0);
  // The velocity pass's active set carries over from substep to substep, so across an edit too;
  // the position pass starts each solve from its inequality rows held.
  const std::vector<char> before = held_[0];
  for (std::vector<char>& held : held_) held.assign(rows, 0);
  for (std::size_t r = 0; r < rows; ++r) held_[0][r] = kinds_[r] == RowKind::Inequality;
  carry.apply(before, held_[0]);
  active_.assign(rows, 0);
  // Each motor with the inequality rows of its own joint (its limits), which the system lists
  // just before it: a joint's rows are consecutive.
  motorLimits_.clear();
  for (Eigen::Index motor = 0; motor < m; ++motor) {
    if (kinds_[static_cast<std::size_t>(motor)] != RowKind::Motor) continue;
    const std::size_t joint = system.constraintOfRow(motor);
    for (Eigen::Index limit = system.rowOffset(joint); limit < motor; ++limit) {
      if (kinds_[static_cast<std::size_t>(limit)] == RowKind::Inequality) motorLimits_.emplace_back(motor, limit);
    }
  }
  rhs_.setZero(m);
  delta_.setZero(m);
  Jv_.setZero(m);
  for (Eigen::VectorXd* x : {&JtDelta_, &displacement_, &trial_}) x->setZero(W.size());
  for (std::size_t r = 0; r < rows; ++r) mask_[r] = kinds_[r] == RowKind::Spring;
  solver_->analyze(ConstraintMatrix(system.jacobian(), W, nullptr, mask_, &workspace_));
}

void GlobalVelocitySolve::serialize(StateArchive& archive) {
  archive.flags(held_[0], kinds_.size());
  solver_->serialize(archive);
}

double GlobalVelocitySolve::rowVelocity(const ConstraintSystem& system, Eigen::Index row, const Eigen::VectorXd& v) {
  const ConstraintSystem::ConstraintBlocks& b = system.blocks(system.constraintOfRow(row));
  const auto J = system.jacobian().values();
  double sum = 0.0;
  for (std::size_t i = 0; i < b.count; ++i) {
    const double* Jrow = J.data() + b.offset[i] + static_cast<std::size_t>((row - b.row) * b.width[i]);
    for (int c = 0; c < b.width[i]; ++c) sum += Jrow[c] * v[b.column[i] + c];
  }
  return sum;
}

void GlobalVelocitySolve::applyImpulse(const ConstraintSystem& system, const BlockDiagonalMatrix& W, Eigen::Index row,
                                       double delta, Eigen::VectorXd& v) {
  if (delta == 0.0) return;
  const ConstraintSystem::ConstraintBlocks& b = system.blocks(system.constraintOfRow(row));
  const auto J = system.jacobian().values();
  double weighted[kMaxBlockWidth];
  for (std::size_t i = 0; i < b.count; ++i) {
    W.multiplyRow(b.column[i], J.data() + b.offset[i] + static_cast<std::size_t>((row - b.row) * b.width[i]), weighted);
    for (int c = 0; c < b.width[i]; ++c) v[b.column[i] + c] += weighted[c] * delta;
  }
}

SolveStats GlobalVelocitySolve::solveHeldOut(const ConstraintSystem& system, const BlockDiagonalMatrix& W,
                                             const std::vector<char>& held, double tolerance) {
  for (std::size_t r = 0; r < mask_.size(); ++r) mask_[r] = held[r] || kinds_[r] == RowKind::Spring;
  delta_.setZero();
  return solver_->solve(ConstraintMatrix(system.jacobian(), W, nullptr, mask_, &workspace_), rhs_, delta_, tolerance);
}

void GlobalVelocitySolve::solveImpulses(const ConstraintSystem& system, const BlockDiagonalMatrix& W,
                                        const VelocityTargets& targets, ImpulsePass pass, Eigen::VectorXd& lambda,
                                        Eigen::VectorXd& v, SequentialImpulses& springs, int iterations,
                                        SolveTally& tally) {
  constexpr double kReleaseTolerance = 1e-10;  // in the row's velocity units: ignores round-off
  const Eigen::Index m = system.rows();
  const bool withSprings = springs.hasSpringRows();
  const Eigen::VectorXd& bias = targets.bias(pass);
  std::vector<char>& held = held_[pass == ImpulsePass::Velocity ? 0 : 1];
  const auto spring = [&](Eigen::Index r) { return kinds_[static_cast<std::size_t>(r)] == RowKind::Spring; };
  const auto isHeld = [&](Eigen::Index r) { return held[static_cast<std::size_t>(r)] != 0; };
  if (pass == ImpulsePass::Position) {
    for (Eigen::Index r = 0; r < m; ++r) held[static_cast<std::size_t>(r)] = kinds_[static_cast<std::size_t>(r)] == RowKind::Inequality;
  }
  const auto clampInto = [&](Eigen::Index row, double value) {
    applyImpulse(system, W, row, value - lambda[row], v);
    lambda[row] = value;
  };
  // The target error w = J v + b of a row: sequential impulses would move λ by −w / K.
  const auto targetError = [&](Eigen::Index row) { return rowVelocity(system, row, v) + bias[row]; };
  // Whether row r is a motor one of whose limits is active (motorLimits_ is sorted by motor).
  const auto limitActive = [&](Eigen::Index r) {
    auto pair = std::lower_bound(motorLimits_.begin(), motorLimits_.end(), r,
                                 [](const auto& p, Eigen::Index motor) { return p.first < motor; });
    for (; pair != motorLimits_.end() && pair->first == r; ++pair) {
      if (!isHeld(pair->second)) return true;
    }
    return false;
  };
  // Every impulse inside its bounds to begin with; rows with equal bounds take no part.
  for (Eigen::Index r = 0; r < m; ++r) {
    if (spring(r)) continue;
    const auto [lower, upper] = targets.bounds(r, pass);
    if (lambda[r] < lower || lambda[r] > upper) clampInto(r, std::clamp(lambda[r], lower, upper));
    char& h = held[static_cast<std::size_t>(r)];
    h = lower == upper || (h && (lambda[r] == lower || lambda[r] == upper));
  }
  for (int iteration = 0; iteration < iterations; ++iteration) {
    if (withSprings) springs.solveSprings(v);
    for (const auto& [motor, limit] : motorLimits_) {
      if (isHeld(motor) || isHeld(limit)) continue;
      const auto [lower, upper] = targets.bounds(motor, pass);
      clampInto(motor, targetError(motor) < 0.0 ? upper : lower);
      held[static_cast<std::size_t>(motor)] = 1;
    }
    system.jacobian().multiply(v, Jv_);
    for (Eigen::Index r = 0; r < m; ++r) rhs_[r] = isHeld(r) || spring(r) ? 0.0 : -(Jv_[r] + bias[r]);
    tally.add(solveHeldOut(system, W, held, 0.0));
    system.jacobian().multiplyTransposed(delta_, JtDelta_);
    W.multiply(JtDelta_, displacement_);
    v += displacement_;
    bool changed = false;
    for (Eigen::Index r = 0; r < m; ++r) {
      if (isHeld(r) || spring(r)) continue;
      const auto [lower, upper] = targets.bounds(r, pass);
      lambda[r] += delta_[r];
      if (lambda[r] >= lower && lambda[r] <= upper) continue;
      clampInto(r, std::clamp(lambda[r], lower, upper));
      held[static_cast<std::size_t>(r)] = 1;
      changed = true;
    }
    for (Eigen::Index r = 0; r < m; ++r) {
      if (spring(r) || !isHeld(r)) continue;
      const auto [lower, upper] = targets.bounds(r, pass);
      if (lower == upper || limitActive(r)) continue;
      const double w = targetError(r);
      if ((lambda[r] == lower && w < -kReleaseTolerance) || (lambda[r] == upper && w > kReleaseTolerance)) {
        held[static_cast<std::size_t>(r)] = 0;
        changed = true;
      }
    }
    if (!changed && !withSprings) break;
  }
}

ProjectionResult GlobalVelocitySolve::project(ConstraintSystem& system,
                                              const BlockDiagonalMatrix& W, double time, Eigen::VectorXd& q,
                                              const Eigen::VectorXd& v, const ProjectionSettings& settings,
                                              SolveTally& tally) {
  const double tolerance = settings.tolerance;
  const Eigen::Index m = system.rows();
  const auto kindOf = [&](Eigen::Index r) { return kinds_[static_cast<std::size_t>(r)]; };
  // Adds the inequality rows with C < margin at the evaluated state; true if any.
  const auto activate = [&](double margin) {
    bool grew = false;
    for (Eigen::Index r = 0; r < m; ++r) {
      char& active = active_[static_cast<std::size_t>(r)];
      if (active || kindOf(r) != RowKind::Inequality || !(system.value()[r] < margin)) continue;
      active = 1;
      grew = true;
    }
    return grew;
  };
  // The line search's merit: ½‖violation‖₂², for which the Gauss–Newton step is a descent
  // direction (it is not for the max norm, which convergence is judged by).
  const auto merit = [&] {
    double sum = 0.0;
    for (Eigen::Index r = 0; r < m; ++r) sum += system.violation(r) * system.violation(r);
    return 0.5 * sum;
  };
  const auto evaluate = [&](const Eigen::VectorXd& at) { system.evaluate({time, at, v}, kJacobian); };
  evaluate(q);
  double error = system.maxViolation();
  if (m == 0 || error <= tolerance) return {0, error, true};
  for (Eigen::Index r = 0; r < m; ++r) active_[static_cast<std::size_t>(r)] = kindOf(r) == RowKind::Equality;
  activate(error);
  int iterations = 0;
  NewtonLineSearch search;
  while (iterations < settings.maxIterations && error > tolerance) {
    for (Eigen::Index r = 0; r < m; ++r) rhs_[r] = active_[static_cast<std::size_t>(r)] ? -system.value()[r] : 0.0;
    for (std::size_t r = 0; r < active_.size(); ++r) mask_[r] = !active_[r];
    // The linear error of a step leaves a violation of about its relative residual times the
    // current one: a tenth of the tolerance is enough.
    const double linearTolerance = std::clamp(0.1 * tolerance / error, 1e-12, 0.1);
    delta_.setZero();
    tally.add(solver_->solve(ConstraintMatrix(system.jacobian(), W, nullptr, mask_, &workspace_), rhs_, delta_, linearTolerance));
    system.jacobian().multiplyTransposed(delta_, JtDelta_);
    W.multiply(JtDelta_, displacement_);
    const double before = merit();
    trial_ = q;
    q += displacement_;
    evaluate(q);
    if (activate(0.0)) {  // the step pushed a slack row past its bound: take it in and retry
      q = trial_;
      evaluate(q);
      continue;
    }
    ++iterations;
    if (!NewtonLineSearch::backtrack(q, trial_, displacement_, before, evaluate, merit)) {
      return {iterations, error, false, true};
    }
    error = system.maxViolation();
    if (error > tolerance && search.plateau(merit())) return {iterations, error, false, true};
  }
  return {iterations, error, error <= tolerance, false};
}

}  // namespace tinkertoy
