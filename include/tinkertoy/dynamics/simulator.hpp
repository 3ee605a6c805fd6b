// Simulator: how a model moves. Formulation, integrator and solver, chosen at run time.
//
// The simulator steps the model it was given, in place, and holds it while it lives: a second
// simulator on the same model is refused (std::logic_error; model/model.hpp, ModelHold). Reading
// the model (its state, bodies, forces, constraints) is never an edit; the setters and
// editBody()/editForce() are, and the next step drops what it derived from the state before
// them. It keeps its own matrices and scratch space (the Model holds only what exists and its
// state), rebuilds them when bodies or constraints are added or removed, and after every step records
// StepDiagnostics: energy, constraint error, solver work, the work ledger's entries and λ.
//
// A constraint that nothing can move (every point on a static or kinematic body) takes no part
// in the solve, but its error is real and counts in the diagnostics' ‖C‖∞ and ‖Ċ‖∞
// (dynamics/immovable_constraints.hpp).
//
// After each step every constraint with a break force (Model::setBreakForce) whose reaction
// force exceeds it is disabled, and the break is recorded as a BreakEvent.
//
// If a step produces a non-finite state, one whose energy or constraint error overflows, one
// whose constraints came apart (‖C‖∞ above ten times the model's size L) or are coming apart
// (‖Ċ‖∞ dt above 10 L), or one whose energy ran away (a million times the model's energy scale
// beyond what the work done on it explains: dynamics/runaway_watch.hpp), or the direct solver
// meets a singular J W Jᵀ, or a body's mass matrix becomes singular, step() throws
// SimulationError and the model keeps the state it had before the step (docs/theory.md,
// "Blow-ups").
//
// The formulation (dynamics/formulation.hpp) is Witkin's acceleration level or the velocity
// level of dyn4j's "Equality Constraints", on the same model.
//
//   tinkertoy::Simulator sim(model, {.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4});
//   for (int i = 0; i < 1000; ++i) sim.step();
//   double drift = sim.diagnostics().totalEnergy() - initialEnergy;
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <memory>

#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/dynamics/formulation.hpp"
#include "tinkertoy/dynamics/immovable_constraints.hpp"
#include "tinkertoy/dynamics/runaway_watch.hpp"
#include "tinkertoy/dynamics/simulation_error.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

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
  int factorizations = 0;        // numeric factorizations among them (direct solver)
  int relinearizedSolves = 0;    // velocity level: substep solves redone at the predicted state
                                 // because the passive rows did work (the energy safeguard)
  int analyses = 0;              // symbolic analyses of J W Jᵀ since the diagnostics before
                                 // (one per layout: bodies or constraints added or removed)
  int projectionIterations = 0;  // Gauss–Newton iterations of the step's position projections
  bool projectionConverged = true;  // every projection reached its tolerance
  int substepSplits = 0;         // substeps redone as halves so that their projection converged
  // dopri5: its own steps within this step (0 when the step fell inside one taken before), the
  // steps it rejected and retried shorter, and the size of its last accepted step, s.
  int adaptiveSteps = 0;
  int rejectedSteps = 0;
  double adaptiveStepSize = 0.0;
  double solverResidual = 0.0;   // largest relative residual among them
  // With contacts: the most contact points at a substep's start, and the deepest penetration
  // there, m (what the solve then pushes out).
  int contactPoints = 0;
  double penetration = 0.0;
  int asleep = 0;  // with sleep on: the bodies asleep at the step's end
  // The work done on the model during the step by each source its energy does not account for
  // (dynamics/work_ledger.hpp): the forces' by the trapezoid rule over the step's power plus what
  // the external energies lost, the constraints' as the formulation reports it. Zero at step 0 and after refreshDiagnostics().
  WorkLedger work;

  [[nodiscard]] double totalEnergy() const { return kineticEnergy + potentialEnergy; }
};

// What a constraint does to the first point it names (a joint's body a): the force at that
// point (N) [dimension] and the couple about it (N·m; zero unless the constraint acts on
// orientations), from λ of the last step.
struct Reaction {
  Eigen::VectorXd force;
  double torque = 0.0;
};

// A constraint that broke: its reaction force exceeded Model::breakForce after `step`, and the
// simulator disabled it.
struct BreakEvent {
  std::uint64_t step = 0;
  double time = 0.0;  // s, at the end of the step
  ConstraintId constraint;
  double force = 0.0;  // |reaction force| that broke it, N
};

class Simulator {
 public:
  Simulator(Model& model, SimulationSettings settings = {});

  // Advances the model by settings().dt. Throws SimulationError, keeping the previous state.
  void step();

  [[nodiscard]] const StepDiagnostics& diagnostics() const { return diagnostics_; }
  // Re-measures diagnostics at the model's current state, e.g. after editing it.
  void refreshDiagnostics();

  // λ of a constraint [rows] from the last step's solve (zero before the first step): at the
  // acceleration level the solve at the start of the step (with dopri5, at its end; with RATTLE,
  // its position stage's), at the velocity level the last substep's impulse divided by its
  // length (with Verlet, both of its impulses). For a rod λ is the force in newtons (< 0: tension).
  // Empty for a constraint without rows: disabled (or broken), or between immovable bodies.
  [[nodiscard]] std::span<const double> lambda(ConstraintId id);
  // With contacts: the contact points of the last substep and their impulses (a copy).
  [[nodiscard]] std::vector<ContactReport> contacts() const { return formulation_->contacts(); }
  // With sleep on: whether the body is asleep after the last step (dynamics/sleeping_islands.hpp);
  // false for every body once bodies or constraints were added or removed since (the next step
  // lays the model out again, awake). Throws std::invalid_argument for an id the model lacks.
  [[nodiscard]] bool asleep(BodyId id) const;
  // Q̂ = Jᵀλ from that same solve, [n].
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const { return formulation_->constraintForce(); }

  // The reaction of a constraint (see Reaction): the last step's λ (at the acceleration level
  // mostly solved at the start of the step, so a step behind the state; with dopri5 at the
  // state itself) through the gradients at the model's current state. The break check after each step uses it.
  [[nodiscard]] Reaction reaction(ConstraintId id);
  // Every constraint that broke so far, in order.
  [[nodiscard]] std::span<const BreakEvent> breaks() const { return breaks_; }

  // Exact save and restore. saveState() returns the bytes of a state file
  // (archive/state_archive.hpp) holding everything the steps after it depend on: the model's
  // time, q, v and which constraints are enabled; the step count, the diagnostics and the
  // breaks so far; and what the formulation carries between steps (warm starts, active sets,
  // the factorization it reuses, dopri5's step in progress, the ledger's power at the last
  // state). restoreState() puts such a state into a simulator of the same model (the same
  // scene, loaded afresh, or the model it was saved from) with the same settings, in this
  // process or another: every step after it is then the same bits as the steps after the save.
  // It throws StateError for bytes that are not a state file, a corrupt, truncated or
  // wrong-version one, or one saved from another model or with other settings (threads aside);
  // the model and the simulator are then as they were. The model is recognised by its sizes and
  // the names and types of its bodies, constraints and forces, not by their parameters: a caller
  // that can tell more passes `origin` (the command line passes a hash of the scene's contents),
  // which a restore requires to be what the save was given.
  [[nodiscard]] std::string saveState(std::string_view origin = {});
  void restoreState(std::string_view file, std::string_view origin = {});

  [[nodiscard]] const SimulationSettings& settings() const { return settings_; }
  [[nodiscard]] std::uint64_t stepCount() const { return stepCount_; }
  [[nodiscard]] const Model& model() const { return model_; }

 private:
  void syncStructure();
  // The model's size and total mass, the runaway watch's scale: at every new layout and every edit.
  void measureScale();
  // The state saveState() records, in either direction (simulator_state.cpp).
  void serialize(StateArchive& archive, std::string_view origin);
  // Records what the state belongs to; a reader throws StateError unless it is this model
  // (and origin) with these settings.
  void expectSameModelAndSettings(StateArchive& archive, std::string_view origin) const;
  // Disables every constraint whose reaction force exceeds its break force, recording why.
  void breakOverloadedConstraints();
  // Diagnostics of `state` (energy, ‖C‖∞, ‖Ċ‖∞) plus the current step's solver tally;
  // afterStep: `state` is what the formulation's last step() returned.
  StepDiagnostics measure(const StateView& state, bool afterStep);
  // What the forces' work is computed from, at a state: the power of those that do work no
  // potential accounts for, and the energy of those from outside the model (Force::externalEnergy).
  struct ForceWork {
    WorkLedger power;   // W
    WorkLedger energy;  // J
  };
  [[nodiscard]] ForceWork forceWork(const StateView& state) const;
  // The energies of a state (the rest of the diagnostics left at zero).
  [[nodiscard]] StepDiagnostics energyAt(const StateView& state) const;
  // Throws SimulationError if the candidate state (q_, v_), whose step booked candidate.work,
  // is not fit to commit.
  void rejectIfBlownUp(const StepDiagnostics& candidate, double startTime) const;
  // "step N: ", N the step being taken.
  [[nodiscard]] std::string stepLabel() const;
  // The SimulationError of the step being taken, begun at startTime: `message`, then the sentence
  // that says which state the model keeps.
  [[nodiscard]] SimulationError failure(const std::string& message, double startTime,
                                        std::optional<BodyId> body = std::nullopt,
                                        std::optional<ConstraintId> constraint = std::nullopt) const;
  // The SimulationError for a singular J W Jᵀ met during the step from startTime.
  [[nodiscard]] SimulationError singularError(const SingularSystemError& e, double startTime) const;
  // Restarts the blow-up criterion's reference at a state of these energies.
  void watchFrom(const StepDiagnostics& state);

  ModelHold hold_;  // taken first: a second simulator on the model is refused before anything is built
  Model& model_;
  SimulationSettings settings_;
  std::unique_ptr<Formulation> formulation_;
  std::uint64_t structureVersion_ = 0;
  long analysesReported_ = 0;  // the formulation's analyses() when diagnostics were last published
  std::uint64_t committedRevision_ = 0;  // the model's revision when the last step was committed
  // A refused step left what the formulation keeps between steps where its substeps took it,
  // not at the model's state: modelEdited before the formulation is used or saved again.
  bool formulationStale_ = false;
  ForceWork endForceWork_;                // forceWork() of the last committed state
  bool endForceWorkKnown_ = false;        // and whether it is that of the model's state
  bool built_ = false;
  double modelSize_ = 1.0;  // bounding-box diagonal when the layout was built, ≥ 1 m
  double totalMass_ = 0.0;  // of all bodies when the layout was built, kg
  RunawayWatch runaway_;    // the energy criterion of a blow-up
  std::uint64_t stepCount_ = 0;
  StepDiagnostics diagnostics_;
  Eigen::VectorXd q_, v_;  // work state of the step in progress [n]
  std::vector<BreakEvent> breaks_;
  ImmovableConstraints immovable_;  // measured in the diagnostics, though they have no rows
};

}  // namespace tinkertoy
