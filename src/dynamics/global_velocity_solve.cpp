#include "dynamics/global_velocity_solve.hpp"

#include "dynamics/newton_line_search.hpp"
#include "tinkertoy/archive/state_archive.hpp"

#include <algorithm>
#include <cmath>

namespace tinkertoy {

namespace {

constexpr auto kJacobian = ConstraintSystem::Evaluation::WithoutJacobianDot;

// The system's rows as the active-set solve and the projection see them.
struct SystemRows {
  static constexpr bool kCoupledBounds = false;
  const ConstraintSystem& system;
  std::span<const RowKind> kinds;
  const VelocityTargets* targets = nullptr;
  ImpulsePass pass = ImpulsePass::Velocity;
  const Eigen::VectorXd* targetBias = targets ? &targets->bias(pass) : nullptr;

  [[nodiscard]] Eigen::Index rows() const { return system.rows(); }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return system.jacobian(); }
  [[nodiscard]] RowKind kind(Eigen::Index r) const { return kinds[static_cast<std::size_t>(r)]; }
  [[nodiscard]] std::pair<double, double> bounds(Eigen::Index r, const Eigen::VectorXd& /*lambda*/) const {
    return targets->bounds(r, pass);
  }
  [[nodiscard]] double bias(Eigen::Index r) const { return (*targetBias)[r]; }
  [[nodiscard]] const Eigen::VectorXd& value() const { return system.value(); }
  [[nodiscard]] double violation(Eigen::Index r) const { return system.violation(r); }
  [[nodiscard]] double maxViolation() const { return system.maxViolation(); }
  [[nodiscard]] static bool present(Eigen::Index /*r*/) { return true; }
  [[nodiscard]] static double activationMargin(Eigen::Index /*r*/, double margin) { return margin; }

  // J_r v.
  [[nodiscard]] double velocity(Eigen::Index row, const Eigen::VectorXd& v) const {
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(system.constraintOfRow(row));
    const auto J = system.jacobian().values();
    double sum = 0.0;
    for (std::size_t i = 0; i < b.count; ++i) {
      const double* Jrow = J.data() + b.offset[i] + static_cast<std::size_t>((row - b.row) * b.width[i]);
      for (int c = 0; c < b.width[i]; ++c) sum += Jrow[c] * v[b.column[i] + c];
    }
    return sum;
  }
  // v += W J_rᵀ δ.
  void apply(const BlockDiagonalMatrix& W, Eigen::Index row, double delta, Eigen::VectorXd& v) const {
    if (delta == 0.0) return;
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(system.constraintOfRow(row));
    const auto J = system.jacobian().values();
    double weighted[kMaxBlockWidth];
    for (std::size_t i = 0; i < b.count; ++i) {
      W.multiplyRow(b.column[i], J.data() + b.offset[i] + static_cast<std::size_t>((row - b.row) * b.width[i]), weighted);
      for (int c = 0; c < b.width[i]; ++c) v[b.column[i] + c] += weighted[c] * delta;
    }
  }
};

// The contact pass's solver: a fresh factorization at every solve, so that what it computes
// depends on the state alone (a restored run repeats it to the bit without the solver's history).
SolverSettings freshFactorizations(SolverSettings settings) {
  settings.reuseIterations = 0;
  return settings;
}

}  // namespace

GlobalVelocitySolve::GlobalVelocitySolve(const SolverSettings& settings) {
  joints_.solver = makeLinearSolver(settings);
  contactImpulses_.solver = makeLinearSolver(freshFactorizations(settings));
  contactProjection_.solver = makeLinearSolver(freshFactorizations(settings));
}

template <class RowSet>
void GlobalVelocitySolve::Rows::layOut(const RowSet& rows, const BlockDiagonalMatrix& W) {
  const Eigen::Index m = rows.rows();
  resize(m);
  for (Eigen::Index r = 0; r < m; ++r) mask[static_cast<std::size_t>(r)] = rows.kind(r) == RowKind::Spring;
  solver->analyze(ConstraintMatrix(rows.jacobian(), W, nullptr, mask, &workspace));
}

void GlobalVelocitySolve::Rows::resize(Eigen::Index m) {
  const auto rows = static_cast<std::size_t>(m);
  mask.assign(rows, 0);
  active.assign(rows, 0);
  rhs.setZero(m);
  delta.setZero(m);
  Jv.setZero(m);
}

void GlobalVelocitySolve::build(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const RowCarry& carry) {
  const Eigen::Index m = system.rows();
  const auto rows = static_cast<std::size_t>(m);
  kinds_.assign(system.kinds().begin(), system.kinds().end());
  // The velocity pass's active set carries over from substep to substep, so across an edit too;
  // the position pass starts each solve from its inequality rows held.
  const std::vector<char> before = held_[0];
  for (std::vector<char>& held : held_) held.assign(rows, 0);
  for (std::size_t r = 0; r < rows; ++r) held_[0][r] = kinds_[r] == RowKind::Inequality;
  carry.apply(before, held_[0]);
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
  for (Eigen::VectorXd* x : {&JtDelta_, &displacement_, &trial_}) x->setZero(W.size());
  joints_.layOut(SystemRows{system, kinds_}, W);
  impulseRows_.invalidate();
  projectionRows_.invalidate();
}

void GlobalVelocitySolve::serialize(StateArchive& archive) {
  archive.flags(held_[0], kinds_.size());
  joints_.solver->serialize(archive);
}

template <class RowSet>
SolveStats GlobalVelocitySolve::solveHeldOut(const RowSet& rows, Rows& with, const BlockDiagonalMatrix& W,
                                             const std::vector<char>& held, double tolerance) {
  for (std::size_t r = 0; r < with.mask.size(); ++r) {
    with.mask[r] = held[r] || rows.kind(static_cast<Eigen::Index>(r)) == RowKind::Spring;
  }
  with.delta.setZero();
  return with.solver->solve(ConstraintMatrix(rows.jacobian(), W, nullptr, with.mask, &with.workspace), with.rhs,
                            with.delta, tolerance);
}

void GlobalVelocitySolve::solveImpulses(const ConstraintSystem& system, const BlockDiagonalMatrix& W,
                                        const VelocityTargets& targets, ImpulsePass pass, Eigen::VectorXd& lambda,
                                        Eigen::VectorXd& v, SequentialImpulses& springs, int iterations,
                                        SolveTally& tally) {
  std::vector<char>& held = held_[pass == ImpulsePass::Velocity ? 0 : 1];
  if (pass == ImpulsePass::Position) {
    for (std::size_t r = 0; r < held.size(); ++r) held[r] = kinds_[r] == RowKind::Inequality;
  }
  solveBounded(SystemRows{system, kinds_, &targets, pass}, joints_, W, held, lambda, v, springs, iterations, tally);
}

void GlobalVelocitySolve::solveImpulses(const ConstraintSystem& system, const VelocityTargets& targets,
                                        ContactSolver& contacts, const BlockDiagonalMatrix& W,
                                        Eigen::VectorXd& jointImpulses, Eigen::VectorXd& v, SequentialImpulses& springs,
                                        int iterations, SolveTally& tally) {
  ContactImpulseRows& rows = impulseRows_;
  if (rows.prepare(system, targets, contacts)) contactImpulses_.layOut(rows, W);
  contactImpulses_.solver->dampEverySolve();  // (a restored run has no history of this layout)
  // The joints' rows start from their own active set; the contacts' held where they push not.
  const auto m = static_cast<std::size_t>(system.rows());
  contactHeld_.resize(static_cast<std::size_t>(rows.rows()));
  std::copy(held_[0].begin(), held_[0].end(), contactHeld_.begin());
  rows.gather(jointImpulses, contacts, lambda_);
  // The contacts' warm start (prepare carried their impulses over; the joints' are applied).
  for (Eigen::Index r = system.rows(); r < rows.rows(); ++r) rows.apply(W, r, lambda_[r], v);
  // The contacts' rows held where they sit on a bound (solveBounded's first pass lets the others go).
  std::fill(contactHeld_.begin() + static_cast<std::ptrdiff_t>(m), contactHeld_.end(), 1);
  const int changes = std::max(iterations, kMostContactSetChanges);
  bool settled = solveBounded(rows, contactImpulses_, W, contactHeld_, lambda_, v, springs, changes, tally, iterations);
  if (rows.restitute(contacts, lambda_)) {
    settled = solveBounded(rows, contactImpulses_, W, contactHeld_, lambda_, v, springs, changes, tally, iterations);
  }
  // A set that did not settle within the cap (many new contacts at once: a pile's first touch)
  // leaves rows that pull the wrong way held; sequential passes bring every row near its target,
  // so that no point runs through what it hit.
  if (!settled) sequentialPasses(rows, W, lambda_, v, kFinishingPasses);
  rows.scatter(lambda_, jointImpulses, contacts);
  std::copy(contactHeld_.begin(), contactHeld_.begin() + static_cast<std::ptrdiff_t>(m), held_[0].begin());
}

template <class RowSet>
void GlobalVelocitySolve::sequentialPasses(const RowSet& rows, const BlockDiagonalMatrix& W, Eigen::VectorXd& lambda,
                                           Eigen::VectorXd& v, int passes) {
  const Eigen::Index m = rows.rows();
  const auto free = [&](Eigen::Index r) { return rows.kind(r) != RowKind::Spring; };
  // Each row's K = J_r W J_rᵀ, from W J_rᵀ written into a zero vector and taken out again.
  rowMass_.setZero(m);
  trial_.setZero(v.size());
  for (Eigen::Index r = 0; r < m; ++r) {
    if (!free(r)) continue;
    rows.apply(W, r, 1.0, trial_);
    rowMass_[r] = rows.velocity(r, trial_);
    rows.apply(W, r, -1.0, trial_);
  }
  for (int pass = 0; pass < passes; ++pass) {
    for (Eigen::Index r = 0; r < m; ++r) {
      if (!free(r) || !(rowMass_[r] > 0.0)) continue;
      const auto [lower, upper] = rows.bounds(r, lambda);
      const double next = std::clamp(lambda[r] - (rows.velocity(r, v) + rows.bias(r)) / rowMass_[r], lower, upper);
      rows.apply(W, r, next - lambda[r], v);
      lambda[r] = next;
    }
  }
}

template <class RowSet>
bool GlobalVelocitySolve::solveBounded(const RowSet& rows, Rows& with, const BlockDiagonalMatrix& W,
                                       std::vector<char>& held, Eigen::VectorXd& lambda, Eigen::VectorXd& v,
                                       SequentialImpulses& springs, int iterations, SolveTally& tally,
                                       int minimumIterations) {
  constexpr double kReleaseTolerance = 1e-10;  // in the row's velocity units: ignores round-off
  const Eigen::Index m = rows.rows();
  const bool withSprings = springs.hasSpringRows();
  const auto spring = [&](Eigen::Index r) { return rows.kind(r) == RowKind::Spring; };
  const auto isHeld = [&](Eigen::Index r) { return held[static_cast<std::size_t>(r)] != 0; };
  const auto clampInto = [&](Eigen::Index row, double value) {
    rows.apply(W, row, value - lambda[row], v);
    lambda[row] = value;
  };
  // The target error w = J v + b of a row: sequential impulses would move λ by −w / K.
  const auto targetError = [&](Eigen::Index row) { return rows.velocity(row, v) + rows.bias(row); };
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
    const auto [lower, upper] = rows.bounds(r, lambda);
    if (lambda[r] < lower || lambda[r] > upper) clampInto(r, std::clamp(lambda[r], lower, upper));
    char& h = held[static_cast<std::size_t>(r)];
    h = lower == upper || (h && (lambda[r] == lower || lambda[r] == upper));
  }
  bool settled = false;
  for (int iteration = 0; iteration < iterations; ++iteration) {
    if (withSprings) springs.solveSprings(v);
    for (const auto& [motor, limit] : motorLimits_) {
      if (isHeld(motor) || isHeld(limit)) continue;
      const auto [lower, upper] = rows.bounds(motor, lambda);
      clampInto(motor, targetError(motor) < 0.0 ? upper : lower);
      held[static_cast<std::size_t>(motor)] = 1;
    }
    rows.jacobian().multiply(v, with.Jv);
    for (Eigen::Index r = 0; r < m; ++r) with.rhs[r] = isHeld(r) || spring(r) ? 0.0 : -(with.Jv[r] + rows.bias(r));
    tally.add(solveHeldOut(rows, with, W, held, 0.0));
    bool changed = false;
    bool blocked = false;  // a free row met a bound before the step's end
    if constexpr (RowSet::kCoupledBounds) {
      // Only as far as the first free row reaches a bound, which is then held (a feasible
      // active-set step): where the free rows are dependent and their targets disagree (a
      // hinged plank's friction and normal rows both turn it only), the damped solve's step
      // is long along the near-null direction, and taking it whole would throw the joints'
      // impulses out by as much.
      // The fraction of its step each free row can take before it meets the bound it heads for.
      const auto reach = [&](Eigen::Index r) {
        const auto [lower, upper] = rows.bounds(r, lambda);
        const double room = with.delta[r] < 0.0 ? lower - lambda[r] : upper - lambda[r];
        return std::max(room / with.delta[r], 0.0);
      };
      const auto moves = [&](Eigen::Index r) { return !isHeld(r) && !spring(r) && with.delta[r] != 0.0; };
      double fraction = 1.0;
      for (Eigen::Index r = 0; r < m; ++r) {
        if (moves(r)) fraction = std::min(fraction, reach(r));
      }
      blocked = fraction < 1.0;
      if (blocked) {
        for (Eigen::Index r = 0; r < m; ++r) {
          if (!moves(r)) continue;
          if (reach(r) > fraction) {
            with.delta[r] *= fraction;
            continue;
          }
          const auto [lower, upper] = rows.bounds(r, lambda);  // the row that stops the step
          with.delta[r] = (with.delta[r] < 0.0 ? lower : upper) - lambda[r];
          held[static_cast<std::size_t>(r)] = 1;
          changed = true;
        }
      }
    }
    rows.jacobian().multiplyTransposed(with.delta, JtDelta_);
    W.multiply(JtDelta_, displacement_);
    v += displacement_;
    // The friction rows' bounds follow the normal rows' new impulses: all of them first.
    if constexpr (RowSet::kCoupledBounds) {
      for (Eigen::Index r = 0; r < m; ++r) {
        if ((isHeld(r) && with.delta[r] == 0.0) || spring(r)) continue;  // δ is 0 on the rows held in the solve
        lambda[r] += with.delta[r];
      }
    }
    for (Eigen::Index r = 0; r < m; ++r) {
      if (isHeld(r) || spring(r)) continue;
      if constexpr (!RowSet::kCoupledBounds) lambda[r] += with.delta[r];
      const auto [lower, upper] = rows.bounds(r, lambda);
      if (lambda[r] >= lower && lambda[r] <= upper) continue;
      clampInto(r, std::clamp(lambda[r], lower, upper));
      held[static_cast<std::size_t>(r)] = 1;
      changed = true;
    }
    if constexpr (RowSet::kCoupledBounds) {
      // A held row whose bounds moved with the impulses of others (sliding friction at
      // ±μ Σλ_n) follows its bound, to 0 where its face stopped pushing; one the bounds now leave
      // well inside (friction held at 0 until its face pushed) is let go.
      for (Eigen::Index r = 0; r < m; ++r) {
        if (spring(r) || !isHeld(r)) continue;
        const auto [lower, upper] = rows.bounds(r, lambda);
        if (lambda[r] == lower || lambda[r] == upper) continue;
        const double slack = kReleaseTolerance * std::max(upper - lower, 1e-12);
        if (lambda[r] > lower + slack && lambda[r] < upper - slack) {
          held[static_cast<std::size_t>(r)] = 0;
          changed = true;
          continue;
        }
        const double bound = lambda[r] > 0.5 * (lower + upper) ? upper : lower;
        if (std::abs(bound - lambda[r]) > slack) changed = true;  // not for round-off
        clampInto(r, bound);
      }
    }
    // A held row is let go by its target error only once the free rows took their whole step:
    // before, the others' errors are not settled, and one row's own error may point the
    // other way than the whole solve would take it (a motor at its bound with the friction of
    // its wheel free), so that letting it go and holding it again would cycle.
    for (Eigen::Index r = 0; r < m && !blocked; ++r) {
      if (spring(r) || !isHeld(r)) continue;
      const auto [lower, upper] = rows.bounds(r, lambda);
      if (lower == upper || limitActive(r)) continue;
      const double w = targetError(r);
      if ((lambda[r] == lower && w < -kReleaseTolerance) || (lambda[r] == upper && w > kReleaseTolerance)) {
        held[static_cast<std::size_t>(r)] = 0;
        changed = true;
      }
    }
    settled = !changed;
    if (settled && (!withSprings || (RowSet::kCoupledBounds && iteration + 1 >= minimumIterations))) break;
  }
  if constexpr (RowSet::kCoupledBounds) {
    // Stopped by the cap before the set settled: every impulse inside its bounds all the same.
    for (Eigen::Index r = 0; r < m; ++r) {
      if (spring(r)) continue;
      const auto [lower, upper] = rows.bounds(r, lambda);
      if (lambda[r] < lower || lambda[r] > upper) clampInto(r, std::clamp(lambda[r], lower, upper));
    }
  }
  return settled;
}

ProjectionResult GlobalVelocitySolve::project(ConstraintSystem& system, const BlockDiagonalMatrix& W, double time,
                                              Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                              const ProjectionSettings& settings, SolveTally& tally) {
  const auto evaluate = [&](const Eigen::VectorXd& at) { system.evaluate({time, at, v}, kJacobian); };
  SystemRows rows{system, kinds_};
  return projectRows(rows, joints_, W, q, evaluate, settings, tally);
}

ProjectionResult GlobalVelocitySolve::project(ConstraintSystem& system, const ContactSolver& contacts,
                                              const ContactFinder& finder, const BlockDiagonalMatrix& W, double time,
                                              Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                              const ProjectionSettings& settings, double speculative,
                                              SolveTally& tally) {
  ContactProjectionRows& rows = projectionRows_;
  if (rows.prepare(system, contacts, finder, speculative)) contactProjection_.layOut(rows, W);
  contactProjection_.solver->dampEverySolve();
  const auto evaluate = [&](const Eigen::VectorXd& at) { rows.evaluate(system, contacts, finder, {time, at, v}); };
  return projectRows(rows, contactProjection_, W, q, evaluate, settings, tally);
}

template <class RowSet, class Evaluate>
ProjectionResult GlobalVelocitySolve::projectRows(RowSet& rows, Rows& with, const BlockDiagonalMatrix& W,
                                                  Eigen::VectorXd& q, Evaluate&& evaluate,
                                                  const ProjectionSettings& settings, SolveTally& tally) {
  const double tolerance = settings.tolerance;
  const Eigen::Index m = rows.rows();
  // Adds the inequality rows with C < margin at the evaluated state; true if any.
  const auto activate = [&](double margin) {
    bool grew = false;
    for (Eigen::Index r = 0; r < m; ++r) {
      char& active = with.active[static_cast<std::size_t>(r)];
      if (active || rows.kind(r) != RowKind::Inequality || !(rows.value()[r] < rows.activationMargin(r, margin))) continue;
      active = 1;
      grew = true;
    }
    return grew;
  };
  // The line search's merit: ½‖violation‖₂², for which the Gauss–Newton step is a descent
  // direction (it is not for the max norm, which convergence is judged by).
  const auto merit = [&] {
    double sum = 0.0;
    for (Eigen::Index r = 0; r < m; ++r) sum += rows.violation(r) * rows.violation(r);
    return 0.5 * sum;
  };
  evaluate(q);
  double error = rows.maxViolation();
  if (m == 0 || error <= tolerance) return {0, error, true};
  for (Eigen::Index r = 0; r < m; ++r) with.active[static_cast<std::size_t>(r)] = rows.kind(r) == RowKind::Equality;
  activate(error);
  int iterations = 0;
  NewtonLineSearch search;
  while (iterations < settings.maxIterations && error > tolerance) {
    for (Eigen::Index r = 0; r < m; ++r) {
      const bool taking = with.active[static_cast<std::size_t>(r)] && rows.present(r);
      with.rhs[r] = taking ? -rows.value()[r] : 0.0;
      with.mask[static_cast<std::size_t>(r)] = !taking;
    }
    // The linear error of a step leaves a violation of about its relative residual times the
    // current one: a tenth of the tolerance is enough.
    const double linearTolerance = std::clamp(0.1 * tolerance / error, 1e-12, 0.1);
    with.delta.setZero();
    tally.add(with.solver->solve(ConstraintMatrix(rows.jacobian(), W, nullptr, with.mask, &with.workspace), with.rhs,
                                 with.delta, linearTolerance));
    rows.jacobian().multiplyTransposed(with.delta, JtDelta_);
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
    error = rows.maxViolation();
    if (error > tolerance && search.plateau(merit())) return {iterations, error, false, true};
  }
  return {iterations, error, error <= tolerance, false};
}

}  // namespace tinkertoy
