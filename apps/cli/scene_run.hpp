// The simulation flags `run`, `render` and `plot` share, and the scene they prepare: loaded,
// with the flags applied over its settings, and its simulator built.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "progress_bar.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::cli {

// Command-line overrides of a scene's settings; an empty optional keeps the scene's.
struct SimulationFlags {
  std::optional<double> duration, dt, rtol, atol, ks, kd, tolerance, regularization, jointHertz, jointDampingRatio,
      friction, restitution, contactHertz, contactDampingRatio, sleepSpeed, sleepTime;
  std::optional<int> maxIterations, iterations, substeps, reuseIterations, threads;
  std::optional<FactorizationKind> factorization;
  std::optional<FormulationKind> formulation;
  std::optional<IntegratorKind> integrator;
  std::optional<SolverKind> solver;
  std::optional<PositionCorrection> positionCorrection;
  std::optional<VelocityScheme> velocityScheme;
  std::optional<bool> project;   // --project / --no-project
  std::optional<bool> collisions;  // --collisions / --no-collisions
  std::optional<bool> sleep;       // --sleep / --no-sleep
  // Model edits: the rigid rods named by --spring-for (an id, "constraints[i]" or "*" for every
  // rod) become springs of this stiffness and damping (model/spring_for_rod.hpp).
  std::vector<std::string> springFor;
  std::optional<double> springStiffness, springDamping;

  // Whether the flag of `setting` was given.
  [[nodiscard]] bool gives(Setting setting) const;

  // Whether any flag was given.
  [[nodiscard]] bool any() const {
    return duration || dt || rtol || atol || ks || kd || tolerance || regularization || jointHertz || jointDampingRatio ||
           maxIterations || iterations || substeps || reuseIterations || threads || factorization || formulation ||
           integrator || solver || positionCorrection || velocityScheme || project || collisions || friction ||
           restitution || contactHertz || contactDampingRatio || sleep || sleepSpeed || sleepTime ||
           !springFor.empty();
  }
};

// Writes the flags given over the settings (all but --duration, which is the scene's).
void applyFlags(const SimulationFlags& flags, SimulationSettings& settings);

// A flag whose value does not fit the scene: its message names the flag and says why.
struct FlagError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Writes the flags that belong to the scene rather than its settings: --duration, and the rods
// --spring-for swaps for springs; returns those springs. Throws FlagError ("--spring-for 'rod9':
// the scene has no constraint of that name").
std::vector<ForceId> applySceneFlags(const SimulationFlags& flags, Scene& scene);

// Adds --duration, --dt, --integrator, --solver, --ks, --kd and the other settings flags.
void addSimulationFlags(CLI::App& command, SimulationFlags& flags);

// The settings flags in `text` (one argument holding them, as `compare --a` and `render --ghost`
// take them: "--solver cg --dt 0.001"), split as a shell splits words. Nullopt, with
// "error: OPTION 'TEXT': why" on `err`, if they do not parse.
std::optional<SimulationFlags> parseFlagText(const std::string& option, const std::string& text, std::ostream& err);

// A scene and its simulator, ready to step. Not movable: the simulator refers to the model.
struct SceneRun {
  explicit SceneRun(Scene loaded) : scene(std::move(loaded)), simulator(scene.model, scene.settings) {}
  SceneRun(const SceneRun&) = delete;
  SceneRun& operator=(const SceneRun&) = delete;

  Scene scene;
  Simulator simulator;
  std::vector<ForceId> rodSprings;  // the springs --spring-for put in place of rods
};

// Loads `path`, applies `flags` and builds the simulator. On a bad scene, or settings that do
// not fit the model, prints "error: …" to `err` and returns null. Warns on `err` as
// initialStateNotice says.
std::unique_ptr<SceneRun> startSceneRun(const std::string& path, const SimulationFlags& flags, std::ostream& err);

// What to say of an initial state off its constraints (|C| or |dC/dt| above 1e-6), if anything:
// a warning when nothing will pull it back or when |C| exceeds the model's size `modelSize` (m),
// which correction would close in a violent snap; otherwise a note that it will be pulled back.
struct InitialStateNotice {
  bool warns = false;
  std::string text;  // "" when the state is on its constraints
};
InitialStateNotice initialStateNotice(const StepDiagnostics& initial, const SimulationSettings& settings,
                                      double modelSize);

// What is wrong with the settings `error` reports, for `path` run with `flags`: "--substeps:
// must be …" when the flag of a setting it involves was given, else "PATH: settings.substeps:
// must be …", the scene's own field.
std::string settingsProblem(const SettingsError& error, const std::string& path, const SimulationFlags& flags);

// "" when reaching `time` takes at most kMaxSteps steps of dt, otherwise why not, naming the
// time `what` and the step `dtName` (a flag, or the scene's field).
std::string checkStepCount(double time, double dt, const std::string& what, const std::string& dtName = "settings.dt");
// The same for a scene's run, in the words of `path` and of the fields or the flags that set
// the duration and the step. Every command that runs a scene, and `check`, ask this.
std::string checkSceneSteps(const std::string& path, const Scene& scene, const SimulationFlags& flags = {});

// Steps `run` `steps` times, calling `after(i)` after step i and updating `progress`, which is
// finished at the end. Returns the simulation's message when it blows up (the model keeps its
// last good state), "" otherwise.
std::string stepScene(SceneRun& run, std::uint64_t steps, ProgressBar& progress,
                      const std::function<void(std::uint64_t)>& after);

// The integrator a run uses: at the velocity level its scheme, symplectic Euler or Verlet.
std::string_view integratorOf(const SimulationSettings& settings);

}  // namespace tinkertoy::cli
