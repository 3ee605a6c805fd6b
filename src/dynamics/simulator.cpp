#include "tinkertoy/dynamics/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "common/vector_checks.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

Simulator::Simulator(Model& model, SimulationSettings settings)
    : hold_(model), model_(model), settings_((settings.validate(), settings)), formulation_(makeFormulation(model, settings_)) {
  refreshDiagnostics();
  watchFrom(diagnostics_);
}

void Simulator::syncStructure() {
  if (built_ && structureVersion_ == model_.structureVersion()) return;
  formulation_->rebuild();
  immovable_.build(model_);
  structureVersion_ = model_.structureVersion();
  built_ = true;
  measureScale();
}

void Simulator::measureScale() {
  modelSize_ = model_.size();
  totalMass_ = 0.0;
  for (std::size_t b = 0; b < model_.bodyCount(); ++b) totalMass_ += model_.body(model_.bodyAt(b)).totalMass();
}

void Simulator::watchFrom(const StepDiagnostics& state) {
  runaway_.restart(state.kineticEnergy, state.potentialEnergy, totalMass_, modelSize_, settings_.dt);
}

void Simulator::step() {
  syncStructure();
  const double startTime = model_.time();
  if (startTime + settings_.dt == startTime) {
    std::ostringstream message;
    message << "step " << stepCount_ + 1 << ": the clock cannot advance: at t = " << startTime
            << " s a step of dt = " << settings_.dt << " s is lost in round-off (a double resolves about "
            << startTime * 2.2e-16 << " s there); set the time back, or take longer steps";
    throw SimulationError(message.str(), stepCount_ + 1, startTime, std::nullopt, std::nullopt);
  }
  double time = startTime;
  const bool edited = model_.revision() != committedRevision_;
  if (edited || formulationStale_) formulation_->modelEdited();
  formulationStale_ = false;
  q_ = model_.q();
  v_ = model_.v();
  if (edited) {  // the reference moves to the edited state (runaway_watch.hpp), and its scale with it
    measureScale();
    const StepDiagnostics now = energyAt({startTime, q_, v_});
    runaway_.rebase(now.kineticEnergy, now.potentialEnergy, totalMass_, modelSize_, settings_.dt);
  }
  const ForceWork start = endForceWorkKnown_ && !edited ? endForceWork_ : forceWork({startTime, q_, v_});

  // A step refused below leaves the model where it was, not where the formulation's substeps
  // left what it keeps between steps (warm starts, contacts carried on): Formulation::step's
  // contract asks for modelEdited before it is given that state again. It is no edit of the
  // model: the blow-up watch keeps its reference, so that the same step is refused again.
  struct Refusal {
    bool& stale;
    bool committed = false;
    ~Refusal() {
      if (!committed) stale = true;
    }
  } refusal{formulationStale_};
  StepDiagnostics candidate;
  ForceWork end;
  try {
    formulation_->step(time, q_, v_, settings_.dt);
    // Measure the candidate state before committing it, so a bad one is never committed.
    candidate = measure({time, q_, v_}, true);
    end = forceWork({time, q_, v_});
  } catch (const UndefinedForceError& e) {
    throw failure(stepLabel() + e.what(), startTime);
  } catch (const UndefinedConstraintError& e) {
    const std::optional<ConstraintId> constraint =
        e.constraintIndex() ? std::optional(model_.constraintAt(*e.constraintIndex())) : std::nullopt;
    throw failure(stepLabel() + (constraint ? model_.describe(*constraint) + ": " : std::string()) + e.what(), startTime,
                  std::nullopt, constraint);
  } catch (const SingularSystemError& e) {
    throw singularError(e, startTime);
  } catch (const AdaptiveStepError& e) {
    throw failure(stepLabel() + e.what(), startTime);
  } catch (const SingularMassError& e) {
    throw failure(stepLabel() + e.what(), startTime, model_.bodyAt(e.body()));
  }

  candidate.step = stepCount_ + 1;
  candidate.work = WorkLedger::trapezoid(start.power, end.power, time - startTime);
  candidate.work += start.energy;
  candidate.work -= end.energy;
  candidate.work += formulation_->constraintWork();
  rejectIfBlownUp(candidate, startTime);
  refusal.committed = true;
  runaway_.commit(candidate.work);

  // Copied, not swapped: the model's q and v keep their storage from step to step, so views of
  // them (the Python module's, say) stay valid; only a layout edit moves them.
  model_.setState(time, q_, v_);
  ++stepCount_;
  diagnostics_ = candidate;
  endForceWork_ = end;
  endForceWorkKnown_ = true;
  analysesReported_ = formulation_->analyses();
  breakOverloadedConstraints();
  committedRevision_ = model_.revision();
}

bool Simulator::asleep(BodyId id) const {
  const std::size_t index = model_.indexOf(id);
  if (!built_ || structureVersion_ != model_.structureVersion()) return false;
  const std::span<const char> flags = formulation_->asleep();
  return index < flags.size() && flags[index] != 0;
}

Reaction Simulator::reaction(ConstraintId id) {
  syncStructure();
  const std::size_t k = model_.indexOf(id);
  const int d = model_.dimension();
  const Eigen::Vector4d f = formulation_->constraints().pointForce(model_, model_.state(), k, 0,
                                                                   lambda(id));
  return {f.head(d), f[3]};
}

// All reactions are measured before any constraint is disabled: disabling one changes the
// layout, after which the step's λ is gone.
void Simulator::breakOverloadedConstraints() {
  if (!model_.anyBreakForce()) return;
  const std::size_t before = breaks_.size();
  for (std::size_t k = 0; k < model_.constraintCount(); ++k) {
    const ConstraintId id = model_.constraintAt(k);
    if (!model_.isEnabled(id) || !std::isfinite(model_.breakForce(id))) continue;
    const double force = reaction(id).force.norm();
    if (force > model_.breakForce(id)) breaks_.push_back({stepCount_, model_.time(), id, force});
  }
  for (std::size_t i = before; i < breaks_.size(); ++i) model_.setEnabled(breaks_[i].constraint, false);
}

// A candidate state is blown up (docs/theory.md, "Blow-ups") if anything in it is not finite,
// or if its energy or ‖C‖ overflowed (a runaway whose q is still finite), or if the constraints
// came apart (‖C‖∞ above ten times the model's size) or are coming apart (‖Ċ‖∞ dt above it), or
// if its energy ran away (RunawayWatch). None of these is reached by an honest simulation. The
// message blames the first body with a non-finite coordinate, else the constraint that came
// apart furthest or fastest, else the fastest body, and the constraint with the largest multiplier.
void Simulator::rejectIfBlownUp(const StepDiagnostics& candidate, double startTime) const {
  const bool finite = q_.allFinite() && v_.allFinite() && formulation_->lambda().allFinite() &&
                      std::isfinite(candidate.totalEnergy()) &&
                      std::isfinite(candidate.constraintError) && std::isfinite(candidate.velocityError);
  const double apart = 10.0 * modelSize_;
  const bool cameApart = finite && candidate.constraintError > apart;
  const bool comingApart = finite && !cameApart && candidate.velocityError * settings_.dt > apart;
  const RunawayWatch::Verdict energy =
      finite ? runaway_.judge(candidate.totalEnergy(), candidate.work) : RunawayWatch::Verdict{};
  if (finite && !cameApart && !comingApart && !energy.runaway) return;

  const ConstraintSystem& system = formulation_->constraints();
  std::optional<BodyId> body;
  std::optional<ConstraintId> constraint;
  std::ostringstream what;
  for (std::size_t b = 0; b < model_.bodyCount() && !body; ++b) {
    const bool positionFinite = model_.slice(q_, b).allFinite();
    if (!positionFinite || !model_.slice(v_, b).allFinite()) {
      body = model_.bodyAt(b);
      what << model_.describe(*body)
           << (positionFinite ? " got a non-finite velocity" : " got a non-finite position");
    }
  }
  if (!body && (cameApart || comingApart) && system.rows() > 0) {
    const auto measureOf = [&](Eigen::Index r) { return cameApart ? system.violation(r) : system.velocityViolation(r); };
    Eigen::Index row = 0;
    for (Eigen::Index r = 1; r < system.rows(); ++r) {
      if (measureOf(r) > measureOf(row)) row = r;
    }
    constraint = model_.constraintAt(system.constraintOfRow(row));
    body = model_.constraint(*constraint).points().front().body;
    if (cameApart) {
      what << "the constraints came apart: " << model_.describe(*constraint) << " is violated by " << measureOf(row)
           << ", more than ten times the model's size (" << modelSize_ << " m)";
    } else {
      what << "the constraints are coming apart: " << model_.describe(*constraint) << " separates at |dC/dt| = "
           << measureOf(row) << ", more than ten times the model's size (" << modelSize_ << " m) per step of "
           << settings_.dt << " s";
    }
  }
  if (!body && model_.bodyCount() > 0) {
    std::size_t fastest = 0;
    double speed = -1.0;
    for (std::size_t b = 0; b < model_.bodyCount(); ++b) {
      const double s = model_.slice(v_, b).lpNorm<Eigen::Infinity>();
      if (s > speed) {
        speed = s;
        fastest = b;
      }
    }
    body = model_.bodyAt(fastest);
    if (energy.runaway) {
      what << "the state ran away: its energy is " << candidate.totalEnergy() << " J, and " << energy.error
           << " J of it is neither the energy it had at the start of the run (or its last edit) nor work done on it, "
           << "over " << RunawayWatch::kFactor << " times the model's energy scale (" << energy.scale
           << " J; docs/theory.md, \"Blow-ups\"); fastest is ";
    } else {
      what << "the state ran away (its energy or constraint error overflowed); fastest is ";
    }
    what << model_.describe(*body) << " at " << speed << " (largest velocity coordinate)";
  }
  if (!body) what << "a constraint force became non-finite";

  // Blame the constraint with a non-finite or the largest multiplier, preferring those that
  // touch the offending body, unless one already came apart.
  double worst = -1.0;
  if (!constraint) {
    const Eigen::VectorXd& lambda = formulation_->lambda();
    bool worstTouches = false;
    for (std::size_t k = 0; k < model_.constraintCount(); ++k) {
      const ConstraintId id = model_.constraintAt(k);
      const Constraint& c = model_.constraint(id);
      const auto points = c.points();
      const bool touches = body && std::any_of(points.begin(), points.end(), [&](const BodyPoint& p) {
                             return p.body == *body;
                           });
      const int rows = system.blocks(k).rows;  // none if disabled or immovable
      if (rows == 0) continue;
      const double size = lambda.segment(system.rowOffset(k), rows).cwiseAbs().maxCoeff();
      const double score = std::isfinite(size) ? size : INFINITY;
      if ((touches && !worstTouches) || (touches == worstTouches && score > worst)) {
        worst = score;
        worstTouches = touches;
        constraint = id;
      }
    }
  }

  std::ostringstream message;
  message << "simulation blew up at step " << stepCount_ + 1 << " (t = " << startTime << " s): "
          << what.str();
  if (constraint && worst >= 0.0) {
    message << "; largest constraint force on " << model_.describe(*constraint) << " (|λ| = " << worst << ")";
  }
  throw failure(message.str(), startTime, body, constraint);
}

std::string Simulator::stepLabel() const { return "step " + std::to_string(stepCount_ + 1) + ": "; }

SimulationError Simulator::failure(const std::string& message, double startTime, std::optional<BodyId> body,
                                   std::optional<ConstraintId> constraint) const {
  return SimulationError(message + ". The model keeps the state of step " + std::to_string(stepCount_) + ".",
                         stepCount_ + 1, startTime, body, constraint);
}

// A singular J W Jᵀ in the words of its cause: a blow-up within the step when it is not finite,
// a constraint without a gradient at this state, or redundant rows (which only an undamped solve
// lets through).
SimulationError Simulator::singularError(const SingularSystemError& e, double startTime) const {
  const std::size_t k = formulation_->constraints().constraintOfRow(e.row());
  const ConstraintId constraint = model_.constraintAt(k);
  const std::string step = std::to_string(stepCount_ + 1);
  const std::string row = "constraint row " + std::to_string(e.row()) + " (" + model_.describe(constraint) + ")";
  std::ostringstream message;
  switch (e.cause()) {
    case SingularSystemError::Cause::NotFinite:
      message << "simulation blew up at step " << step << " (t = " << startTime
              << " s): the state ran away within the step, and J W Jᵀ is not finite at " << row;
      break;
    case SingularSystemError::Cause::NoGradient:
      message << "step " << step << ": " << row << " has no gradient at this state (J = 0), so no force can hold it "
              << "(a rod whose ends meet, a point on a circle at its centre)";
      break;
    case SingularSystemError::Cause::Redundant:
      message << "step " << step << ": J W Jᵀ is singular: " << row << " is redundant with others";
      if (settings_.solver.regularization == 0.0) {
        message << " (the default damping, a regularization above 0, solves it)";
      } else {
        message << " even with the damping, regularization " << settings_.solver.regularization;
      }
      break;
  }
  return failure(message.str(), startTime, std::nullopt, constraint);
}

void Simulator::refreshDiagnostics() {
  syncStructure();
  diagnostics_ = measure(model_.state(), false);
  diagnostics_.step = stepCount_;
  analysesReported_ = formulation_->analyses();
}

StepDiagnostics Simulator::energyAt(const StateView& state) const {
  StepDiagnostics d;
  d.time = state.time;
  d.kineticEnergy = model_.kineticEnergy(state.q, state.v);
  for (std::size_t i = 0; i < model_.forceCount(); ++i) {
    d.potentialEnergy += model_.force(model_.forceAt(i)).potentialEnergy(model_.bodies(), state);
  }
  return d;
}

StepDiagnostics Simulator::measure(const StateView& state, bool afterStep) {
  StepDiagnostics d = energyAt(state);
  ConstraintSystem& system = formulation_->constraints();
  if (!(afterStep && formulation_->evaluatedAtStepEnd())) {
    system.evaluate(state, ConstraintSystem::Evaluation::ValuesOnly);
  }
  d.constraintError = system.maxViolation();
  d.velocityError = system.maxVelocityViolation();
  if (!immovable_.empty()) {
    const ImmovableConstraints::Violations v = immovable_.measure(model_, state);
    // The larger, and NaN if either is.
    if (!std::isnan(d.constraintError) && !(d.constraintError >= v.position)) d.constraintError = v.position;
    if (!std::isnan(d.velocityError) && !(d.velocityError >= v.velocity)) d.velocityError = v.velocity;
  }
  const SolveTally& tally = formulation_->tally();
  d.solves = tally.solves;
  d.solverIterations = tally.iterations;
  d.factorizations = tally.factorizations;
  d.relinearizedSolves = tally.relinearized;
  d.analyses = static_cast<int>(formulation_->analyses() - analysesReported_);
  const ProjectionTally& projection = formulation_->projectionTally();
  d.projectionIterations = projection.iterations;
  d.projectionConverged = projection.unconverged == 0;
  d.substepSplits = projection.splits;
  if (afterStep) {
    const AdaptiveTally& adaptive = formulation_->adaptiveTally();
    d.adaptiveSteps = adaptive.accepted;
    d.rejectedSteps = adaptive.rejected;
    d.adaptiveStepSize = adaptive.lastStep;
  }
  d.solverResidual = tally.maxResidual;
  const Formulation::ContactTally& contacts = formulation_->contactTally();
  d.contactPoints = contacts.points;
  d.penetration = contacts.penetration;
  d.asleep = contacts.asleep;
  return d;
}

Simulator::ForceWork Simulator::forceWork(const StateView& state) const {
  ForceWork work;
  for (std::size_t i = 0; i < model_.forceCount(); ++i) {
    const Force& force = model_.force(model_.forceAt(i));
    work.power[force.workSource()] += force.power(model_.bodies(), state);
    work.energy[force.workSource()] += force.externalEnergy(model_.bodies(), state);
  }
  return work;
}

std::span<const double> Simulator::lambda(ConstraintId id) {
  syncStructure();
  const std::size_t k = model_.indexOf(id);
  const ConstraintSystem::ConstraintBlocks& b = formulation_->constraints().blocks(k);
  return {formulation_->lambda().data() + b.row, static_cast<std::size_t>(b.rows)};
}

}  // namespace tinkertoy
