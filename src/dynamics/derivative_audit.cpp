#include "tinkertoy/dynamics/derivative_audit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

namespace {

// One evaluation of a constraint, with its blocks side by side: J = [J_0 J_1 ...], each
// block the gradient with respect to a point's d coordinates and its frame angle.
struct Evaluation {
  Eigen::VectorXd C, Cdot, Ctt;
  Eigen::MatrixXd J, Jdot;  // [rows × (points · (dimension + 1))]
};

// The local state: each point's d coordinates and frame angle, flattened to
// [points · (dimension + 1)], and their rates.
struct LocalState {
  double time;
  int dimension;
  Eigen::VectorXd x, xDot;
};

Evaluation evaluate(const Constraint& constraint, const LocalState& s) {
  const int d = s.dimension, w = d + 1;
  const auto count = static_cast<std::size_t>(s.x.size() / w);
  const int rows = constraint.rows();
  std::vector<Eigen::Vector3d> positions(count), velocities(count);
  std::vector<double> angles(count), angularVelocities(count);
  for (std::size_t k = 0; k < count; ++k) {
    positions[k] = readPoint(s.x, k * w, d);
    velocities[k] = readPoint(s.xDot, k * w, d);
    angles[k] = s.x[static_cast<Eigen::Index>(k * w) + d];
    angularVelocities[k] = s.xDot[static_cast<Eigen::Index>(k * w) + d];
  }
  Evaluation e{Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows),
               {}, {}};
  // Gradients are stored point by point: row r of G_k is G[k * rows + r].
  const std::size_t size = count * static_cast<std::size_t>(rows);
  std::vector<Eigen::Vector4d> G(size, Eigen::Vector4d::Zero()), Gdot(size, Eigen::Vector4d::Zero());
  std::vector<RowParameters> parameters(static_cast<std::size_t>(rows));
  ConstraintOutput output(e.C.data(), e.Cdot.data(), e.Ctt.data(), G.data(), Gdot.data(), parameters.data(),
                          rows);
  constraint.evaluate({s.time, d, positions, velocities, angles, angularVelocities}, output);
  e.J.resize(rows, static_cast<Eigen::Index>(count) * w);
  e.Jdot.resize(rows, e.J.cols());
  for (std::size_t k = 0; k < count; ++k) {
    for (int r = 0; r < rows; ++r) {
      const std::size_t at = k * static_cast<std::size_t>(rows) + static_cast<std::size_t>(r);
      const auto column = static_cast<Eigen::Index>(k) * w;
      e.J.block(r, column, 1, d) = G[at].head(d).transpose();
      e.Jdot.block(r, column, 1, d) = Gdot[at].head(d).transpose();
      e.J(r, column + d) = G[at][3];
      e.Jdot(r, column + d) = Gdot[at][3];
    }
  }
  return e;
}

double mixedError(const Eigen::MatrixXd& analytic, const Eigen::MatrixXd& numeric) {
  if (analytic.size() == 0) return 0.0;
  const double scale =
      std::max({1.0, analytic.cwiseAbs().maxCoeff(), numeric.cwiseAbs().maxCoeff()});
  return (analytic - numeric).cwiseAbs().maxCoeff() / scale;
}

using Sampled = std::function<Eigen::MatrixXd(double)>;

enum class Stencil { Central, Forward, Backward };

// The derivative of f at 0 with step e, each accurate to O(e²) where f is smooth on the side it
// samples:
//   central     (f(e) − f(−e)) / 2e
//   forward     (−3 f(0) + 4 f(e) − f(2e)) / 2e
//   backward    (3 f(0) − 4 f(−e) + f(−2e)) / 2e
Eigen::MatrixXd difference(const Sampled& f, double e, Stencil stencil) {
  switch (stencil) {
    case Stencil::Central:
      return (f(e) - f(-e)) / (2 * e);
    case Stencil::Forward:
      return (-3 * f(0.0) + 4 * f(e) - f(2 * e)) / (2 * e);
    case Stencil::Backward:
      break;
  }
  return (3 * f(0.0) - 4 * f(-e) + f(-2 * e)) / (2 * e);
}

// The error of `analytic` as the derivative of f at 0, the best over the three stencils: a
// correct derivative of a function that is smooth on at least one side passes (a spline's
// curvature has a kink at every knot, so the central difference across one errs by O(e)); a
// wrong one fails all three. With it, that stencil's spread: how far its difference moves when
// the step is halved, an estimate of the finite difference's own error (truncation, or
// round-off where the values are large beside the step).
//
// Where f itself has a kink (max(x, y) where x = y, abs at 0) the derivative does not exist: the
// forward and backward differences, each accurate on its side, disagree by O(1) (across a
// spline knot they agree, only the central one errs). No derivative can be judged there, so
// their disagreement is both the error and the spread: "cannot audit".
struct Judged {
  double error = 0.0;
  double spread = 0.0;
};

Judged derivativeError(const Eigen::MatrixXd& analytic, const Sampled& f, double e) {
  Judged best{INFINITY, 0.0};
  std::array<Eigen::MatrixXd, 3> numeric;
  const std::array<Stencil, 3> stencils = {Stencil::Central, Stencil::Forward, Stencil::Backward};
  for (std::size_t k = 0; k < stencils.size(); ++k) {
    numeric[k] = difference(f, e, stencils[k]);
    if (const double error = mixedError(analytic, numeric[k]); error < best.error) {
      best = {error, mixedError(numeric[k], difference(f, e / 2, stencils[k]))};
    }
  }
  if (const double kink = mixedError(numeric[1], numeric[2]); kink > kDerivativeAuditTolerance) {
    best = {std::max(best.error, kink), std::max(best.spread, kink)};
  }
  return best;
}

// Keeps the worse of the judged category and the new judgement, and the larger spread.
void keepWorse(double& category, double& spread, const Judged& judged) {
  category = std::max(category, judged.error);
  spread = std::max(spread, judged.spread);
}

// The step in a coordinate: 1e-6 where the coordinates are at most 1, larger as they grow (as
// √|x|∞), so that the round-off in x + h, about 1e-16 |x|, stays small beside it while the
// truncation error, O(h²), stays small too.
double coordinateStep(const Eigen::VectorXd& x) { return 1e-6 * std::sqrt(std::max(1.0, x.cwiseAbs().maxCoeff())); }

// The least spread any difference has: the round-off in x + h, 2⁻⁵² |x|∞, beside the step. It is
// what the halving cannot see where the step is below the coordinates' resolution (x + h == x
// when |x| is 1e150): both differences are then 0, and agree.
double roundOffFloor(const Eigen::VectorXd& x) {
  return std::numeric_limits<double>::epsilon() * std::max(1.0, x.cwiseAbs().maxCoeff()) / coordinateStep(x);
}

// The step ε along the motion, x + ε ẋ: a coordinate step in all, at most.
double motionStep(const Eigen::VectorXd& x, const Eigen::VectorXd& xDot) {
  return coordinateStep(x) / std::max(1.0, xDot.cwiseAbs().maxCoeff());
}

// The state moved by ε along the motion: x + ε ẋ, t + ε.
LocalState alongMotion(const LocalState& s, double epsilon) {
  return {s.time + epsilon, s.dimension, s.x + epsilon * s.xDot, s.xDot};
}

DerivativeAuditResult worseOf(const DerivativeAuditResult& a, const DerivativeAuditResult& b) {
  return {std::max(a.jacobian, b.jacobian),       std::max(a.velocity, b.velocity),
          std::max(a.jacobianDot, b.jacobianDot), std::max(a.acceleration, b.acceleration),
          std::max(a.massTerms, b.massTerms),     std::max(a.spread, b.spread)};
}

// Deterministic pseudo-random values in [−1, 1] (a linear congruential generator), so that
// audits exercise J̇ even for a model at rest and give the same answer every run.
Eigen::VectorXd probeVector(std::uint32_t seed, Eigen::Index size) {
  Eigen::VectorXd x(size);
  for (Eigen::Index i = 0; i < size; ++i) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = static_cast<double>(seed >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return x;
}

// The mass-related functions of a body, each against what it must equal by definition:
//
//   kinetic energy    T = ½ q̇ᵀ M q̇                                 (checks M too)
//   weight            Q_g = ∂(g · Σ m x)/∂q                        (differences of massMoment)
//   point force       Q_f = J_pᵀ f                                 (at every point, and off-origin
//                                                                   sites of a body with a frame)
//   inertial force    Q_i = −Ṁ q̇ + ∂T/∂q                           (Lagrange's equation with
//                                                                   M q̈ = Q + Q_i; differences of M)
//
// Bodies override these for speed (Particle, Bead, RigidBody); this keeps the overrides honest.
double massTermsError(const Body& body, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const Eigen::Index n = q.size();
  const Eigen::Vector3d g(0.3, -9.81, 0.7), f(1.3, -0.4, 2.2);
  const double h = coordinateStep(q);
  const auto M = [&](const Eigen::VectorXd& at) {
    Eigen::MatrixXd mass(n, n);
    body.massMatrix(at, mass);
    return mass;
  };
  const auto T = [&](const Eigen::VectorXd& at) { return 0.5 * v.dot(M(at) * v); };

  const double kinetic = body.kineticEnergy(q, v), quadratic = T(q);
  double worst = std::abs(kinetic - quadratic) / std::max({1.0, std::abs(kinetic), std::abs(quadratic)});

  Eigen::VectorXd weight = Eigen::VectorXd::Zero(n), inertial = Eigen::VectorXd::Zero(n);
  body.addWeight(g, q, weight);
  body.addInertialForce(q, v, inertial);
  // Each stencil gives its own estimate of both; the best agreement counts (see derivativeError).
  const double k = motionStep(q, v);
  double weightError = INFINITY, inertialError = INFINITY;
  for (const Stencil stencil : {Stencil::Central, Stencil::Forward, Stencil::Backward}) {
    Eigen::VectorXd expectedWeight(n), expectedInertial(n);
    for (Eigen::Index j = 0; j < n; ++j) {
      const auto along = [&](double e) {
        Eigen::VectorXd moved = q;
        moved[j] += e;
        return moved;
      };
      expectedWeight[j] =
          g.dot(difference([&](double e) -> Eigen::MatrixXd { return body.massMoment(along(e)); }, h, stencil).col(0));
      expectedInertial[j] = difference([&](double e) { return Eigen::MatrixXd::Constant(1, 1, T(along(e))); }, h,
                                       stencil)(0, 0);
    }
    expectedInertial -= difference([&](double e) -> Eigen::MatrixXd { return M(q + e * v); }, k, stencil) * v;
    weightError = std::min(weightError, mixedError(weight, expectedWeight));
    inertialError = std::min(inertialError, mixedError(inertial, expectedInertial));
  }
  worst = std::max({worst, weightError, inertialError});

  std::vector<Site> sites;
  for (int i = 0; i < body.pointCount(); ++i) sites.emplace_back(i);
  if (body.hasFrame()) sites.emplace_back(Eigen::Vector2d(0.3, -0.7));
  for (const Site& site : sites) {
    PointKinematics kinematics;
    body.pointKinematics(site, q, v, kinematics);
    Eigen::VectorXd force = Eigen::VectorXd::Zero(n);
    body.addPointForce(site, f, q, force);
    worst = std::max(worst, mixedError(force, kinematics.jacobian.transpose() * f));
  }
  return worst;
}

}  // namespace

double DerivativeAuditResult::worst() const {
  return std::max({jacobian, velocity, jacobianDot, acceleration, massTerms});
}

AuditVerdict DerivativeAuditResult::verdict() const {
  if (worst() < kDerivativeAuditTolerance) return AuditVerdict::Pass;
  return worst() > kResolvedFactor * spread ? AuditVerdict::Wrong : AuditVerdict::CannotAudit;
}

namespace {

LocalState localState(const ConstraintInput& input) {
  const int d = input.dimension, w = d + 1;
  const auto count = static_cast<Eigen::Index>(input.positions.size());
  LocalState s{input.time, d, Eigen::VectorXd(count * w), Eigen::VectorXd(count * w)};
  for (Eigen::Index k = 0; k < count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    s.x.segment(k * w, d) = input.positions[i].head(d);
    s.xDot.segment(k * w, d) = input.velocities[i].head(d);
    s.x[k * w + d] = input.angles.empty() ? 0.0 : input.angles[i];
    s.xDot[k * w + d] = input.angularVelocities.empty() ? 0.0 : input.angularVelocities[i];
  }
  return s;
}

// Column j of J by the central difference of C in coordinate j.
Eigen::MatrixXd differencedJacobian(const Constraint& constraint, const LocalState& s) {
  const double h = coordinateStep(s.x);
  Eigen::MatrixXd J(constraint.rows(), s.x.size());
  for (Eigen::Index j = 0; j < s.x.size(); ++j) {
    J.col(j) = difference([&](double e) -> Eigen::MatrixXd {
      LocalState moved = s;
      moved.x[j] += e;
      return evaluate(constraint, moved).C;
    }, h, Stencil::Central);
  }
  return J;
}

// The local state of a constraint's points at the model's state, with their velocities, or with
// `probe` velocities in [−1, 1] if given (so that J̇ is exercised even for a model at rest).
struct ModelPoints {
  std::vector<Eigen::Vector3d> positions, velocities;
  std::vector<double> angles, angularVelocities;
  ConstraintInput input(const Model& model) const {
    return {model.time(), model.dimension(), positions, velocities, angles, angularVelocities};
  }
};

ModelPoints modelPoints(const Model& model, ConstraintId id, const Eigen::VectorXd* probe) {
  ModelPoints p;
  PointKinematics k;
  for (const BodyPoint& point : model.constraint(id).points()) {
    model.pointKinematics(point, model.state(), k);
    const auto at = 4 * static_cast<Eigen::Index>(p.positions.size());
    p.positions.push_back(k.position);
    p.angles.push_back(k.oriented ? k.angle : 0.0);
    p.velocities.push_back(probe ? padTo3d(probe->segment(at, model.dimension())) : k.velocity);
    p.angularVelocities.push_back(probe ? (*probe)[at + 3] : (k.oriented ? k.angularVelocity : 0.0));
  }
  return p;
}

}  // namespace

DerivativeAuditResult auditConstraint(const Constraint& constraint, const ConstraintInput& input) {
  const LocalState s = localState(input);
  const Evaluation at = evaluate(constraint, s);
  const double h = coordinateStep(s.x);
  const double k = motionStep(s.x, s.xDot);

  // A motor row has no position (C ≡ 0), only a rate: its J is checked against its Ċ = J ẋ
  // instead of against differences of C.
  std::vector<Eigen::Index> positional, motors;
  for (int r = 0; r < constraint.rows(); ++r) (constraint.rowKind(r) == RowKind::Motor ? motors : positional).push_back(r);
  const auto positionalOf = [&](const Eigen::MatrixXd& m) -> Eigen::MatrixXd { return m(positional, Eigen::all); };

  DerivativeAuditResult result;
  result.spread = roundOffFloor(s.x);
  // J column by column, by differences of C in each coordinate.
  for (Eigen::Index j = 0; j < s.x.size(); ++j) {
    const auto C = [&](double e) -> Eigen::MatrixXd {
      LocalState moved = s;
      moved.x[j] += e;
      return positionalOf(evaluate(constraint, moved).C);
    };
    keepWorse(result.jacobian, result.spread, derivativeError(positionalOf(at.J.col(j)), C, h));
  }
  // Ċ = J ẋ + ∂C/∂t: the total derivative of C along the motion (with ẍ = 0).
  keepWorse(result.velocity, result.spread, derivativeError(positionalOf(at.Cdot), [&](double e) -> Eigen::MatrixXd {
    return positionalOf(evaluate(constraint, alongMotion(s, e)).C);
  }, k));
  if (!motors.empty()) {
    const Eigen::VectorXd rate = at.J * s.xDot;
    result.jacobian = std::max(result.jacobian, mixedError(at.Cdot(motors), rate(motors)));
  }
  // J̇ and C̈ = J̇ ẋ + Ctt (with ẍ = 0) along the motion.
  keepWorse(result.jacobianDot, result.spread, derivativeError(at.Jdot, [&](double e) -> Eigen::MatrixXd {
    return evaluate(constraint, alongMotion(s, e)).J;
  }, k));
  keepWorse(result.acceleration, result.spread, derivativeError(at.Jdot * s.xDot + at.Ctt, [&](double e) -> Eigen::MatrixXd {
    return evaluate(constraint, alongMotion(s, e)).Cdot;
  }, k));
  return result;
}

DerivativeAuditResult auditConstraint(const Model& model, ConstraintId id) {
  const Constraint& constraint = model.constraint(id);
  const Eigen::VectorXd random = probeVector(12345u + static_cast<std::uint32_t>(model.indexOf(id)),
                                             4 * static_cast<Eigen::Index>(constraint.points().size()));
  const ModelPoints moving = modelPoints(model, id, nullptr), probed = modelPoints(model, id, &random);
  return worseOf(auditConstraint(constraint, moving.input(model)), auditConstraint(constraint, probed.input(model)));
}

ConstraintValues evaluateAtModelState(const Model& model, ConstraintId id) {
  const Evaluation at = evaluate(model.constraint(id), localState(modelPoints(model, id, nullptr).input(model)));
  return {at.C, at.Cdot};
}

JacobianComparison compareJacobian(const Model& model, ConstraintId id) {
  const Constraint& constraint = model.constraint(id);
  const LocalState s = localState(modelPoints(model, id, nullptr).input(model));
  return {evaluate(constraint, s).J, differencedJacobian(constraint, s)};
}

// A point's position with its frame angle appended (zero for a point without a frame), and
// the matching rows of the Jacobians, so one audit covers both: x̂ = (x, φ)  [4].
struct Stacked {
  Eigen::Vector4d position, velocity;
  Eigen::MatrixXd jacobian, jacobianDot;  // [4 × n_b]
};

Stacked stacked(const PointKinematics& k, Eigen::Index n) {
  Stacked s{Eigen::Vector4d::Zero(), Eigen::Vector4d::Zero(), Eigen::MatrixXd::Zero(4, n),
            Eigen::MatrixXd::Zero(4, n)};
  s.position.head<3>() = k.position;
  s.velocity.head<3>() = k.velocity;
  s.jacobian.topRows(3) = k.jacobian;
  s.jacobianDot.topRows(3) = k.jacobianDot;
  if (k.oriented) {
    s.position[3] = k.angle;
    s.velocity[3] = k.angularVelocity;
    s.jacobian.row(3) = k.angleJacobian;
    s.jacobianDot.row(3) = k.angleJacobianDot;
  }
  return s;
}

DerivativeAuditResult auditBody(const Body& body, const Site& site, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v) {
  if (site.index < 0 || site.index >= body.pointCount()) {
    throw std::invalid_argument("auditBody: the " + std::string(body.type()) + " has no point " +
                                std::to_string(site.index));
  }
  if (q.size() != body.coordinateCount() || v.size() != q.size()) {
    throw std::invalid_argument("auditBody: q and v must have the body's " +
                                std::to_string(body.coordinateCount()) + " coordinates");
  }
  const auto at = [&](const Eigen::VectorXd& coordinates) {
    PointKinematics k;
    body.pointKinematics(site, coordinates, v, k);
    return stacked(k, q.size());
  };
  const Stacked here = at(q);
  const double h = coordinateStep(q);
  const double k = motionStep(q, v);

  DerivativeAuditResult result;
  result.spread = roundOffFloor(q);
  for (Eigen::Index j = 0; j < q.size(); ++j) {
    const auto x = [&](double e) -> Eigen::MatrixXd {
      Eigen::VectorXd moved = q;
      moved[j] += e;
      return at(moved).position;
    };
    keepWorse(result.jacobian, result.spread, derivativeError(here.jacobian.col(j), x, h));
  }
  keepWorse(result.velocity, result.spread,
            derivativeError(here.velocity, [&](double e) -> Eigen::MatrixXd { return at(q + e * v).position; }, k));
  keepWorse(result.jacobianDot, result.spread,
            derivativeError(here.jacobianDot, [&](double e) -> Eigen::MatrixXd { return at(q + e * v).jacobian; }, k));
  keepWorse(result.acceleration, result.spread,
            derivativeError(here.jacobianDot * v, [&](double e) -> Eigen::MatrixXd { return at(q + e * v).velocity; }, k));
  result.massTerms = massTermsError(body, q, v);
  return result;
}

DerivativeAuditResult auditBody(const Model& model, BodyId id) {
  const Body& body = model.body(id);
  const Eigen::VectorXd q = model.coordinates(id);
  const Eigen::VectorXd probe = probeVector(777u + static_cast<std::uint32_t>(model.indexOf(id)), q.size());
  DerivativeAuditResult worst;
  // Every point, and for a body with a frame also a site off its origin (as in massTermsError).
  std::vector<Site> sites;
  for (int i = 0; i < body.pointCount(); ++i) sites.emplace_back(i);
  if (body.hasFrame()) sites.emplace_back(Eigen::Vector2d(0.3, -0.7));
  for (const Site& site : sites) {
    for (const Eigen::VectorXd& v : {model.velocities(id), probe}) {
      worst = worseOf(worst, auditBody(body, site, q, v));
    }
  }
  return worst;
}

}  // namespace tinkertoy
