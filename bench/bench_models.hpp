// The benchmark scenarios (bench/scenario.hpp) as Tinkertoy models: particles with distance
// constraints (rods to the pivot are distance constraints to a fixed point; nailed particles get
// a fixed-point constraint), rigid discs with revolute joints, or rigid boxes and discs that
// collide; the tumbler's container is a kinematic rigid body whose shape is a closed chain, the
// model's last body.
//
//   Scenario s = chainScenario(1000);
//   Model model = tinkertoyModel(s);
//   Simulator sim(model, exactSettings(s));
#pragma once

#include <memory>
#include <vector>

#include "scenario.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"

namespace tinkertoy::bench {

Model tinkertoyModel(const Scenario& scenario);
// The settings the peer table runs a scenario with (bench/peers/tinkertoy_world.cpp): the
// velocity level at the scenario's step and substeps; Box2D v3's soft step (one sequential pass
// per substep); the exact mode (ldlt and projection, one substep).
SimulationSettings velocityLevelSettings(const Scenario& scenario);
SimulationSettings softStepSettings(const Scenario& scenario, int threads);
// Whether the peer table runs a scenario with the soft step too (Box2D v3's own problems: the
// joint grid and every scene that collides).
bool hasSoftStep(const Scenario& scenario);
SimulationSettings exactModeSettings(const Scenario& scenario, int threads);
// The state of the model's first `count` bodies, the scenario's, in its body order (they were
// added in that order).
void readState(const Model& model, std::size_t count, std::vector<BodyState>& out);

// A model's J W Jᵀ + ε diag(J W Jᵀ) at its current state, for the factorization benchmarks and
// tests (ε = 1e-9 makes joint_grid's redundant pin rows solvable, as its exact mode does).
class StateConstraintMatrix {
 public:
  explicit StateConstraintMatrix(const Model& model, double regularization = 1e-9);
  StateConstraintMatrix(const StateConstraintMatrix&) = delete;
  StateConstraintMatrix& operator=(const StateConstraintMatrix&) = delete;
  [[nodiscard]] const ConstraintMatrix& matrix() const { return *matrix_; }

 private:
  ConstraintSystem system_;
  InverseMass inverseMass_;
  Eigen::VectorXd shift_;
  std::unique_ptr<ConstraintMatrix> matrix_;  // refers to the three above
};

}  // namespace tinkertoy::bench
