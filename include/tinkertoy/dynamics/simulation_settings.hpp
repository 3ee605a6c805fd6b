// SimulationSettings: how a model is to move. The formulation, and the integrator, solver and
// drift remedies each one uses; scenes and the command line fill it in (docs/scene-format.md).
//
//   acceleration level (Witkin)   J W Jᵀ λ = −J̇q̇ − JWQ − Ctt − ks C − kd Ċ, any integrator,
//                                 optional projection; equality constraints only
//   velocity level (dyn4j)     impulses J W Jᵀ λ = −J v* − b each (sub)step, symplectic
//                                 Euler or Verlet; sequential impulses or a global solve; limits,
//                                 motors, springs and ropes; Baumgarte, position projection
//                                 or the soft step
//
//   SimulationSettings s{.dt = 1.0 / 60, .formulation = FormulationKind::Velocity};
//   s.solver.kind = SolverKind::SequentialImpulses;
//   s.velocity.substeps = 4;
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/integrators/dormand_prince.hpp"
#include "tinkertoy/integrators/integrator.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

enum class FormulationKind { Acceleration, Velocity };

// The velocity level's drift remedy (docs/theory.md, "Drift correction").
enum class PositionCorrection {
  None,        // C drifts
  Baumgarte,   // the velocity targets include β C / h
  Projection,  // after each substep, positions are projected onto C = 0: nonlinear Gauss–Seidel
               // with the sequential solver, Gauss–Newton on all equality rows with a global one
  SoftStep,    // Box2D v3's soft step: J and C evaluated once per step, soft constraints toward
               // C = 0 in each substep, then a relax pass without bias (sequential solver only)
};

// The velocity level's time stepping (docs/theory.md, "The velocity-level step").
enum class VelocityScheme {
  SymplecticEuler,  // forces and impulses for the whole substep, then q += h v: first order
  Verlet,           // kick–drift–kick: half the forces, the impulses, q += h v, the other half of
                    // the forces at the new q and a velocity solve there; second order
};

struct VelocitySettings {
  int iterations = 10;  // sequential-impulse passes per substep (and Gauss–Seidel projection passes)
  int substeps = 1;     // substeps per step, each of dt / substeps
  VelocityScheme scheme = VelocityScheme::SymplecticEuler;
  bool warmStart = true;  // start each substep from the previous one's impulses
  PositionCorrection positionCorrection = PositionCorrection::Baumgarte;
  double baumgarte = 0.2;  // β, the fraction of C removed per substep
  // The soft step's joint stiffness, as the frequency (Hz) of the spring a constraint becomes,
  // capped at a quarter of the substep rate, and its damping ratio (Box2D v3's defaults).
  double jointHertz = 60.0;
  double jointDampingRatio = 2.0;
  // Contacts between rigid bodies (dynamics/contact_solver.hpp): off unless asked for, with one
  // material for every pair, Coulomb's μ and the restitution e of approaches faster than 1 m/s.
  bool collisions = false;
  double friction = 0.6;     // μ ≥ 0
  double restitution = 0.0;  // e in [0, 1]
  // The soft step's contact stiffness, as the frequency (Hz) of the spring each contact point
  // becomes in the solve passes (capped at a quarter of the substep rate, doubled against a body
  // nothing moves), and its damping ratio (Box2D v3's defaults).
  double contactHertz = 30.0;
  double contactDampingRatio = 10.0;
  // Sleeping (dynamics/sleeping_islands.hpp, with collisions): an island of bodies whose fastest
  // points have moved no faster than sleepSpeed (m/s) for sleepTime (s) stops moving and costing
  // anything until something touches it or the model is edited (Box2D's defaults). Off: every
  // body stays awake.
  bool sleep = false;
  double sleepSpeed = 0.05;
  double sleepTime = 0.5;
};

inline constexpr int kMostThreads = 64;

// Every setting, as SettingsError names it. settingSpelling() says how each door spells it.
enum class Setting {
  Dt, Formulation, Integrator, RelativeTolerance, AbsoluteTolerance, Solver, SolverTolerance, MaxIterations,
  Regularization, Factorization, ReuseIterations, Threads, Ks, Kd, Project, ProjectionTolerance,
  ProjectionIterations, Iterations, Substeps, VelocityScheme, WarmStart, PositionCorrection, Baumgarte, JointHertz,
  JointDampingRatio, Collisions, Friction, Restitution, ContactHertz, ContactDampingRatio, Sleep, SleepSpeed,
  SleepTime,
};

// A setting's name at each door: the key of a scene's "settings" object ("substeps"; empty for
// the few that scenes do not set) and the attribute path of the Python module's Settings
// ("velocity.substeps"). The command line's flag is the scene key with '-' for '_' (--substeps).
struct SettingSpelling {
  std::string_view scene;
  std::string_view python;
};
SettingSpelling settingSpelling(Setting setting);
// "--max-iterations" for max_iterations; empty for a setting that has no flag.
std::string settingFlag(Setting setting);

// The whole numbers a setting accepts, both ends included (docs/scene-format.md, "settings").
struct WholeRange {
  long long least;
  long long most;
};
// For Iterations, Substeps, MaxIterations, ReuseIterations (−1: automatic), Threads and
// ProjectionIterations.
WholeRange wholeRange(Setting setting);
// The most sequential-impulse passes (iterations × substeps) a step may take: beyond it a step of
// even the smallest model takes seconds, which no setting is meant to ask for.
inline constexpr long long kMostPassesPerStep = 1'000'000;

// Bad settings: thrown by SimulationSettings::validate() and requireWhole(). It names the
// settings involved, the one to change first at the front, so that each door (scene loader,
// command line, Python) can name them in its own words; what() names the first as the C++ and
// Python members do ("velocity.substeps: must be between 1 and 10000, got 1000000000").
class SettingsError : public std::invalid_argument {
 public:
  SettingsError(std::vector<Setting> settings, const std::string& reason);
  [[nodiscard]] std::span<const Setting> settings() const { return settings_; }
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::vector<Setting> settings_;
  std::string reason_;
};

// Throws SettingsError unless `value` is in wholeRange(setting): what the scene loader and the
// flags check before a number is narrowed to the int it is stored in.
void requireWhole(Setting setting, long long value);

struct SimulationSettings {
  double dt = 1e-3;  // step size h, s
  FormulationKind formulation = FormulationKind::Acceleration;
  IntegratorKind integrator = IntegratorKind::RungeKutta4;  // acceleration level
  ErrorTolerance errorTolerance;  // dopri5's rtol and atol per step; dt is then the output interval
  SolverSettings solver;
  double ks = 0.0;  // feedback on C, 1/s² (acceleration level)
  double kd = 0.0;  // feedback on Ċ, 1/s (acceleration level)
  ProjectionSettings projection;  // acceleration level; its tolerance and iteration cap also
                                  // bound the velocity level's position projection and Verlet's
                                  // position stage
  VelocitySettings velocity;
  // The threads a step may use (1 to kMostThreads): the constraints' evaluation is shared among
  // them, each constraint evaluated by one thread, so every result is the same bits on any
  // number of threads.
  int threads = 1;

  // Throws SettingsError naming the first bad setting. Every door calls it: the scene loader,
  // the command line after its flags, the Python module, and the Simulator's constructor.
  void validate() const;
  // Whether a step pulls a state that violates C = 0 back toward it: projection, RATTLE or both
  // feedback gains at the acceleration level, any position correction but none at the velocity
  // level. Without it Witkin's method keeps the error a state starts with.
  [[nodiscard]] bool correctsDrift() const;
};

// The most steps a run takes: a run to `time` needs at most this many steps of dt.
inline constexpr double kMaxSteps = 1e12;
// Steps of dt needed to reach `time` from 0 (a partial last step counts as one), for time/dt up
// to kMaxSteps; the command line's runs and the Python module's Simulator.run count this way.
std::uint64_t stepsToReach(double time, double dt);

// "acceleration" / "velocity", and "none" / "baumgarte" / "projection" / "soft", as scenes and
// the command line spell them.
std::string_view formulationName(FormulationKind kind);
std::optional<FormulationKind> parseFormulation(std::string_view name);
std::string_view positionCorrectionName(PositionCorrection correction);
std::optional<PositionCorrection> parsePositionCorrection(std::string_view name);
// "symplectic-euler" / "verlet".
std::string_view velocitySchemeName(VelocityScheme scheme);
std::optional<VelocityScheme> parseVelocityScheme(std::string_view name);

}  // namespace tinkertoy
