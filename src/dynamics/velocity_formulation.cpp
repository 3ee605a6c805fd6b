#include "dynamics/velocity_formulation.hpp"

namespace tinkertoy {

namespace {

// The velocity level needs J but never J̇; at the prediction, only C.
constexpr auto kJacobian = ConstraintSystem::Evaluation::WithoutJacobianDot;
constexpr auto kValues = ConstraintSystem::Evaluation::ValuesOnly;

}  // namespace

VelocityFormulation::VelocityFormulation(const Model& model, const SimulationSettings& settings)
    : model_(model), settings_(settings), sequential_(settings.solver.kind == SolverKind::SequentialImpulses),
      equality_(sequential_ ? SolverSettings{} : settings.solver, inverseMass_.matrix()) {}

void VelocityFormulation::rebuild() {
  system_.build(model_);
  inverseMass_.build(model_);
  applied_.build(model_);
  impulses_.build(system_);
  equality_.build(system_);
  lambda_.setZero(system_.rows());
  force_.setZero(model_.q().size());
  delta_.setZero(equality_.rows());
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
    pseudo_.setZero(v.size());
    solvePasses(pseudo_, SequentialImpulses::Pass::Position);
    q += h * pseudo_;
  }
  time += h;

  // 5. Projection onto C = 0 at the new positions.
  if (system_.rows() == 0 || settings_.velocity.positionCorrection != PositionCorrection::Projection) return;
  if (sequential_) {
    impulses_.projectPositions(model_, system_, W, time, q, v, settings_.velocity.iterations,
                               settings_.projection.tolerance, true);
  } else {
    projectGlobally(time, q, v);
  }
}

void VelocityFormulation::solveImpulses(Eigen::VectorXd& v, double h) {
  impulses_.prepare(system_, inverseMass_.matrix(), v, current_, predictedC_, h, settings_.velocity);
  impulses_.warmStart(v, settings_.velocity.warmStart);
  solvePasses(v, SequentialImpulses::Pass::Velocity);
}

void VelocityFormulation::solvePasses(Eigen::VectorXd& v, SequentialImpulses::Pass pass) {
  if (sequential_) {
    for (int i = 0; i < settings_.velocity.iterations; ++i) impulses_.solve(v, true, pass);
    tally_.add({settings_.velocity.iterations, 0.0});
  } else {
    solveGlobally(v, pass);
  }
}

// The equality rows are solved exactly (J_E v⁺ = −b_E) each pass, the other rows by one
// sequential pass in between; with equality rows only, one solve is the answer.
void VelocityFormulation::solveGlobally(Eigen::VectorXd& v, SequentialImpulses::Pass which) {
  equality_.gather(system_);
  const int passes = impulses_.hasNonEqualityRows() ? settings_.velocity.iterations : 1;
  Eigen::VectorXd& lambda = impulses_.impulses(which);
  const Eigen::VectorXd& bias = impulses_.bias(which);
  for (int pass = 0; pass < passes; ++pass) {
    if (impulses_.hasNonEqualityRows()) impulses_.solve(v, false, which);
    if (equality_.rows() == 0) continue;
    equality_.multiply(v, JEv_);
    rhs_.resize(equality_.rows());
    for (Eigen::Index i = 0; i < equality_.rows(); ++i) rhs_[i] = -(JEv_[i] + bias[equality_.systemRow(i)]);
    delta_.setZero();
    tally_.add(equality_.solveAndApply(rhs_, delta_, v));
    for (Eigen::Index i = 0; i < equality_.rows(); ++i) lambda[equality_.systemRow(i)] += delta_[i];
  }
}

// Gauss–Newton with backtracking: a full step δq = W J_Eᵀ δ with J_E W J_Eᵀ δ = −C_E is the
// minimum-norm correction of the linearized constraints, but far from the manifold (a cloth's
// whip in one large step) it can overshoot, so the step is halved until ‖C‖∞ decreases.
void VelocityFormulation::projectGlobally(double time, Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const double tolerance = settings_.projection.tolerance;
  system_.evaluate(model_, {time, q, v}, kJacobian);
  double error = system_.maxViolation();
  for (int i = 0; i < settings_.projection.maxIterations && equality_.rows() > 0 && error > tolerance; ++i) {
    equality_.gather(system_);
    rhs_.resize(equality_.rows());
    for (Eigen::Index r = 0; r < equality_.rows(); ++r) rhs_[r] = -system_.value()[equality_.systemRow(r)];
    delta_.setZero();
    tally_.add(equality_.solveForDisplacement(rhs_, delta_, displacement_));
    trial_ = q;
    for (double step = 1.0; step > 1.0 / 64; step *= 0.5) {
      q = trial_ + step * displacement_;
      system_.evaluate(model_, {time, q, v}, kJacobian);
      if (system_.maxViolation() < error) break;
    }
    error = system_.maxViolation();
  }
  if (impulses_.hasNonEqualityRows()) {
    impulses_.projectPositions(model_, system_, inverseMass_.matrix(), time, q, v, settings_.velocity.iterations,
                               tolerance, false);
  }
}

}  // namespace tinkertoy
