// State and StateView: where a model is, and the state a force or constraint is evaluated at.
//
// A Model holds its State (t, q, v) apart from its structure (bodies, forces, constraints), the
// way MuJoCo keeps mjData apart from mjModel. Integrators evaluate the dynamics at intermediate
// stage states (RK4's k2, k3, ...), so forces and constraints never read the model's own q and
// v; they read a StateView, which a State converts to.
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

struct State {
  double time = 0.0;  // t, s
  Eigen::VectorXd q;  // [n]
  Eigen::VectorXd v;  // [n]

  // NOLINTNEXTLINE(google-explicit-constructor): a state is read wherever a view is
  operator StateView() const { return {time, q, v}; }
};

}  // namespace tinkertoy
