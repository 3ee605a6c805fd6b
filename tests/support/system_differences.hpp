// Test support: a model's whole constraint system evaluated at a given state, as dense
// matrices, and its Jacobian by central differences in the generalized coordinates, for tests
// that check the assembled J, J̇ and chain rule end to end.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"

namespace tinkertoy::test_support {

struct SystemEvaluation {
  Eigen::VectorXd C, Cdot, Ctt;
  Eigen::MatrixXd J, Jdot;
  std::vector<RowKind> kinds;
};

inline SystemEvaluation evaluateSystem(const Model& model, double t, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v) {
  ConstraintSystem system;
  system.build(model);
  system.evaluate({t, q, v});
  return {system.value(),
          system.velocity(),
          system.timeTerm(),
          Eigen::MatrixXd(system.jacobian().toSparse()),
          Eigen::MatrixXd(system.jacobianDot().toSparse()),
          {system.kinds().begin(), system.kinds().end()}};
}

// ∂C/∂q column by column: (C(q + e e_j) − C(q − e e_j)) / 2e, at time t and velocities v.
inline Eigen::MatrixXd differencedJacobian(const Model& model, double t, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& v, double e) {
  const Eigen::VectorXd C = evaluateSystem(model, t, q, v).C;
  Eigen::MatrixXd J(C.size(), q.size());
  for (Eigen::Index j = 0; j < q.size(); ++j) {
    Eigen::VectorXd plus = q, minus = q;
    plus[j] += e;
    minus[j] -= e;
    J.col(j) = (evaluateSystem(model, t, plus, v).C - evaluateSystem(model, t, minus, v).C) / (2 * e);
  }
  return J;
}

}  // namespace tinkertoy::test_support
