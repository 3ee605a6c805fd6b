#include "dynamics/velocity_formulation.hpp"

#include <algorithm>

namespace tinkertoy {

namespace {

// The velocity level needs J but never J̇; at the prediction, only C.
constexpr auto kJacobian = ConstraintSystem::Evaluation::WithoutJacobianDot;
constexpr auto kValues = ConstraintSystem::Evaluation::ValuesOnly;

}  // namespace

VelocityFormulation::VelocityFormulation(const Model& model, const SimulationSettings& settings)
    : model_(model), settings_(settings), sequential_(settings.solver.kind == SolverKind::SequentialImpulses),
      global_(sequential_ ? SolverSettings{} : settings.solver, inverseMass_.matrix()) {}

void VelocityFormulation::rebuild() {
  system_.build(model_);
  inverseMass_.build(model_);
  applied_.build(model_);
  impulses_.build(system_);
  if (!sequential_) {
    global_.build(system_);
    const Eigen::Index rows = global_.rows();
    rhs_.setZero(rows);
    delta_.setZero(rows);
    JBv_.setZero(rows);
    for (std::vector<char>& held : held_) {
      held.resize(static_cast<std::size_t>(rows));
      startHeld(held);
    }
    // Each motor with the inequality rows of its own joint (its limits), which J_B lists just
    // before it: a joint's rows are consecutive.
    const auto kinds = system_.kinds();
    const auto kindOf = [&](Eigen::Index r) { return kinds[static_cast<std::size_t>(global_.systemRow(r))]; };
    const auto jointOf = [&](Eigen::Index r) { return system_.constraintOfRow(global_.systemRow(r)); };
    motorLimits_.clear();
    for (Eigen::Index m = 0; m < rows; ++m) {
      if (kindOf(m) != RowKind::Motor) continue;
      for (Eigen::Index l = m - 1; l >= 0 && jointOf(l) == jointOf(m); --l) {
        if (kindOf(l) == RowKind::Inequality) motorLimits_.emplace_back(m, l);
      }
    }
    active_.assign(static_cast<std::size_t>(rows), 0);
  }
  lambda_.setZero(system_.rows());
  force_.setZero(model_.q().size());
  pseudo_.setZero(model_.v().size());
}

void VelocityFormulation::step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  tally_ = {};
  inverseMass_.invalidate();
  const int substeps = settings_.velocity.substeps;
  for (int s = 0; s < substeps; ++s) substep(time, q, v, h / substeps);
}

void VelocityFormulation::substep(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  // 1. Applied forces into the velocities.
  inverseMass_.update(model_, q);
  const BlockDiagonalMatrix& W = inverseMass_.matrix();
  applied_.evaluate(model_, {time, q, v}, Q_);
  W.multiply(Q_, WQ_);
  v += h * WQ_;

  // 2–3. Impulses that aim at C = 0 at the end of the substep (SequentialImpulses::prepare).
  if (system_.rows() > 0) {
    predicted_ = q + h * v;
    system_.evaluate(model_, {time + h, predicted_, v}, kValues);
    predictedC_ = system_.value();
    system_.evaluate(model_, {time, q, v}, kJacobian);
    current_ = system_.value();
    vStar_ = v;
    previousImpulses_ = impulses_.impulses();
    const double kinetic = model_.kineticEnergy(q, v);
    solveImpulses(v, h);
    // Ideal constraint impulses do no work; a solve linearized at q that adds much kinetic
    // energy has met a motion too fast for its step (h|v| near a link's length, as in a
    // whipping cloth). Redo it linearized at the prediction, which cannot add energy there.
    if (model_.kineticEnergy(q, v) > 1.01 * kinetic + 1e-12) {
      v = vStar_;
      impulses_.impulses() = previousImpulses_;
      system_.evaluate(model_, {time + h, predicted_, v}, kJacobian);
      solveImpulses(v, h);
    }
    lambda_ = impulses_.impulses() / h;
    system_.jacobian().multiplyTransposed(lambda_, force_);
  }

  // 4. Symplectic Euler, with Baumgarte's pseudo velocity in the positions only.
  q += h * v;
  if (system_.rows() > 0 && settings_.velocity.positionCorrection == PositionCorrection::Baumgarte) {
    pseudo_.setZero();
    solvePasses(pseudo_, SequentialImpulses::Pass::Position);
    q += h * pseudo_;
  }
  time += h;

  // 5. Projection onto C = 0 at the new positions.
  if (system_.rows() == 0 || settings_.velocity.positionCorrection != PositionCorrection::Projection) return;
  if (sequential_) {
    impulses_.projectPositions(model_, system_, W, time, q, v, settings_.velocity.iterations,
                               settings_.projection.tolerance);
  } else {
    projectGlobally(time, q, v);
  }
}

void VelocityFormulation::solveImpulses(Eigen::VectorXd& v, double h) {
  impulses_.prepare(system_, inverseMass_.matrix(), v, current_, predictedC_, h, settings_.velocity);
  impulses_.warmStart(v, settings_.velocity.warmStart);
  solvePasses(v, SequentialImpulses::Pass::Velocity);
}

void VelocityFormulation::startHeld(std::vector<char>& held) const {
  const auto kinds = system_.kinds();
  for (Eigen::Index r = 0; r < global_.rows(); ++r) {
    held[static_cast<std::size_t>(r)] = kinds[static_cast<std::size_t>(global_.systemRow(r))] == RowKind::Inequality;
  }
}

void VelocityFormulation::solvePasses(Eigen::VectorXd& v, SequentialImpulses::Pass pass) {
  if (sequential_) {
    for (int i = 0; i < settings_.velocity.iterations; ++i) impulses_.solve(v, pass);
    tally_.add({settings_.velocity.iterations, 0.0});
  } else {
    solveGlobally(v, pass);
  }
}

// All rows but the springs in one sparse solve, J_B W J_Bᵀ δ = −(J_B v + b_B), with an active
// set for the rows whose impulse is bounded (inequality rows, motors): a row whose accumulated
// impulse leaves its bounds is clamped to the bound and held there, and a held row whose
// target then pulls it back inside (J v + b < 0 at the lower bound, > 0 at the upper) is let
// go; the solve repeats until the set settles, at most `iterations` times. The inequality rows
// start held at zero; the velocity pass then starts from the previous substep's set. A motor
// and a limit of one joint act on the same coordinate and cannot both meet their targets: while
// the limit is active the motor is held at the bound it pushes toward. Spring rows (soft,
// bounded in norm) get one sequential pass before each solve.
void VelocityFormulation::solveGlobally(Eigen::VectorXd& v, SequentialImpulses::Pass pass) {
  constexpr double kReleaseTolerance = 1e-10;  // in the row's velocity units: ignores round-off
  const bool springs = impulses_.hasSpringRows();
  const Eigen::VectorXd& bias = impulses_.bias(pass);
  Eigen::VectorXd& lambda = impulses_.impulses(pass);
  std::vector<char>& held = held_[pass == SequentialImpulses::Pass::Velocity ? 0 : 1];
  if (pass == SequentialImpulses::Pass::Position) startHeld(held);
  const auto isHeld = [&](Eigen::Index r) { return held[static_cast<std::size_t>(r)] != 0; };
  const auto clampInto = [&](Eigen::Index row, double value) {
    impulses_.applyImpulse(row, value - lambda[row], v);
    lambda[row] = value;
  };
  // The target error w = J v + b of a system row: sequential impulses would move λ by −w / K.
  const auto targetError = [&](Eigen::Index row) { return impulses_.rowVelocity(row, v) + bias[row]; };
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
  for (Eigen::Index r = 0; r < global_.rows(); ++r) {
    const Eigen::Index row = global_.systemRow(r);
    const auto [lower, upper] = impulses_.bounds(row, pass);
    clampInto(row, std::clamp(lambda[row], lower, upper));
    char& h = held[static_cast<std::size_t>(r)];
    h = lower == upper || (h && (lambda[row] == lower || lambda[row] == upper));
  }
  for (int iteration = 0; iteration < settings_.velocity.iterations; ++iteration) {
    if (springs) impulses_.solveSprings(v);
    if (global_.rows() == 0) continue;
    for (const auto& [motor, limit] : motorLimits_) {
      if (isHeld(motor) || isHeld(limit)) continue;
      const Eigen::Index row = global_.systemRow(motor);
      const auto [lower, upper] = impulses_.bounds(row, pass);
      clampInto(row, targetError(row) < 0.0 ? upper : lower);
      held[static_cast<std::size_t>(motor)] = 1;
    }
    global_.gather(system_);
    global_.multiply(v, JBv_);
    for (Eigen::Index r = 0; r < global_.rows(); ++r) {
      if (isHeld(r)) global_.holdOut(r);
      rhs_[r] = isHeld(r) ? 0.0 : -(JBv_[r] + bias[global_.systemRow(r)]);
    }
    delta_.setZero();
    tally_.add(global_.solveAndApply(rhs_, delta_, v));
    bool changed = false;
    for (Eigen::Index r = 0; r < global_.rows(); ++r) {
      if (isHeld(r)) continue;
      const Eigen::Index row = global_.systemRow(r);
      const auto [lower, upper] = impulses_.bounds(row, pass);
      lambda[row] += delta_[r];
      if (lambda[row] >= lower && lambda[row] <= upper) continue;
      clampInto(row, std::clamp(lambda[row], lower, upper));
      held[static_cast<std::size_t>(r)] = 1;
      changed = true;
    }
    for (Eigen::Index r = 0; r < global_.rows(); ++r) {
      const Eigen::Index row = global_.systemRow(r);
      const auto [lower, upper] = impulses_.bounds(row, pass);
      if (!isHeld(r) || lower == upper || limitActive(r)) continue;
      const double w = targetError(row);
      if ((lambda[row] == lower && w < -kReleaseTolerance) || (lambda[row] == upper && w > kReleaseTolerance)) {
        held[static_cast<std::size_t>(r)] = 0;
        changed = true;
      }
    }
    if (!changed && !springs) break;
  }
}

// Gauss–Newton with backtracking: a full step δq = W J_Bᵀ δ with J_B W J_Bᵀ δ = −C_B is the
// minimum-norm correction of the linearized constraints, but far from the manifold (a cloth's
// whip in one large step) it can overshoot, so the step is halved until the violation
// decreases. The rows are the equality rows and an active set of inequality rows held at their
// bound (C = 0): those within the current violation of it, C < ‖C‖∞, which a correction of
// that size could push past, and any that a full step does push past, after which the step is
// recomputed (at most once per inequality row, and not counted as an iteration). The set only
// grows, so a correction cannot trade one stretched rope segment for its neighbour and back.
// Motor rows take no part.
void VelocityFormulation::projectGlobally(double time, Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const double tolerance = settings_.projection.tolerance;
  const auto kinds = system_.kinds();
  const auto kindOf = [&](Eigen::Index r) { return kinds[static_cast<std::size_t>(global_.systemRow(r))]; };
  // Adds the inequality rows with C < margin at the evaluated state; true if any.
  const auto activate = [&](double margin) {
    bool grew = false;
    for (Eigen::Index r = 0; r < global_.rows(); ++r) {
      char& active = active_[static_cast<std::size_t>(r)];
      if (active || kindOf(r) != RowKind::Inequality || !(system_.value()[global_.systemRow(r)] < margin)) continue;
      active = 1;
      grew = true;
    }
    return grew;
  };
  system_.evaluate(model_, {time, q, v}, kJacobian);
  double error = system_.maxViolation();
  if (global_.rows() == 0 || error <= tolerance) return;
  for (Eigen::Index r = 0; r < global_.rows(); ++r) active_[static_cast<std::size_t>(r)] = kindOf(r) == RowKind::Equality;
  activate(error);
  int iterations = 0;
  while (iterations < settings_.projection.maxIterations && error > tolerance) {
    global_.gather(system_);
    for (Eigen::Index r = 0; r < global_.rows(); ++r) {
      const bool active = active_[static_cast<std::size_t>(r)] != 0;
      if (!active) global_.holdOut(r);
      rhs_[r] = active ? -system_.value()[global_.systemRow(r)] : 0.0;
    }
    delta_.setZero();
    tally_.add(global_.solveForDisplacement(rhs_, delta_, displacement_));
    trial_ = q;
    q += displacement_;
    system_.evaluate(model_, {time, q, v}, kJacobian);
    if (activate(0.0)) {  // the step pushed a slack row past its bound: take it in and retry
      q = trial_;
      system_.evaluate(model_, {time, q, v}, kJacobian);
      continue;
    }
    for (double step = 0.5; !(system_.maxViolation() < error) && step > 1.0 / 64; step *= 0.5) {
      q = trial_ + step * displacement_;
      system_.evaluate(model_, {time, q, v}, kJacobian);
    }
    error = system_.maxViolation();
    ++iterations;
  }
}

}  // namespace tinkertoy
