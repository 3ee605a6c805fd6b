// StateView: the state a force or constraint is evaluated at.
//
// Integrators evaluate the dynamics at intermediate stage states (RK4's k2, k3, ...), so
// forces and constraints never read the model's own q and v; they read a StateView.
//
//   q: coordinates [n], body b at Model::offsetOf(b) (a particle's coordinates are its position)
//   v: velocities [n], same layout
#pragma once

#include <Eigen/Core>

namespace tinkertoy {

struct StateView {
  double time = 0.0;
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
};

}  // namespace tinkertoy
