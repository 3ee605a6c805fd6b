#include "tinkertoy/dynamics/simulator.hpp"

#include <cmath>
#include <sstream>

#include "common/vector_checks.hpp"

namespace tinkertoy {

void SimulationSettings::validate() const {
  detail::requirePositive(dt, "dt");
  detail::requireNonNegative(ks, "ks");
  detail::requireNonNegative(kd, "kd");
  detail::requirePositive(solver.tolerance, "solver tolerance");
  if (solver.maxIterations < 0) throw std::invalid_argument("solver iteration cap must not be negative");
  detail::requireNonNegative(solver.regularization, "ldlt regularization");
  detail::requirePositive(projection.tolerance, "projection tolerance");
  if (projection.maxIterations < 1) throw std::invalid_argument("projection iterations must be at least 1");
}

// Forwards to the dynamics and keeps λ and Q̂ of the first call: the solve at the state the
// step starts from, which is the state the previous step's diagnostics describe.
class Simulator::FirstStageRecorder final : public AccelerationField {
 public:
  FirstStageRecorder(AccelerationDynamics& dynamics, Eigen::VectorXd& lambda, Eigen::VectorXd& force)
      : dynamics_(dynamics), lambda_(lambda), force_(force) {}

  void acceleration(const StateView& state, Eigen::VectorXd& a) override {
    dynamics_.acceleration(state, a);
    if (first_) {
      lambda_ = dynamics_.lambda();
      force_ = dynamics_.constraintForce();
      first_ = false;
    }
  }

 private:
  AccelerationDynamics& dynamics_;
  Eigen::VectorXd& lambda_;
  Eigen::VectorXd& force_;
  bool first_ = true;
};

Simulator::Simulator(Model& model, SimulationSettings settings)
    : model_(model), settings_((settings.validate(), settings)),
      dynamics_(model, settings_.solver, settings_.ks, settings_.kd),
      integrator_(settings_.integrator), projection_(settings_.projection) {
  refreshDiagnostics();
}

void Simulator::syncStructure() {
  if (built_ && structureVersion_ == model_.structureVersion()) return;
  dynamics_.rebuild();
  reportedLambda_.setZero(dynamics_.constraints().rows());
  reportedForce_.setZero(model_.q().size());
  structureVersion_ = model_.structureVersion();
  built_ = true;
}

void Simulator::step() {
  syncStructure();
  const double startTime = model_.time();
  double time = startTime;
  q_ = model_.q();
  v_ = model_.v();
  dynamics_.tally() = {};

  try {
    FirstStageRecorder recorder(dynamics_, reportedLambda_, reportedForce_);
    integrator_.step(recorder, time, q_, v_, settings_.dt);
    if (settings_.projection.enabled) projection_.apply(dynamics_, model_, time, q_, v_);
  } catch (const SingularSystemError& e) {
    const std::size_t k = dynamics_.constraints().constraintOfRow(e.row());
    const ConstraintId constraint = model_.constraintAt(k);
    throw SimulationError("step " + std::to_string(stepCount_ + 1) + ": " + e.what() + "; row " +
                              std::to_string(e.row()) + " belongs to " + model_.describe(constraint),
                          stepCount_ + 1, startTime, std::nullopt, constraint);
  }

  if (!q_.allFinite() || !v_.allFinite() || !dynamics_.lambda().allFinite()) {
    reportBlowUp(startTime);
  }

  model_.q().swap(q_);
  model_.v().swap(v_);
  model_.setTime(time);
  ++stepCount_;
  refreshDiagnostics();
}

void Simulator::reportBlowUp(double startTime) const {
  const int d = model_.dimension();
  std::optional<ParticleId> particle;
  const char* what = "a non-finite constraint force";
  for (Eigen::Index i = 0; i < q_.size(); ++i) {
    if (!std::isfinite(q_[i]) || !std::isfinite(v_[i])) {
      particle = model_.particleAt(static_cast<std::size_t>(i / d));
      what = std::isfinite(q_[i]) ? "a non-finite velocity" : "a non-finite position";
      break;
    }
  }

  // Blame the constraint with a non-finite or the largest multiplier, preferring those
  // that touch the offending particle.
  const ConstraintSystem& system = dynamics_.constraints();
  const Eigen::VectorXd& lambda = dynamics_.lambda();
  std::optional<ConstraintId> constraint;
  double worst = -1.0;
  bool worstTouches = false;
  for (std::size_t k = 0; k < model_.constraintCount(); ++k) {
    const ConstraintId id = model_.constraintAt(k);
    const Constraint& c = model_.constraint(id);
    const auto particles = c.particles();
    const bool touches =
        particle && std::find(particles.begin(), particles.end(), *particle) != particles.end();
    const double size = lambda.segment(system.rowOffset(k), c.rows()).cwiseAbs().maxCoeff();
    const double score = std::isfinite(size) ? size : INFINITY;
    if ((touches && !worstTouches) || (touches == worstTouches && score > worst)) {
      worst = score;
      worstTouches = touches;
      constraint = id;
    }
  }

  std::ostringstream message;
  message << "simulation blew up at step " << stepCount_ + 1 << " (t = " << startTime << " s): ";
  message << (particle ? model_.describe(*particle) + " got " + what : std::string(what));
  if (constraint) message << "; largest constraint force on " << model_.describe(*constraint)
                          << " (|λ| = " << worst << ")";
  message << ". The model keeps the state of step " << stepCount_ << ".";
  throw SimulationError(message.str(), stepCount_ + 1, startTime, particle, constraint);
}

void Simulator::refreshDiagnostics() {
  syncStructure();
  const StateView state{model_.time(), model_.q(), model_.v()};
  StepDiagnostics& d = diagnostics_;
  d.step = stepCount_;
  d.time = model_.time();
  d.kineticEnergy = 0.5 * model_.v().cwiseProduct(model_.v()).cwiseQuotient(model_.inverseMass()).sum();
  d.potentialEnergy = 0.0;
  for (std::size_t i = 0; i < model_.forceCount(); ++i) {
    d.potentialEnergy += model_.force(model_.forceAt(i)).potentialEnergy(model_, state);
  }
  ConstraintSystem& system = dynamics_.constraints();
  system.evaluate(model_, state);
  d.constraintError = system.rows() > 0 ? system.value().lpNorm<Eigen::Infinity>() : 0.0;
  d.velocityError = system.rows() > 0 ? system.velocity().lpNorm<Eigen::Infinity>() : 0.0;
  const SolveTally& tally = dynamics_.tally();
  d.solves = tally.solves;
  d.solverIterations = tally.iterations;
  d.solverResidual = tally.maxResidual;
}

std::span<const double> Simulator::lambda(ConstraintId id) {
  syncStructure();
  const std::size_t k = model_.indexOf(id);
  return {reportedLambda_.data() + dynamics_.constraints().rowOffset(k),
          static_cast<std::size_t>(model_.constraint(id).rows())};
}

}  // namespace tinkertoy
