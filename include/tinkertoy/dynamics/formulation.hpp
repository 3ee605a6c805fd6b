// Formulation: one way of advancing a model by a step, with its constraint solve. The
// Simulator owns one, chosen by SimulationSettings::formulation:
//
//   acceleration level   Witkin's derivative loop under any integrator (dynamics/acceleration_dynamics.hpp)
//   velocity level       impulses per (sub)step, symplectic Euler or Verlet (dynamics/velocity_formulation.hpp)
//
// Both work on the same Model and report their multipliers the same way: λ as forces (N, or
// N·m for angle rows) from the step's solve, and the generalized constraint force Jᵀλ with
// the J of that solve.
//
//   auto formulation = makeFormulation(model, settings);
//   formulation->rebuild();
//   formulation->step(time, q, v, settings.dt);
#pragma once

#include <Eigen/Core>
#include <vector>
#include <memory>

#include "tinkertoy/dynamics/contact_report.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/dynamics/work_ledger.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

class StateArchive;

class Formulation {
 public:
  virtual ~Formulation() = default;

  // Re-lays out its matrices after bodies or constraints were added or removed; forgets λ.
  // Throws std::invalid_argument if the model has constraints it cannot solve.
  virtual void rebuild() = 0;
  // The model may have been edited since the last step (masses, parameters, the state; not its
  // structure): forgets what it derived from the model and kept between steps.
  virtual void modelEdited() = 0;
  // Advances time, q and v [n] by h. Throws SingularSystemError or SingularMassError; the
  // caller keeps the state it passed a copy of. Between two steps the caller passes the state
  // the first returned, unless it called modelEdited().
  virtual void step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) = 0;

  // What it carries from one step to the next (warm starts, active sets, a factorization it
  // reuses, an adaptive step in progress, λ), saved or restored (Simulator::saveState) after
  // rebuild() of the same layout.
  virtual void serialize(StateArchive& archive) = 0;

  // The constraint system.
  [[nodiscard]] virtual ConstraintSystem& constraints() = 0;
  // Whether the last step() left the constraint system evaluated (C and Ċ at least) at the state
  // it returned, so that the diagnostics of that state need not evaluate it again.
  [[nodiscard]] virtual bool evaluatedAtStepEnd() const = 0;
  // λ of the last step as forces [m], and Q̂ = Jᵀλ [n].
  [[nodiscard]] virtual const Eigen::VectorXd& lambda() const = 0;
  [[nodiscard]] virtual const Eigen::VectorXd& constraintForce() const = 0;
  // The work the constraints' forces did on the movable bodies during the last step, by ledger
  // entry (dynamics/work_ledger.hpp): at the velocity level every row's impulses, exactly; at the
  // acceleration level the driven rows', by the trapezoid rule (the others' is numerical).
  [[nodiscard]] virtual const WorkLedger& constraintWork() const = 0;
  // Linear solves of the last step (cleared at the start of each step).
  [[nodiscard]] virtual const SolveTally& tally() const = 0;
  // Symbolic analyses of the constraint matrix since construction (0 without a global solve).
  [[nodiscard]] virtual long analyses() const = 0;
  // Position projections of the last step (none unless it projects).
  [[nodiscard]] virtual const ProjectionTally& projectionTally() const = 0;
  // The adaptive integrator's steps within the last step (none unless it is dopri5).
  [[nodiscard]] virtual const AdaptiveTally& adaptiveTally() const {
    static const AdaptiveTally none;
    return none;
  }
  // The contacts of the last step (none unless the settings ask for contacts).
  struct ContactTally {
    int points = 0;            // the most contact points at a substep's start
    double penetration = 0.0;  // m, the deepest penetration at a substep's start (0: none)
    int asleep = 0;            // bodies asleep at the step's end (settings velocity.sleep)
  };
  [[nodiscard]] virtual const ContactTally& contactTally() const {
    static const ContactTally none;
    return none;
  }
  // The contact points of the last substep with their impulses (none without contacts).
  [[nodiscard]] virtual std::vector<ContactReport> contacts() const { return {}; }
  // By dense body index, 1 for a body asleep (settings velocity.sleep); empty while none sleeps.
  [[nodiscard]] virtual std::span<const char> asleep() const { return {}; }
};

// The formulation `settings` asks for, on `model` (which it keeps a reference to).
std::unique_ptr<Formulation> makeFormulation(const Model& model, const SimulationSettings& settings);

}  // namespace tinkertoy
