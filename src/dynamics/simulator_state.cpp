// Simulator::saveState and restoreState: the simulator's part of a state file, and the
// formulation's after it (archive/state_archive.hpp, docs/theory.md "Exact save and restore").
//
// The order of the items:
//   what the state belongs to     counts, a fingerprint of the model, every setting but threads
//   the model                     which constraints are enabled, time, q, v
//   (the layout is rebuilt here if the enabled constraints differ)
//   the simulator                 step count, model size, diagnostics, the blow-up reference, the forces' power and
//                                 external energy at the last state, the breaks so far
//   the formulation               Formulation::serialize
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

#include "common/fnv1a.hpp"
#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy {

namespace {

std::string exactly(double x) {
  std::ostringstream out;
  out << std::setprecision(17) << x;
  return out.str();
}

// A hash of the model's bodies, constraints and forces by description: a state saved from
// another scene of the same sizes is refused, not restored into the wrong model.
std::string fingerprint(const Model& model) {
  std::uint64_t hash = detail::kFnv1aStart;
  // Each text ends with a zero byte, so that "ab" + "c" differs from "a" + "bc".
  const auto add = [&hash](std::string_view text) {
    hash = detail::fnv1a(std::string_view("\0", 1), detail::fnv1a(text, hash));
  };
  for (std::size_t i = 0; i < model.bodyCount(); ++i) add(model.describe(model.bodyAt(i)));
  for (std::size_t k = 0; k < model.constraintCount(); ++k) add(model.describe(model.constraintAt(k)));
  for (std::size_t i = 0; i < model.forceCount(); ++i) add(model.force(model.forceAt(i)).type());
  std::ostringstream out;
  out << std::hex << std::setw(16) << std::setfill('0') << hash;
  return out.str();
}

void serialize(StateArchive& archive, StepDiagnostics& d) {
  archive.integer(d.step);
  for (double* x : {&d.time, &d.kineticEnergy, &d.potentialEnergy, &d.constraintError, &d.velocityError,
                    &d.adaptiveStepSize, &d.solverResidual}) {
    archive.number(*x);
  }
  for (int* x : {&d.solves, &d.factorizations, &d.relinearizedSolves, &d.analyses, &d.projectionIterations,
                 &d.substepSplits, &d.adaptiveSteps, &d.rejectedSteps}) {
    archive.integer(*x);
  }
  archive.integer(d.solverIterations);
  archive.flag(d.projectionConverged);
  d.work.serialize(archive);
}

}  // namespace

void Simulator::expectSameModelAndSettings(StateArchive& archive, std::string_view origin) const {
  const Model& model = model_;
  archive.expect("the dimension", std::to_string(model.dimension()));
  archive.expect("the number of coordinates", std::to_string(model.q().size()));
  archive.expect("the number of bodies", std::to_string(model.bodyCount()));
  archive.expect("the number of constraints", std::to_string(model.constraintCount()));
  archive.expect("the number of forces", std::to_string(model.forceCount()));
  archive.expect("the model's fingerprint (a hash of its bodies, constraints and forces)", fingerprint(model));
  archive.expect("the origin", std::string(origin));

  const SimulationSettings& s = settings_;
  const std::pair<std::string_view, std::string> settings[] = {
      {"dt", exactly(s.dt)},
      {"formulation", std::string(formulationName(s.formulation))},
      {"integrator", std::string(integratorName(s.integrator))},
      {"rtol", exactly(s.errorTolerance.relative)},
      {"atol", exactly(s.errorTolerance.absolute)},
      {"solver", std::string(solverName(s.solver.kind))},
      {"the solver's tolerance", exactly(s.solver.tolerance)},
      {"the solver's iteration cap", std::to_string(s.solver.maxIterations)},
      {"regularization", exactly(s.solver.regularization)},
      {"factorization", std::string(factorizationName(s.solver.factorization))},
      {"reuse iterations", std::to_string(s.solver.reuseIterations)},
      {"ks", exactly(s.ks)},
      {"kd", exactly(s.kd)},
      {"projection", s.projection.enabled ? "on" : "off"},
      {"the projection's tolerance", exactly(s.projection.tolerance)},
      {"the projection's iteration cap", std::to_string(s.projection.maxIterations)},
      {"velocity iterations", std::to_string(s.velocity.iterations)},
      {"substeps", std::to_string(s.velocity.substeps)},
      {"the velocity scheme", std::string(velocitySchemeName(s.velocity.scheme))},
      {"warm starting", s.velocity.warmStart ? "on" : "off"},
      {"position correction", std::string(positionCorrectionName(s.velocity.positionCorrection))},
      {"baumgarte", exactly(s.velocity.baumgarte)},
      {"joint hertz", exactly(s.velocity.jointHertz)},
      {"the joint damping ratio", exactly(s.velocity.jointDampingRatio)},
  };
  for (const auto& [what, value] : settings) archive.expect(what, value);
  archive.expect("collisions", s.velocity.collisions ? "on" : "off");
  if (s.velocity.collisions) {
    archive.expect("friction", exactly(s.velocity.friction));
    archive.expect("restitution", exactly(s.velocity.restitution));
    archive.expect("contact hertz", exactly(s.velocity.contactHertz));
    archive.expect("the contact damping ratio", exactly(s.velocity.contactDampingRatio));
    archive.expect("sleep", s.velocity.sleep ? "on" : "off");
  }
  if (s.velocity.collisions && s.velocity.sleep) {
    archive.expect("the sleep speed", exactly(s.velocity.sleepSpeed));
    archive.expect("the sleep time", exactly(s.velocity.sleepTime));
  }
}

void Simulator::serialize(StateArchive& archive, std::string_view origin) {
  expectSameModelAndSettings(archive, origin);
  // After a refused step the formulation forgets what its substeps left (as the next step
  // would), so that a state saved now resumes as this simulator goes on.
  if (formulationStale_) formulation_->modelEdited();
  formulationStale_ = false;
  // An edit not yet stepped (Formulation::modelEdited at the next step) is taken in before the
  // formulation reads its state, which is the edited model's: a state that says nothing was
  // edited does not leave the formulation with what it derived from the model before.
  const bool pendingEdit = model_.revision() != committedRevision_;

  // The model. The archive reads into and writes from copies, which a load then puts back whole.
  const std::size_t constraints = model_.constraintCount();
  std::vector<char> enabled(constraints);
  for (std::size_t k = 0; k < constraints; ++k) enabled[k] = model_.isEnabled(model_.constraintAt(k)) ? 1 : 0;
  archive.flags(enabled, constraints);
  double time = model_.time();
  archive.number(time);
  Eigen::VectorXd q = model_.q(), v = model_.v();
  archive.numbers(q, q.size());
  archive.numbers(v, v.size());
  if (archive.reading()) {
    // What a committed step leaves is finite (a blow-up is never committed): anything else is a
    // forged or damaged file, and would reach the outputs.
    if (!std::isfinite(time) || !q.allFinite() || !v.allFinite()) {
      throw StateError("the state file holds a time, position or velocity that is not finite");
    }
    for (std::size_t k = 0; k < constraints; ++k) model_.setEnabled(model_.constraintAt(k), enabled[k] != 0);
    model_.setState(time, q, v);
    syncStructure();
  }

  // An edit since the last step (Formulation::modelEdited at the next one) and the analyses since
  // the diagnostics were published (a layout rebuilt by saveState itself, after a break).
  bool edited = model_.revision() != committedRevision_;
  long analyses = formulation_->analyses() - analysesReported_;
  archive.flag(edited);
  archive.integer(analyses);
  if (archive.reading() && !(analyses >= 0 && analyses <= formulation_->analyses())) {
    throw StateError("the state file holds a count of analyses no simulator leaves");
  }
  archive.integer(stepCount_);
  archive.number(modelSize_);
  tinkertoy::serialize(archive, diagnostics_);
  archive.integer(diagnostics_.contactPoints);
  archive.number(diagnostics_.penetration);
  archive.integer(diagnostics_.asleep);
  if (archive.reading() && !(diagnostics_.contactPoints >= 0 && diagnostics_.penetration >= 0.0 &&
                             std::isfinite(diagnostics_.penetration) && diagnostics_.asleep >= 0 &&
                             static_cast<std::size_t>(diagnostics_.asleep) <= model_.bodyCount())) {
    throw StateError("the state file holds a contact count or penetration no simulator leaves");
  }
  if (archive.reading() && !(std::isfinite(diagnostics_.totalEnergy()) && std::isfinite(diagnostics_.constraintError) &&
                             std::isfinite(diagnostics_.velocityError) && modelSize_ >= 1.0 && std::isfinite(modelSize_))) {
    throw StateError("the state file holds diagnostics that are not finite");
  }
  runaway_.serialize(archive);
  endForceWork_.power.serialize(archive);
  endForceWork_.energy.serialize(archive);
  archive.flag(endForceWorkKnown_);
  std::size_t breaks = breaks_.size();
  archive.integer(breaks);
  if (archive.reading()) {
    if (breaks > constraints) throw StateError("the state file lists more breaks than the model has constraints");
    breaks_.resize(breaks);
  }
  for (BreakEvent& b : breaks_) {
    // The constraint by its index; −1 (which no restore accepts) for one removed since it broke.
    std::int64_t index = model_.contains(b.constraint) ? static_cast<std::int64_t>(model_.indexOf(b.constraint)) : -1;
    archive.integer(b.step);
    archive.number(b.time);
    archive.integer(index);
    archive.number(b.force);
    if (!archive.reading()) continue;
    if (index < 0 || index >= static_cast<std::int64_t>(constraints) || !std::isfinite(b.time) || !std::isfinite(b.force)) {
      throw StateError("the state file lists a break of a constraint the model does not have, or at no finite time or force");
    }
    b.constraint = model_.constraintAt(static_cast<std::size_t>(index));
  }

  if (archive.reading() && pendingEdit) formulation_->modelEdited();
  formulation_->serialize(archive);
  if (archive.reading()) {
    // The model's revision moved as its state was put back: that is no edit, unless there was one.
    committedRevision_ = edited ? ~model_.revision() : model_.revision();
    analysesReported_ = formulation_->analyses() - analyses;
  }
}

std::string Simulator::saveState(std::string_view origin) {
  syncStructure();  // a break's new layout is laid out now, as the next step would
  StateWriter writer;
  serialize(writer, origin);
  return writer.sealed();
}

void Simulator::restoreState(std::string_view file, std::string_view origin) {
  StateReader reader(file);  // the header, the length and the checksum, before anything changes
  const std::string before = saveState(origin);
  try {
    serialize(reader, origin);
    reader.finish();
  } catch (...) {
    StateReader undo(before);
    serialize(undo, origin);
    throw;
  }
}

}  // namespace tinkertoy
