// Derivative audit: checks a constraint's analytic derivatives against finite differences.
//
// Every constraint hand-codes its point gradients G (the J of a constraint on particles), Ċ,
// Ġ and Ctt; a sign slip in any of them quietly breaks the physics. The audit recomputes each
// from C alone with central differences, treating the constraint's points as free:
//
//   J        column j:  d/dε C(x + ε e_j, t)
//   Ċ        d/dε C(x + ε ẋ, t + ε)                   (the total derivative along the motion)
//   J̇        d/dε J(x + ε ẋ, t + ε)
//   J̇ẋ + Ctt d/dε Ċ(x + ε ẋ, ẋ, t + ε)               (C̈ with ẍ = 0)
//
// each at ε = 0 with step ε ≈ 1e-6 (see below), by the central difference and by both second-order
// one-sided differences, keeping the best of the three: a function that is smooth on one side
// only (a spline's curvature at a knot) is still judged fairly, while a wrong derivative fails
// all three. Each error is max|analytic − numeric| / max(1, max|analytic|, max|numeric|):
// relative for large entries, absolute for small ones. The differences are accurate to about
// 1e-9, so a correct constraint scores below 1e-6.
//
// Far from the origin (coordinates of 1e4 m and more) round-off in x + ε ẋ grows beside the
// step: the steps grow as √|x|∞, and each difference is taken again with half
// the step. Their disagreement (`spread`) estimates the differences' own error; an error above
// the tolerance that is within 10× of it is "cannot audit", not "wrong" (verdict()).
//
// A motor row has no position (C ≡ 0, only a rate), so its J is held to Ċ = J ẋ instead; its
// J̇ and C̈ are checked like every other row's.
//
//   DerivativeAuditResult r = auditConstraint(model, rodId);
//   if (r.worst() > 1e-6) ...
#pragma once

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

// The error threshold a correct constraint stays under.
inline constexpr double kDerivativeAuditTolerance = 1e-6;

enum class AuditVerdict {
  Pass,         // every error below kDerivativeAuditTolerance
  Wrong,        // an error above it, well beyond what the differences themselves resolve
  CannotAudit,  // an error above it, but the differences disagree with themselves as much
};

struct DerivativeAuditResult {
  double jacobian = 0.0;
  double velocity = 0.0;
  double jacobianDot = 0.0;
  double acceleration = 0.0;
  double massTerms = 0.0;  // bodies only: M, weight, point forces and eq. 13's velocity term
  // The differences' own error, estimated as how far they move when the step is halved (the
  // largest over the four derivative categories).
  double spread = 0.0;

  [[nodiscard]] double worst() const;
  // Wrong only when worst() is more than kResolvedFactor × spread: an error the differences
  // cannot tell from their own is not evidence of a wrong derivative.
  [[nodiscard]] AuditVerdict verdict() const;
  static constexpr double kResolvedFactor = 10.0;
};

// Audits `constraint` at the given local state of its points.
DerivativeAuditResult auditConstraint(const Constraint& constraint, const ConstraintInput& input);

// Audits a constraint of the model at the model's current state, and again with a fixed
// pseudo-random probe velocity so that J̇ is exercised even when the model is at rest.
// Returns the worse of the two results in each category.
DerivativeAuditResult auditConstraint(const Model& model, ConstraintId id);

// Evaluates constraint `id` alone at the model's state: C and Ċ [rows]. Throws
// UndefinedConstraintError where it is not defined there (a formula's square root of a negative
// number): the scene loader asks it of each constraint, so that a scene is refused at the JSON
// path of a formula that is undefined at its start.
struct ConstraintValues {
  Eigen::VectorXd C, Cdot;
};
ConstraintValues evaluateAtModelState(const Model& model, ConstraintId id);

// A constraint's J as it derives it beside J by central differences of C, at the model's state:
// one column per coordinate and frame angle of each point, point after point ((dimension + 1)
// per point). `tinkertoy check` prints them side by side for a formula constraint.
struct JacobianComparison {
  Eigen::MatrixXd derived, differenced;  // [rows × points · (dimension + 1)]
};
JacobianComparison compareJacobian(const Model& model, ConstraintId id);

// The same audit for a body's point kinematics x(q_b), the chain rule's other factor:
//
//   J = ∂x/∂q_b   column j:  d/dε x(q + ε e_j)
//   ẋ             d/dε x(q + ε q̇)
//   J̇             d/dε J(q + ε q̇)
//   J̇ q̇           d/dε ẋ(q + ε q̇, q̇)                   (ẍ with q̈ = 0)
//
// reported in the first four fields of DerivativeAuditResult, in that order. massTerms checks
// the body's mass-related functions against their definitions: T = ½ q̇ᵀ M q̇, the weight as
// the gradient of g · Σ m x, J_pᵀ f at every point, and the velocity term of eq. 13 as
// −Ṁ q̇ + ∂T/∂q (by differences of M). Throws std::invalid_argument for a point the body does
// not have or q, v of the wrong size.
//
// Audits the point at `site` of `body` at coordinates q and velocities v [n_b]. For a body with
// a frame the point's angle is audited with it, as a fourth coordinate.
DerivativeAuditResult auditBody(const Body& body, const Site& site, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v);
// Audits every point of a body of the model (and, for a body with a frame, a site off its
// origin) at the model's state, and again with a fixed pseudo-random probe velocity; returns
// the worst of each category.
DerivativeAuditResult auditBody(const Model& model, BodyId id);

}  // namespace tinkertoy
