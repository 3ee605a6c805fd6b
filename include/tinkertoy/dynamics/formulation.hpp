// Formulation: one way of advancing a model by a step, with its constraint solve. The
// Simulator owns one, chosen by SimulationSettings::formulation:
//
//   acceleration level   Witkin's derivative loop under any integrator (dynamics/acceleration_dynamics.hpp)
//   velocity level       impulses per (sub)step and symplectic Euler (dynamics/velocity_formulation.hpp)
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
#include <memory>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

class Formulation {
 public:
  virtual ~Formulation() = default;

  // Re-lays out its matrices after bodies or constraints were added or removed; forgets λ.
  // Throws std::invalid_argument if the model has constraints it cannot solve.
  virtual void rebuild() = 0;
  // Advances time, q and v [n] by h. Masses may have changed since the last step. Throws
  // SingularSystemError or SingularMassError; the caller keeps the state it passed a copy of.
  virtual void step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) = 0;

  // The constraint system (the Simulator evaluates it again for the diagnostics).
  [[nodiscard]] virtual ConstraintSystem& constraints() = 0;
  // λ of the last step as forces [m], and Q̂ = Jᵀλ [n].
  [[nodiscard]] virtual const Eigen::VectorXd& lambda() const = 0;
  [[nodiscard]] virtual const Eigen::VectorXd& constraintForce() const = 0;
  // Linear solves of the last step (cleared at the start of each step).
  [[nodiscard]] virtual const SolveTally& tally() const = 0;
};

// The formulation `settings` asks for, on `model` (which it keeps a reference to).
std::unique_ptr<Formulation> makeFormulation(const Model& model, const SimulationSettings& settings);

}  // namespace tinkertoy
