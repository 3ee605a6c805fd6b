// AppliedForces: the generalized force Q of steps 1–2 of Witkin's derivative loop (Witkin, "Constrained Dynamics"
// §4.1), shared by both formulations:
//
//   Q = Σ forces  −  Σ_parametric J_uᵀ M J̇_u u̇        [n]
//
// every force's contribution, plus the velocity-dependent inertial term of each body whose
// mass matrix depends on its coordinates (Witkin, "Constrained Dynamics", eq. 13, moved to the right-hand side).
//
//   AppliedForces applied;
//   applied.build(model);                       // after bodies were added or removed
//   applied.evaluate(model, {t, q, v}, Q);
#pragma once

#include <Eigen/Core>
#include <vector>

#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

class AppliedForces {
 public:
  void build(const Model& model);
  // Q = the applied generalized force at `state`. Q: [n], resized and overwritten.
  void evaluate(const Model& model, const StateView& state, Eigen::VectorXd& Q) const;

 private:
  std::vector<std::size_t> parametric_;  // bodies with a non-diagonal M: they have inertial forces
};

}  // namespace tinkertoy
