#include "dynamics/velocity_formulation.hpp"

namespace tinkertoy {

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

  // 2–3. Impulses at (q, v*).
  if (system_.rows() > 0) {
    system_.evaluate(model_, {time, q, v});
    impulses_.prepare(system_, W, v, h, settings_.velocity);
    impulses_.warmStart(v, settings_.velocity.warmStart);
    if (sequential_) {
      for (int i = 0; i < settings_.velocity.iterations; ++i) impulses_.solve(v, true);
      tally_.add({settings_.velocity.iterations, 0.0});
    } else {
      solveGlobally(v);
    }
    lambda_ = impulses_.impulses() / h;
    system_.jacobian().multiplyTransposed(lambda_, force_);
  }

  // 4. Symplectic Euler.
  q += h * v;
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

// The equality rows are solved exactly (J_E v⁺ = −b_E) each pass, the other rows by one
// sequential pass in between; with equality rows only, one solve is the answer.
void VelocityFormulation::solveGlobally(Eigen::VectorXd& v) {
  equality_.gather(system_);
  const int passes = impulses_.hasNonEqualityRows() ? settings_.velocity.iterations : 1;
  Eigen::VectorXd& lambda = impulses_.impulses();
  for (int pass = 0; pass < passes; ++pass) {
    if (impulses_.hasNonEqualityRows()) impulses_.solve(v, false);
    if (equality_.rows() == 0) continue;
    equality_.multiply(v, JEv_);
    rhs_.resize(equality_.rows());
    for (Eigen::Index i = 0; i < equality_.rows(); ++i) rhs_[i] = -(JEv_[i] + impulses_.bias()[equality_.systemRow(i)]);
    delta_.setZero();
    tally_.add(equality_.solveAndApply(rhs_, delta_, v));
    for (Eigen::Index i = 0; i < equality_.rows(); ++i) lambda[equality_.systemRow(i)] += delta_[i];
  }
}

void VelocityFormulation::projectGlobally(double time, Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const double tolerance = settings_.projection.tolerance;
  for (int i = 0; i < settings_.projection.maxIterations && equality_.rows() > 0; ++i) {
    system_.evaluate(model_, {time, q, v});
    if (system_.maxViolation() <= tolerance) break;
    equality_.gather(system_);
    rhs_.resize(equality_.rows());
    for (Eigen::Index r = 0; r < equality_.rows(); ++r) rhs_[r] = -system_.value()[equality_.systemRow(r)];
    delta_.setZero();
    tally_.add(equality_.solveAndApply(rhs_, delta_, q));
  }
  if (impulses_.hasNonEqualityRows()) {
    impulses_.projectPositions(model_, system_, inverseMass_.matrix(), time, q, v, settings_.velocity.iterations,
                               tolerance, false);
  }
}

}  // namespace tinkertoy
