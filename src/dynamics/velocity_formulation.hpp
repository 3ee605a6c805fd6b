// VelocityFormulation: the velocity level of seed 004 (dyn4j, Box2D) as a Formulation. Each
// step is split into substeps of h = dt / substeps (docs/theory.md §12):
//
//   1. v* = v + h W Q                         applied forces into the velocities
//   2. evaluate C at the predicted (q + h v*, t + h) and C, J at (q, t); warm start
//      v* += W Jᵀ λ_previous
//   3. impulses λ so that J v⁺ meets each row's target within the row's impulse bounds
//      (sequential impulses, or a global sparse solve with an active set), v⁺ = v* + W Jᵀ λ;
//      the targets aim at C = 0 at the end of the substep (SequentialImpulses::prepare). If
//      the impulses added kinetic energy (> 1 %), the motion was too fast for the step's
//      linearization at q, and the solve is redone linearized at the prediction.
//   4. q += h v⁺                              symplectic Euler
//   5. position correction: none; Baumgarte, q += h u with J u = −β C / h solved by the same
//      solver (a pseudo velocity, forgotten afterwards); or projection onto C = 0
//
// λ reported is the last substep's impulse divided by h: a force, comparable with the
// acceleration level's λ.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "dynamics/row_block.hpp"
#include "tinkertoy/dynamics/applied_forces.hpp"
#include "tinkertoy/dynamics/formulation.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/solvers/sequential_impulses.hpp"

namespace tinkertoy {

class VelocityFormulation final : public Formulation {
 public:
  VelocityFormulation(const Model& model, const SimulationSettings& settings);

  void rebuild() override;
  void step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) override;
  [[nodiscard]] ConstraintSystem& constraints() override { return system_; }
  [[nodiscard]] const Eigen::VectorXd& lambda() const override { return lambda_; }
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const override { return force_; }
  [[nodiscard]] const SolveTally& tally() const override { return tally_; }

 private:
  void substep(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h);
  // Prepares the solve from the system as evaluated (at q, or at the prediction), warm-starts
  // and solves for the impulses, updating v.
  void solveImpulses(Eigen::VectorXd& v, double h);
  // The passes of the prepared solve, on the velocity or on Baumgarte's pseudo velocity.
  void solvePasses(Eigen::VectorXd& v, SequentialImpulses::Pass pass);
  // The global solve's starting active set: the inequality rows held (at zero impulse).
  void startHeld(std::vector<char>& held) const;
  // solvePasses with a global solve: all rows but the springs together, with an active set for
  // the bounded ones; the springs by sequential passes.
  void solveGlobally(Eigen::VectorXd& v, SequentialImpulses::Pass pass);
  // Step 5's projection with a global solve: Gauss–Newton with backtracking on the equality
  // rows and an active set of inequality rows.
  void projectGlobally(double time, Eigen::VectorXd& q, const Eigen::VectorXd& v);

  const Model& model_;
  SimulationSettings settings_;
  bool sequential_;
  ConstraintSystem system_;
  InverseMass inverseMass_;
  AppliedForces applied_;
  SequentialImpulses impulses_;
  RowBlock global_;  // the global solves' rows: all but the springs
  SolveTally tally_;
  // Scratch: Q, W Q and Baumgarte's pseudo velocity [n]; the global block's right-hand side,
  // increment and J_B v [rows of J_B].
  // Scratch: the predicted q + h v* and v* [n]; C at the substep's start and at the prediction,
  // and the previous substep's impulses [m].
  Eigen::VectorXd Q_, WQ_, pseudo_, rhs_, delta_, JBv_, displacement_, trial_, predicted_, vStar_;
  Eigen::VectorXd current_, predictedC_, previousImpulses_;
  // The global solves' active sets [rows of J_B]: the rows held at a bound in the velocity and
  // position passes, and the rows the projection takes.
  std::array<std::vector<char>, 2> held_;
  std::vector<std::pair<Eigen::Index, Eigen::Index>> motorLimits_;  // (motor, limit of its joint), J_B rows
  std::vector<char> active_;
  Eigen::VectorXd lambda_, force_;  // [m], [n]
};

}  // namespace tinkertoy
