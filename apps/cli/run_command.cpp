#include "run_command.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <variant>

#include "cli.hpp"
#include "memory_reserve.hpp"
#include "model_contents.hpp"
#include "pending_file.hpp"
#include "progress_bar.hpp"
#include "trajectory_writer.hpp"
#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::cli {

namespace {

struct Report {
  const Scene& scene;
  const std::string& path;
  const RunStatistics& stats;
  double wallSeconds;
  std::span<const BreakEvent> breaks;
};

std::vector<double> toVector(const Eigen::VectorXd& x) { return {x.begin(), x.end()}; }

// A particle's position and velocity; a rigid body's position, angle and their rates; for any
// other body its coordinates u, their rates u̇ and the world positions of its points, in order.
nlohmann::json bodyState(const Model& model, BodyId id) {
  if (model.isParticle(id)) {
    return {{"position", toVector(model.position(id))}, {"velocity", toVector(model.velocity(id))}};
  }
  if (std::holds_alternative<RigidBodySettings>(model.body(id).settings())) {
    const Eigen::VectorXd q = model.coordinates(id), v = model.velocities(id);
    return {{"position", {q[0], q[1]}}, {"angle", q[2]}, {"velocity", {v[0], v[1]}}, {"angular_velocity", v[2]}};
  }
  nlohmann::json points = nlohmann::json::array();
  for (int i = 0; i < model.body(id).pointCount(); ++i) points.push_back(toVector(model.position({id, i})));
  return {{"u", toVector(model.coordinates(id))}, {"u_dot", toVector(model.velocities(id))}, {"points", points}};
}

nlohmann::json summaryJson(const Report& r) {
  const Model& model = r.scene.model;
  const SimulationSettings& s = r.scene.settings;
  nlohmann::json finalState = nlohmann::json::object();
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    throwIfOutOfMemory();
    const BodyId id = model.bodyAt(i);
    finalState[model.name(id)] = bodyState(model, id);
  }
  nlohmann::json breaks = nlohmann::json::array();
  for (const BreakEvent& b : r.breaks) {
    breaks.push_back({{"constraint", model.describe(b.constraint)}, {"step", b.step}, {"time", b.time}, {"force", b.force}});
  }
  const double stepsPerSecond =
      r.wallSeconds > 0.0 ? static_cast<double>(r.stats.steps) / r.wallSeconds : 0.0;
  const std::size_t particles = countParticles(model);
  nlohmann::json work = nlohmann::json::object();
  for (std::size_t k = 0; k < kWorkSources; ++k) work[std::string(workSourceName(WorkSource(k)))] = r.stats.work.work[k];
  work["total"] = r.stats.work.total();
  nlohmann::json summary = {
      {"scene", r.path},
      {"dimension", model.dimension()},
      {"particles", particles},
      {"bodies", model.bodyCount() - particles},
      {"constraints", model.constraintCount()},
      {"formulation", formulationName(s.formulation)},
      {"integrator", integratorOf(s)},
      {"solver", solverName(s.solver.kind)},
      {"dt", s.dt},
      {"steps", r.stats.steps},
      {"simulated_time", model.time()},
      {"energy_initial", r.stats.energyInitial},
      {"energy_final", r.stats.energyFinal},
      {"energy_drift_max", r.stats.energyDriftMax},
      {"energy_error_max", r.stats.energyErrorMax},
      {"work", work},
      {"constraint_error_max", r.stats.constraintErrorMax},
      {"constraint_error_final", r.stats.constraintErrorFinal},
      {"velocity_error_max", r.stats.velocityErrorMax},
      {"solver_iterations_mean", r.stats.iterationsPerSolve()},
      {"factorizations_per_step", r.stats.factorizationsPerStep()},
      {"projection_iterations", r.stats.projectionIterations},
      {"projection_unconverged_steps", r.stats.unconvergedProjections},
      {"substep_splits", r.stats.substepSplits},
      {"adaptive_steps", r.stats.adaptiveSteps},
      {"rejected_steps", r.stats.rejectedSteps},
      {"solver_residual_max", r.stats.residualMax},
      {"wall_seconds", r.wallSeconds},
      {"steps_per_second", stepsPerSecond},
      {"breaks", breaks},
      {"final_state", finalState},
  };
  if (s.velocity.collisions) {
    summary["contacts_max"] = r.stats.contactsMax;
    summary["penetration_max"] = r.stats.penetrationMax;
  }
  if (s.velocity.collisions && s.velocity.sleep) summary["asleep_final"] = r.stats.asleepFinal;
  return summary;
}

void printSummary(std::ostream& out, const Report& r) {
  const Model& model = r.scene.model;
  const SimulationSettings& s = r.scene.settings;
  const RunStatistics& st = r.stats;
  out << (r.scene.name.empty() ? r.path : r.scene.name) << ": " << describeContents(model) << ", "
      << model.dimension() << "D\n";
  out << std::setprecision(4);
  out << "  " << formulationName(s.formulation) << " level, " << integratorOf(s) << ", " << solverName(s.solver.kind);
  if (s.formulation == FormulationKind::Velocity) {
    out << " (" << counted(s.velocity.iterations, "iteration") << ", " << counted(s.velocity.substeps, "substep") << ", "
        << positionCorrectionName(s.velocity.positionCorrection) << ")";
  }
  out << ", dt = " << s.dt
      << " s, " << counted(st.steps, "step") << ", " << model.time() << " s simulated in " << r.wallSeconds
      << " s (" << std::fixed << std::setprecision(0)
      << (r.wallSeconds > 0 ? static_cast<double>(st.steps) / r.wallSeconds : 0.0)
      << " steps/s)\n" << std::defaultfloat << std::setprecision(6);
  out << "  energy       initial " << st.energyInitial << " J, final " << st.energyFinal
      << " J, max drift " << std::setprecision(3) << st.energyDriftMax << " J, max numerical error "
      << st.energyErrorMax << " J\n";
  out << "  work         ";
  bool anyWork = false;
  for (std::size_t k = 0; k < kWorkSources; ++k) {
    if (st.work.work[k] == 0.0) continue;
    out << (anyWork ? ", " : "") << workSourceName(WorkSource(k)) << " " << st.work.work[k] << " J";
    anyWork = true;
  }
  out << (anyWork ? "" : "none: every force is conservative and every constraint ideal") << "\n";
  out << "  constraints  max |C| " << st.constraintErrorMax << ", final |C| " << st.constraintErrorFinal
      << ", max |dC/dt| " << st.velocityErrorMax << "\n";
  out << "  solver       " << st.iterationsPerSolve() << " iterations per solve, ";
  if (s.solver.kind == SolverKind::SparseLdlt) out << st.factorizationsPerStep() << " factorizations per step, ";
  out << "max residual " << st.residualMax << "\n";
  if (s.velocity.collisions) {
    out << "  contacts     up to " << counted(st.contactsMax, "point") << " at once, deepest penetration "
        << st.penetrationMax << " m";
    if (s.velocity.sleep) out << ", " << counted(st.asleepFinal, "body", "bodies") << " asleep at the end";
    out << "\n";
  }
  const bool accelerationLevel = s.formulation == FormulationKind::Acceleration;
  if (accelerationLevel && s.integrator == IntegratorKind::DormandPrince5) {
    out << "  dopri5       " << counted(st.adaptiveSteps, "step") << " of its own (mean "
        << (st.adaptiveSteps > 0 ? static_cast<double>(st.steps) * s.dt / static_cast<double>(st.adaptiveSteps) : 0.0)
        << " s), "
        << st.rejectedSteps << " rejected; rtol " << s.errorTolerance.relative << ", atol "
        << s.errorTolerance.absolute << "\n";
  }
  if (st.projectionIterations > 0 || st.substepSplits > 0) {
    // RATTLE's iterations are its own Newton solve of the position stage, not a projection.
    const bool rattle = accelerationLevel && s.integrator == IntegratorKind::Rattle;
    out << (rattle ? "  newton       " : "  projection   ") << counted(st.projectionIterations, "iteration");
    if (st.substepSplits > 0) out << ", " << counted(st.substepSplits, "substep") << " split in half to converge";
    out << "\n";
  }
  if (st.unconvergedProjections > 0) {
    out << "  warning      the position projection stopped above its tolerance (" << s.projection.tolerance
        << ") in " << st.unconvergedProjections << " of " << counted(st.steps, "step") << ": the constraints cannot all hold there, or need more iterations\n";
  }
  for (const BreakEvent& b : r.breaks) {
    out << "  break        " << model.describe(b.constraint) << " at step " << b.step << " (t = " << b.time
        << " s): reaction force " << b.force << " N above its break force " << model.breakForce(b.constraint)
        << " N\n";
  }
}

// Restores the state saved in options.resume; false, with the reason on `err`, if it cannot.
bool resume(const RunOptions& options, const std::string& origin, Simulator& simulator, std::ostream& err) {
  std::string file;
  try {
    file = readStateFile(options.resume);
  } catch (const StateError& e) {
    err << "error: --resume: " << e.what() << "\n";
    return false;
  }
  try {
    simulator.restoreState(file, origin);
  } catch (const StateError& e) {
    err << "error: --resume: '" << options.resume << "': " << e.what() << "\n";
    return false;
  }
  return true;
}

// The step after which --save-state saves: the first that reaches --at (0: before any), else
// the last; nullopt, with the reason on `err`, when --at lies outside the steps this run takes
// (after `done`, up to `last`). t0: the scene's start time.
std::optional<std::uint64_t> saveStep(const RunOptions& options, const Scene& scene, double t0, std::uint64_t done,
                                      std::uint64_t last, std::ostream& err) {
  if (!options.saveAt) return last;
  const double at = *options.saveAt, dt = scene.settings.dt;
  const std::uint64_t step = at <= t0 ? 0 : stepsToReach(at - t0, dt);
  if (step > last) {
    err << "error: --at " << at << ": after the end of the run (t = " << t0 + scene.duration << " s)\n";
    return std::nullopt;
  }
  if (step < done) {
    err << "error: --at " << at << ": before the resumed state (step " << done << ", t = " << scene.model.time()
        << " s)\n";
    return std::nullopt;
  }
  return step;
}

}  // namespace

int runScene(const RunOptions& options, std::ostream& out, std::ostream& err) {
  const std::unique_ptr<SceneRun> run = startSceneRun(options.scene, options.simulation, err);
  if (!run) return kBadInput;
  Scene& scene = run->scene;
  Simulator& simulator = run->simulator;
  // Step k is at t0 + k·dt, not at the model's running sum of dt; a resumed run goes on counting.
  const double t0 = scene.model.time(), dt = scene.settings.dt;
  const bool saves = !options.saveState.empty() || !options.resume.empty();
  const std::string origin = saves ? modelOrigin(scene) : "";  // writing the scene out costs a load's time
  if (!options.resume.empty() && !resume(options, origin, simulator, err)) return kBadInput;
  const std::uint64_t done = simulator.stepCount(), last = stepsToReach(scene.duration, dt);
  if (!options.resume.empty() && done >= last) {
    err << "error: --resume: '" << options.resume << "': the state is at step " << done << " (t = " << scene.model.time()
        << " s), at or past the end of the run (step " << last << ", duration " << scene.duration
        << " s): nothing is left to run; give a longer --duration\n";
    return kBadInput;
  }
  std::optional<std::uint64_t> saveAt;
  if (!options.saveState.empty() && !(saveAt = saveStep(options, scene, t0, done, last, err))) return kBadInput;

  // Open every output before simulating, so a bad path fails fast and costs nothing. Each is
  // written aside and moved into place once complete (PendingFile); none may be an input or
  // another output (the state resumed from may be saved over: it has been read).
  std::unique_ptr<PendingFile> trajectoryFile, summaryFile, stateFile;
  std::unique_ptr<TrajectoryWriter> trajectory;
  if (!options.trajectory.empty()) {
    trajectoryFile = pendingOutput(options.trajectory, {options.scene, options.resume, options.summary, options.saveState},
                                   "--trajectory", err);
    if (!trajectoryFile) return kBadInput;
    try {
      trajectory = std::make_unique<TrajectoryWriter>(trajectoryFile->path(), options.trajectory, scene.model);
    } catch (const std::runtime_error& e) {
      err << "error: --trajectory: " << e.what() << "\n";
      return kBadInput;
    }
  }
  if (!options.summary.empty()) {
    summaryFile = pendingOutput(options.summary, {options.scene, options.resume, options.trajectory, options.saveState},
                                "--summary", err);
    if (!summaryFile) return kBadInput;
  }
  if (!options.saveState.empty()) {
    stateFile = pendingOutput(options.saveState, {options.scene, options.trajectory, options.summary}, "--save-state", err);
    if (!stateFile) return kBadInput;
  }
  // The trajectory, completed and moved into place: false (with the reason on `err`) if not.
  const auto landTrajectory = [&] {
    if (!trajectory) return true;
    std::string problem = trajectory->finish();
    if (problem.empty()) problem = trajectoryFile->commit();
    if (!problem.empty()) err << "error: --trajectory: " << problem << "\n";
    return problem.empty();
  };
  // The state after step `step`, saved when it is the one asked for; its problem, if any.
  std::string stateProblem;
  const auto saveIfDue = [&](std::uint64_t step) {
    if (stateFile && step == *saveAt) stateProblem = stateFile->land(simulator.saveState(origin));
  };

  RunStatistics stats(simulator.diagnostics());
  const auto timeOf = [&](std::uint64_t step) { return t0 + static_cast<double>(step) * dt; };
  if (trajectory) trajectory->write(scene.model, simulator.diagnostics(), timeOf(done), 0.0);
  saveIfDue(done);
  ProgressBar progress(err, options.progress, "simulating", last - done);
  const auto start = std::chrono::steady_clock::now();
  const std::string failure = stepScene(*run, last - done, progress, [&](std::uint64_t i) {
    stats.add(simulator.diagnostics());
    const std::uint64_t step = done + i;
    if (trajectory && step % static_cast<std::uint64_t>(options.every) == 0) {
      trajectory->write(scene.model, simulator.diagnostics(), timeOf(step), stats.work.total());
    }
    saveIfDue(step);
  });
  if (!stateProblem.empty()) err << "error: --save-state: " << stateProblem << "\n";
  if (!failure.empty()) {
    err << "error: " << failure << "\n";
    if (trajectory && landTrajectory()) {
      err << "the trajectory up to t = " << scene.model.time() << " s is in " << options.trajectory << "\n";
    }
    if (stateFile && simulator.stepCount() < *saveAt) {
      err << "no state saved: the run ended before step " << *saveAt << " (t = " << timeOf(*saveAt) << " s)\n";
    }
    return kBlowUp;  // and no summary: the run did not complete
  }
  if (!stateProblem.empty()) return kOutputFailed;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const Report report{scene, options.scene, stats, wall, simulator.breaks()};
  printSummary(out, report);
  if (!(out << std::flush)) {
    err << "error: cannot write the summary to standard output\n";
    return kOutputFailed;
  }
  if (!landTrajectory()) return kOutputFailed;
  if (summaryFile) {
    const std::string problem = summaryFile->land(summaryJson(report).dump(2) + "\n");
    if (!problem.empty()) {
      err << "error: --summary: " << problem << "\n";
      return kOutputFailed;
    }
  }
  return kSuccess;
}

}  // namespace tinkertoy::cli
