// The shared simulation flags and the scene they prepare (scene_run.hpp).
#include "scene_run.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/closest_match.hpp"
#include "flag_checks.hpp"
#include "memory_reserve.hpp"
#include "tinkertoy/model/spring_for_rod.hpp"

namespace tinkertoy::cli {

namespace {

template <class T>
CLI::Option* addOptional(CLI::App& app, const std::string& name, std::optional<T>& target, const std::string& help) {
  return app.add_option_function<T>(name, [&target](const T& value) { target = value; }, help);
}

// rtol as dopri5 accepts it (ErrorTolerance::validate), once finiteNumber has passed it.
CLI::Validator relativeToleranceFlag() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        ErrorTolerance tolerance;
        tolerance.relative = std::stod(text);
        try {
          tolerance.validate();
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
        return {};
      },
      "");
}

// A whole-number flag in the range its setting accepts (checked before CLI11 narrows it to int).
CLI::Validator wholeSetting(Setting setting) {
  const WholeRange range = wholeRange(setting);
  return integerBetween(static_cast<long>(range.least), static_cast<long>(range.most));
}

// The constraints --spring-for `name` picks: the one of that name, or with "*" every rigid rod.
std::vector<ConstraintId> rodsNamed(const Model& model, const std::string& name) {
  const std::string flag = "--spring-for '" + name + "': ";
  std::vector<ConstraintId> rods;
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < model.constraintCount(); ++i) {
    const ConstraintId id = model.constraintAt(i);
    if (name == "*") {
      if (isRigidRod(model.constraint(id))) rods.push_back(id);
    } else if (model.name(id) == name) {
      return {id};
    }
    names.push_back(model.name(id));
  }
  if (name == "*" && rods.empty()) throw FlagError(flag + "the scene has no rigid rods");
  if (name != "*") {
    const std::optional<std::string_view> match = closestMatch(name, names);
    throw FlagError(flag + "the scene has no constraint of that name" +
                    (match ? "; did you mean '" + std::string(*match) + "'?"
                           : " (a constraint is named by its id, or constraints[i] without one, or * for every rod)"));
  }
  return rods;
}

}  // namespace

std::vector<ForceId> applySceneFlags(const SimulationFlags& flags, Scene& scene) {
  if (flags.duration) scene.duration = *flags.duration;
  std::vector<ConstraintId> rods;  // every name resolved before the first swap renames none
  for (const std::string& name : flags.springFor) {
    for (const ConstraintId id : rodsNamed(scene.model, name)) {
      if (std::find(rods.begin(), rods.end(), id) == rods.end()) rods.push_back(id);
    }
  }
  const SpringParameters spring{.stiffness = flags.springStiffness.value_or(0.0), .damping = flags.springDamping.value_or(0.0)};
  std::vector<ForceId> springs;
  for (const ConstraintId rod : rods) {
    try {
      springs.push_back(springForRod(scene.model, rod, spring));
    } catch (const std::invalid_argument& e) {
      throw FlagError("--spring-for: " + std::string(e.what()));
    }
  }
  return springs;
}

bool SimulationFlags::gives(Setting setting) const {
  switch (setting) {
    case Setting::Dt: return dt.has_value();
    case Setting::Formulation: return formulation.has_value();
    case Setting::Integrator: return integrator.has_value();
    case Setting::RelativeTolerance: return rtol.has_value();
    case Setting::AbsoluteTolerance: return atol.has_value();
    case Setting::Solver: return solver.has_value();
    case Setting::SolverTolerance: return tolerance.has_value();
    case Setting::MaxIterations: return maxIterations.has_value();
    case Setting::Regularization: return regularization.has_value();
    case Setting::Factorization: return factorization.has_value();
    case Setting::ReuseIterations: return reuseIterations.has_value();
    case Setting::Threads: return threads.has_value();
    case Setting::Ks: return ks.has_value();
    case Setting::Kd: return kd.has_value();
    case Setting::Project: return project.has_value();
    case Setting::Iterations: return iterations.has_value();
    case Setting::Substeps: return substeps.has_value();
    case Setting::VelocityScheme: return velocityScheme.has_value();
    case Setting::PositionCorrection: return positionCorrection.has_value();
    case Setting::JointHertz: return jointHertz.has_value();
    case Setting::JointDampingRatio: return jointDampingRatio.has_value();
    case Setting::Collisions: return collisions.has_value();
    case Setting::Friction: return friction.has_value();
    case Setting::Restitution: return restitution.has_value();
    case Setting::ContactHertz: return contactHertz.has_value();
    case Setting::ContactDampingRatio: return contactDampingRatio.has_value();
    case Setting::Sleep: return sleep.has_value();
    case Setting::SleepSpeed: return sleepSpeed.has_value();
    case Setting::SleepTime: return sleepTime.has_value();
    case Setting::ProjectionTolerance:
    case Setting::ProjectionIterations:
    case Setting::WarmStart:
    case Setting::Baumgarte: break;
  }
  return false;
}

std::string settingsProblem(const SettingsError& error, const std::string& path, const SimulationFlags& flags) {
  for (const Setting setting : error.settings()) {
    if (flags.gives(setting)) return settingFlag(setting) + ": " + error.reason();
  }
  const std::string_view key = settingSpelling(error.settings().front()).scene;
  return path + ": settings" + (key.empty() ? std::string() : "." + std::string(key)) + ": " + error.reason();
}

void applyFlags(const SimulationFlags& f, SimulationSettings& s) {
  if (f.dt) s.dt = *f.dt;
  if (f.integrator) s.integrator = *f.integrator;
  if (f.rtol) s.errorTolerance.relative = *f.rtol;
  if (f.atol) s.errorTolerance.absolute = *f.atol;
  if (f.solver) s.solver.kind = *f.solver;
  if (f.ks) s.ks = *f.ks;
  if (f.kd) s.kd = *f.kd;
  if (f.tolerance) s.solver.tolerance = *f.tolerance;
  if (f.maxIterations) s.solver.maxIterations = *f.maxIterations;
  if (f.regularization) s.solver.regularization = *f.regularization;
  if (f.factorization) s.solver.factorization = *f.factorization;
  if (f.reuseIterations) s.solver.reuseIterations = *f.reuseIterations;
  if (f.threads) s.threads = *f.threads;
  if (f.project) s.projection.enabled = *f.project;
  if (f.collisions) s.velocity.collisions = *f.collisions;
  if (f.friction) s.velocity.friction = *f.friction;
  if (f.restitution) s.velocity.restitution = *f.restitution;
  if (f.contactHertz) s.velocity.contactHertz = *f.contactHertz;
  if (f.contactDampingRatio) s.velocity.contactDampingRatio = *f.contactDampingRatio;
  if (f.sleep) s.velocity.sleep = *f.sleep;
  if (f.sleepSpeed) s.velocity.sleepSpeed = *f.sleepSpeed;
  if (f.sleepTime) s.velocity.sleepTime = *f.sleepTime;
  if (f.formulation) s.formulation = *f.formulation;
  if (f.iterations) s.velocity.iterations = *f.iterations;
  if (f.substeps) s.velocity.substeps = *f.substeps;
  if (f.positionCorrection) s.velocity.positionCorrection = *f.positionCorrection;
  if (f.velocityScheme) s.velocity.scheme = *f.velocityScheme;
  if (f.jointHertz) s.velocity.jointHertz = *f.jointHertz;
  if (f.jointDampingRatio) s.velocity.jointDampingRatio = *f.jointDampingRatio;
}

void addSimulationFlags(CLI::App& app, SimulationFlags& f) {
  addOptional(app, "--duration", f.duration, "Simulated time in seconds")->check(finiteNumber(Sign::NonNegative));
  addOptional(app, "--dt", f.dt, "Step size in seconds")->check(finiteNumber(Sign::Positive));
  addOptional(app, "--ks", f.ks, "Feedback gain on C (1/s²)")->check(finiteNumber(Sign::NonNegative));
  addOptional(app, "--kd", f.kd, "Feedback gain on Ċ (1/s)")->check(finiteNumber(Sign::NonNegative));
  addOptional(app, "--tolerance", f.tolerance, "CG relative residual target")->check(finiteNumber(Sign::Positive));
  addOptional(app, "--max-iterations", f.maxIterations, "CG iteration cap (0: 2m + 100)")
      ->check(wholeSetting(Setting::MaxIterations));
  addOptional(app, "--regularization", f.regularization, "Damping of the cg/ldlt solves where J loses rank, relative (default 1e-8; 0: none)")
      ->check(finiteNumber(Sign::NonNegative));
  app.add_option_function<std::string>(
         "--factorization", [&f](const std::string& name) { f.factorization = parseFactorization(name); },
         "auto | simplicial | supernodal | tree (ldlt)")
      ->check(CLI::IsMember({"auto", "simplicial", "supernodal", "tree"}));
  app.add_option_function<std::string>(
         "--reuse-iterations",
         [&f](const std::string& text) { f.reuseIterations = text == "auto" ? -1 : std::stoi(text); },
         "auto | N: CG iterations a stale factorization may take before the ldlt solver factors again (0: every solve)")
      ->check(CLI::IsMember({"auto"}) | integerBetween(0, wholeRange(Setting::ReuseIterations).most));
  addOptional(app, "--threads", f.threads, "Threads a step may use (the same results on any number)")
      ->check(wholeSetting(Setting::Threads));
  app.add_option_function<std::string>(
         "--integrator", [&f](const std::string& name) { f.integrator = parseIntegrator(name); },
         "euler | symplectic-euler | midpoint | rk4 | dopri5 | rattle (acceleration)")
      ->check(CLI::IsMember({"euler", "symplectic-euler", "midpoint", "rk4", "dopri5", "rattle"}));
  addOptional(app, "--rtol", f.rtol, "dopri5: relative error allowed per step (default 1e-6)")
      ->check(finiteNumber(Sign::Positive))
      ->check(relativeToleranceFlag());
  addOptional(app, "--atol", f.atol, "dopri5: absolute error allowed per step, m or rad (default 1e-9)")
      ->check(finiteNumber(Sign::Positive));
  app.add_option_function<std::string>(
         "--solver", [&f](const std::string& name) { f.solver = parseSolver(name); },
         "cg | ldlt | sequential (sequential: velocity formulation only)")
      ->check(CLI::IsMember({"cg", "ldlt", "sequential"}));
  app.add_option_function<std::string>(
         "--formulation", [&f](const std::string& name) { f.formulation = parseFormulation(name); },
         "acceleration (Witkin) | velocity (impulses, after dyn4j)")
      ->check(CLI::IsMember({"acceleration", "velocity"}));
  addOptional(app, "--iterations", f.iterations, "Sequential-impulse passes per substep (velocity)")
      ->check(wholeSetting(Setting::Iterations));
  addOptional(app, "--substeps", f.substeps, "Substeps per step (velocity)")->check(wholeSetting(Setting::Substeps));
  app.add_option_function<std::string>(
         "--position-correction",
         [&f](const std::string& name) { f.positionCorrection = parsePositionCorrection(name); },
         "none | baumgarte | projection | soft (velocity)")
      ->check(CLI::IsMember({"none", "baumgarte", "projection", "soft"}));
  app.add_option_function<std::string>(
         "--velocity-scheme", [&f](const std::string& name) { f.velocityScheme = parseVelocityScheme(name); },
         "symplectic-euler | verlet (velocity; verlet: kick-drift-kick, second order)")
      ->check(CLI::IsMember({"symplectic-euler", "verlet"}));
  addOptional(app, "--joint-hertz", f.jointHertz, "Soft step: the joints' stiffness as a frequency, Hz")
      ->check(finiteNumber(Sign::Positive));
  addOptional(app, "--joint-damping-ratio", f.jointDampingRatio, "Soft step: the joints' damping ratio")
      ->check(finiteNumber(Sign::NonNegative));
  CLI::Option* springFor =
      app.add_option("--spring-for", f.springFor,
                     "A rigid rod (its id, constraints[i], or * for every rod) as a spring of its length (repeatable)")
          ->type_name("ROD");
  CLI::Option* stiffness =
      addOptional(app, "--spring-stiffness", f.springStiffness, "--spring-for: the spring's stiffness, N/m")
          ->check(finiteNumber(Sign::NonNegative));
  CLI::Option* damping =
      addOptional(app, "--spring-damping", f.springDamping, "--spring-for: the spring's damping, N·s/m (default 0)")
          ->check(finiteNumber(Sign::NonNegative));
  springFor->needs(stiffness);
  stiffness->needs(springFor);
  damping->needs(springFor);
  app.add_flag_function(
      "--project,!--no-project", [&f](std::int64_t count) { f.project = count > 0; },
      "Project positions and velocities back onto C = 0, Ċ = 0 after every step (acceleration level; the default)");
  app.add_flag_function(
      "--collisions,!--no-collisions", [&f](std::int64_t count) { f.collisions = count > 0; },
      "Rigid bodies collide (velocity level: sequential solver, or ldlt/cg with projection, the exact mode)");
  addOptional(app, "--friction", f.friction, "Contacts: Coulomb's friction coefficient (default 0.6)")
      ->check(finiteNumber(Sign::NonNegative));
  addOptional(app, "--restitution", f.restitution, "Contacts: the bounce of approaches faster than 1 m/s, 0 to 1")
      ->check(finiteNumber(Sign::NonNegative));
  addOptional(app, "--contact-hertz", f.contactHertz, "Soft step: the contacts' stiffness as a frequency, Hz (default 30)")
      ->check(finiteNumber(Sign::Positive));
  addOptional(app, "--contact-damping-ratio", f.contactDampingRatio, "Soft step: the contacts' damping ratio (default 10)")
      ->check(finiteNumber(Sign::NonNegative));
  app.add_flag_function(
      "--sleep,!--no-sleep", [&f](std::int64_t count) { f.sleep = count > 0; },
      "Contacts: islands of bodies at rest fall asleep and cost nothing until touched (default off)");
  addOptional(app, "--sleep-speed", f.sleepSpeed, "Sleep: the fastest a body's points may move at rest, m/s (default 0.05)")
      ->check(finiteNumber(Sign::NonNegative));
  addOptional(app, "--sleep-time", f.sleepTime, "Sleep: how long an island rests before it sleeps, s (default 0.5)")
      ->check(finiteNumber(Sign::Positive));
}

std::optional<SimulationFlags> parseFlagText(const std::string& option, const std::string& text, std::ostream& err) {
  SimulationFlags flags;
  CLI::App app{"", option};
  addSimulationFlags(app, flags);
  try {
    app.parse(text, false);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help inside the flags
      err << "error: " << option << ": give simulation flags (see `tinkertoy run --help`), not --help\n";
    } else {
      err << "error: " << option << " '" << text << "': " << e.what() << "\n";
    }
    return std::nullopt;
  }
  return flags;
}

std::unique_ptr<SceneRun> startSceneRun(const std::string& path, const SimulationFlags& flags, std::ostream& err) {
  std::unique_ptr<SceneRun> run;
  try {
    Scene scene = loadScene(path, [&flags](SimulationSettings& s) { applyFlags(flags, s); });
    std::vector<ForceId> springs = applySceneFlags(flags, scene);
    run = std::make_unique<SceneRun>(std::move(scene));
    run->rodSprings = std::move(springs);
  } catch (const FlagError& e) {
    err << "error: " << e.what() << "\n";
    return nullptr;
  } catch (const SceneError& e) {
    err << "error: " << e.what() << "\n";
    return nullptr;
  } catch (const SettingsError& e) {  // flags that do not fit the scene's settings
    err << "error: " << settingsProblem(e, path, flags) << "\n";
    return nullptr;
  } catch (const std::invalid_argument& e) {  // settings that do not fit the model
    err << "error: " << path << ": " << e.what() << "\n";
    return nullptr;
  }
  if (const std::string problem = checkSceneSteps(path, run->scene, flags); !problem.empty()) {
    err << "error: " << problem << "\n";
    return nullptr;
  }
  if (const InitialStateNotice notice = initialStateNotice(run->simulator.diagnostics(), run->scene.settings,
                                                          run->scene.model.size());
      notice.warns) {
    err << "warning: " << notice.text << "\n";
  }
  return run;
}

InitialStateNotice initialStateNotice(const StepDiagnostics& initial, const SimulationSettings& settings,
                                      double modelSize) {
  constexpr double kTolerance = 1e-6;
  const double c = initial.constraintError, cDot = initial.velocityError;
  if (c <= kTolerance && cDot <= kTolerance) return {};
  std::ostringstream text;
  text << "the initial state violates its constraints (|C| = " << c << ", |dC/dt| = " << cDot << ")";
  if (c > modelSize) {
    // Correction would close a gap wider than the model in a few steps: a violent start.
    text << ", by more than the model's size (" << modelSize << " m); "
         << (settings.correctsDrift() ? "the first steps will snap it back, hard" : "the error stays")
         << ": check the positions and lengths";
    return {true, text.str()};
  }
  if (!settings.correctsDrift()) {
    text << "; with these settings (no projection, feedback or position correction) the error stays";
    return {true, text.str()};
  }
  text << "; the first steps pull it back onto them";
  return {false, text.str()};
}

std::string checkStepCount(double time, double dt, const std::string& what, const std::string& dtName) {
  if (time / dt <= kMaxSteps) return {};
  std::ostringstream message;
  message << what << " / " << dtName << " = " << time << " s / " << dt << " s is ";
  if (std::isfinite(time / dt)) {
    message << time / dt << " steps";
  } else {
    message << "more steps than a double counts";
  }
  message << "; at most " << kMaxSteps << " are run, so " << dtName << " must be at least " << time / kMaxSteps << " s, or "
          << what << " at most " << dt * kMaxSteps << " s";
  return message.str();
}

std::string checkSceneSteps(const std::string& path, const Scene& scene, const SimulationFlags& flags) {
  const std::string problem = checkStepCount(scene.duration, scene.settings.dt,
                                             flags.duration ? "--duration" : "settings.duration",
                                             flags.dt ? "--dt" : "settings.dt");
  return problem.empty() ? problem : path + ": " + problem;
}

std::string stepScene(SceneRun& run, std::uint64_t steps, ProgressBar& progress,
                      const std::function<void(std::uint64_t)>& after) {
  std::string failure;
  try {
    for (std::uint64_t i = 1; i <= steps; ++i) {
      throwIfOutOfMemory();
      run.simulator.step();
      after(i);
      progress.update(i, run.scene.model.time());
    }
  } catch (const SimulationError& e) {
    failure = e.what();
  }
  progress.finish();
  return failure;
}

std::string_view integratorOf(const SimulationSettings& s) {
  return s.formulation == FormulationKind::Velocity ? velocitySchemeName(s.velocity.scheme) : integratorName(s.integrator);
}

}  // namespace tinkertoy::cli
