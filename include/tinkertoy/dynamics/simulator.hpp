// Simulator: how a model moves. Formulation, integrator and linear solver, chosen at run time.
//
// The simulator steps the model it was given, in place. It keeps its own matrices and
// scratch space (the Model holds only what exists and its state), rebuilds them when
// bodies or constraints are added or removed, and after every step records
// StepDiagnostics: energy, constraint error, solver work and λ.
//
// If a step produces a non-finite state, one whose energy or constraint error overflows, or
// one whose constraints came apart (‖C‖∞ above ten times the model's size), or the direct
// solver meets redundant constraints, or a body's mass matrix becomes singular,
// step() throws SimulationError and the model keeps the state it had before the step.
//
//   tinkertoy::Simulator sim(model, {.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4});
//   for (int i = 0; i < 1000; ++i) sim.step();
//   double drift = sim.diagnostics().totalEnergy() - initialEnergy;
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <span>

#include "tinkertoy/dynamics/acceleration_dynamics.hpp"
#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/dynamics/simulation_error.hpp"
#include "tinkertoy/integrators/integrator.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

struct SimulationSettings {
  double dt = 1e-3;  // step size h, s
  IntegratorKind integrator = IntegratorKind::RungeKutta4;
  SolverSettings solver;
  double ks = 0.0;  // feedback on C, 1/s²
  double kd = 0.0;  // feedback on Ċ, 1/s
  ProjectionSettings projection;

  // Throws std::invalid_argument naming the first bad setting.
  void validate() const;
};

// The state of the model after a step (or at construction, for step 0).
struct StepDiagnostics {
  std::uint64_t step = 0;
  double time = 0.0;
  double kineticEnergy = 0.0;    // ½ vᵀ M(q) v, J
  double potentialEnergy = 0.0;  // Σ V over forces, J
  double constraintError = 0.0;  // ‖C‖∞
  double velocityError = 0.0;    // ‖Ċ‖∞
  int solves = 0;                // linear solves in the step (stages + projection)
  long solverIterations = 0;     // total over those solves
  double solverResidual = 0.0;   // largest relative residual among them

  [[nodiscard]] double totalEnergy() const { return kineticEnergy + potentialEnergy; }
};

class Simulator {
 public:
  Simulator(Model& model, SimulationSettings settings = {});

  // Advances the model by settings().dt. Throws SimulationError, keeping the previous state.
  void step();

  [[nodiscard]] const StepDiagnostics& diagnostics() const { return diagnostics_; }
  // Re-measures diagnostics at the model's current state, e.g. after editing it.
  void refreshDiagnostics();

  // λ of a constraint [rows], from the solve at the start of the last step (zero before
  // the first step). For a rod λ is the force along it in newtons (< 0: tension).
  [[nodiscard]] std::span<const double> lambda(ConstraintId id);
  // Q̂ = Jᵀλ from that same solve, [n].
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const { return reportedForce_; }

  [[nodiscard]] const SimulationSettings& settings() const { return settings_; }
  [[nodiscard]] std::uint64_t stepCount() const { return stepCount_; }
  [[nodiscard]] const Model& model() const { return model_; }

 private:
  // The first stage of every step runs through here so its λ can be reported.
  class FirstStageRecorder;

  void syncStructure();
  // Diagnostics of `state` (energy, ‖C‖∞, ‖Ċ‖∞) plus the current step's solver tally.
  StepDiagnostics measure(const StateView& state);
  // Throws SimulationError if the candidate state (q_, v_) is not fit to commit.
  void rejectIfBlownUp(const StepDiagnostics& candidate, double startTime) const;

  Model& model_;
  SimulationSettings settings_;
  AccelerationDynamics dynamics_;
  Integrator integrator_;
  Projection projection_;
  std::uint64_t structureVersion_ = 0;
  bool built_ = false;
  double modelSize_ = 1.0;  // bounding-box diagonal when the layout was built, ≥ 1 m
  std::uint64_t stepCount_ = 0;
  StepDiagnostics diagnostics_;
  Eigen::VectorXd q_, v_;                     // work state of the step in progress [n]
  Eigen::VectorXd reportedLambda_;            // [m]
  Eigen::VectorXd reportedForce_;             // [n]
};

}  // namespace tinkertoy
