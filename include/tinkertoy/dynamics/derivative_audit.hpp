// Derivative audit: checks a constraint's analytic derivatives against finite differences.
//
// Every constraint hand-codes its point gradients G (the J of a constraint on particles), Ċ,
// Ġ and Ctt; a sign slip in any of them quietly breaks the physics. The audit recomputes each
// from C alone with central differences, treating the constraint's points as free:
//
//   J        column j:  (C(x + ε e_j, t) − C(x − ε e_j, t)) / 2ε
//   Ċ        J ẋ + (C(x, t + ε) − C(x, t − ε)) / 2ε
//   J̇        (J(x + ε ẋ, t + ε) − J(x − ε ẋ, t − ε)) / 2ε        (derivative along the motion)
//   J̇ẋ + Ctt (Ċ(x + ε ẋ, ẋ, t + ε) − Ċ(x − ε ẋ, ẋ, t − ε)) / 2ε  (C̈ with ẍ = 0)
//
// Each error is max|analytic − numeric| / max(1, max|analytic|, max|numeric|): relative for
// large entries, absolute for small ones. Central differences with ε ≈ 1e-6 are accurate to
// about 1e-9, so a correct constraint scores below 1e-6.
//
//   DerivativeAuditResult r = auditConstraint(model, rodId);
//   if (r.worst() > 1e-6) ...
#pragma once

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

struct DerivativeAuditResult {
  double jacobian = 0.0;
  double velocity = 0.0;
  double jacobianDot = 0.0;
  double acceleration = 0.0;

  [[nodiscard]] double worst() const;
};

// The error threshold a correct constraint stays under.
inline constexpr double kDerivativeAuditTolerance = 1e-6;

// Audits `constraint` at the given local state of its points.
DerivativeAuditResult auditConstraint(const Constraint& constraint, const ConstraintInput& input);

// Audits a constraint of the model at the model's current state, and again with a fixed
// pseudo-random probe velocity so that J̇ is exercised even when the model is at rest.
// Returns the worse of the two results in each category.
DerivativeAuditResult auditConstraint(const Model& model, ConstraintId id);

// The same audit for a body's point kinematics x(q_b), the chain rule's other factor:
//
//   J = ∂x/∂q_b   column j:  (x(q + ε e_j) − x(q − ε e_j)) / 2ε
//   ẋ             J q̇
//   J̇             (J(q + ε q̇) − J(q − ε q̇)) / 2ε
//   J̇ q̇           (ẋ(q + ε q̇, q̇) − ẋ(q − ε q̇, q̇)) / 2ε       (ẍ with q̈ = 0)
//
// reported in the four fields of DerivativeAuditResult, in that order.
// Audits point `point` of `body` at coordinates q and velocities v [n_b].
DerivativeAuditResult auditBody(const Body& body, int point, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v);
// Audits every point of a body of the model at the model's state, and again with a fixed
// pseudo-random probe velocity; returns the worst of each category.
DerivativeAuditResult auditBody(const Model& model, BodyId id);

}  // namespace tinkertoy
