#include "dynamics/acceleration_formulation.hpp"

#include "tinkertoy/archive/state_archive.hpp"

namespace tinkertoy {

void AccelerationFormulation::StepStartRecorder::acceleration(const StateView& state, Eigen::VectorXd& a) {
  owner_.dynamics_.acceleration(state, a);
}

void AccelerationFormulation::StepStartRecorder::stepStart(const StateView& state, Eigen::VectorXd& a) {
  owner_.dynamics_.acceleration(state, a);
  owner_.lambda_ = owner_.dynamics_.lambda();
  owner_.force_ = owner_.dynamics_.constraintForce();
}

void AccelerationFormulation::ProjectingCorrector::correct(double time, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  owner_.projectionTally_.add(owner_.projection_.apply(owner_.dynamics_, time, q, v));
}

AccelerationFormulation::AccelerationFormulation(const Model& model, const SimulationSettings& settings)
    : model_(model), parallel_(makeParallelLoop(settings.threads)),
      dynamics_(model, settings.solver, settings.ks, settings.kd), projection_(settings.projection),
      project_(settings.projection.enabled && settings.integrator != IntegratorKind::Rattle) {
  dynamics_.constraints().useThreads(parallel_.get());
  if (settings.integrator == IntegratorKind::Rattle) {
    rattle_.emplace(settings.projection);
  } else if (settings.integrator == IntegratorKind::DormandPrince5) {
    dopri_.emplace(settings.errorTolerance);
  } else {
    integrator_.emplace(settings.integrator);
  }
}

void AccelerationFormulation::rebuild() {
  dynamics_.rebuild();
  constraintWork_.build(model_);
  endPowerKnown_ = false;
  lambda_.setZero(dynamics_.constraints().rows());
  force_.setZero(model_.q().size());
  if (rattle_) rattle_->reset(dynamics_.constraints().rows());
  if (dopri_) dopri_->reset();
  for (StepStart& start : rattleStarts_) {  // sized now: a first split does not allocate
    start.q.setZero(model_.q().size());
    start.v.setZero(model_.v().size());
  }
}

void AccelerationFormulation::modelEdited() {
  dynamics_.invalidateMasses();
  endPowerKnown_ = false;
  if (dopri_) dopri_->reset();  // its step in progress was of the model before the edit
}

// Driven rows do work (−λᵀ ∂C/∂t): the ledger sums it by the trapezoid rule from their power at
// the step's start (kept from the step before) and at its end, each from a solve at that state.
void AccelerationFormulation::step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  dynamics_.tally() = {};
  projectionTally_ = {};
  work_ = {};
  const bool driven = dynamics_.constraints().hasDrivenRows();
  const WorkLedger startPower = !driven ? WorkLedger{} : endPowerKnown_ ? endPower_ : drivenPower({time, q, v});
  advance(time, q, v, h);
  if (!driven) return;
  endPower_ = drivenPower({time, q, v});
  endPowerKnown_ = true;
  work_ = WorkLedger::trapezoid(startPower, endPower_, h);
}

void AccelerationFormulation::serialize(StateArchive& archive) {
  const Eigen::Index m = dynamics_.constraints().rows(), n = model_.v().size();
  archive.numbers(lambda_, m);
  archive.numbers(force_, n);
  archive.flag(endPowerKnown_);
  endPower_.serialize(archive);
  dynamics_.serialize(archive);
  if (dopri_) dopri_->serialize(archive, n);
  if (rattle_) rattle_->serialize(archive, m);
}

WorkLedger AccelerationFormulation::drivenPower(const StateView& state) {
  dynamics_.acceleration(state, drivenAcceleration_);
  WorkLedger power;
  constraintWork_.add(dynamics_.constraints(), dynamics_.lambda(), state.v, state.v, power, true);
  return power;
}

void AccelerationFormulation::advance(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  if (rattle_) {
    rattleAdvance(time, q, v, h, 0);
    lambda_ = rattle_->lambda();
    force_ = rattle_->constraintForce();
    return;
  }
  if (dopri_) {
    adaptiveTally_ = dopri_->advance(recorder_, project_ ? &corrector_ : nullptr, time, q, v, time + h);
    // λ and Q̂ of the state returned (its steps may end well after it): one more solve.
    recorder_.stepStart({time, q, v}, outputAcceleration_);
    return;
  }
  integrator_->step(recorder_, time, q, v, h);
  if (project_) projectionTally_.add(projection_.apply(dynamics_, time, q, v));
}

// A RATTLE step whose position stage does not converge moved too far for its simplified Newton
// (h |v| κ near 1: a whip, or a step across a singular position, where J at the step's start
// cannot reach the manifold at its end). It is redone as two halves, and so on up to
// kMostRattleSplits times, so that every step ends on C = 0; only the hard moments cost more.
void AccelerationFormulation::rattleAdvance(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h, int depth) {
  const bool splittable = depth < kMostRattleSplits;
  StepStart& start = rattleStarts_[static_cast<std::size_t>(std::min(depth, kMostRattleSplits - 1))];
  const double startTime = time;
  if (splittable) {
    start.q = q;
    start.v = v;
  }
  const ProjectionResult result = rattle_->step(dynamics_, time, q, v, h);
  if (result.converged || !splittable) {
    projectionTally_.add(result);
    return;
  }
  time = startTime;
  q = start.q;
  v = start.v;
  rattle_->reset(dynamics_.constraints().rows());  // its warm start came from the failed step
  projectionTally_.iterations += result.iterations;
  ++projectionTally_.splits;
  rattleAdvance(time, q, v, 0.5 * h, depth + 1);
  rattleAdvance(time, q, v, 0.5 * h, depth + 1);
}

}  // namespace tinkertoy
