#include "tinkertoy/dynamics/derivative_audit.hpp"

#include <algorithm>
#include <vector>

#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

namespace {

// One evaluation of a constraint, with its blocks side by side: J = [J_0 J_1 ...].
struct Evaluation {
  Eigen::VectorXd C, Cdot, Ctt;
  Eigen::MatrixXd J, Jdot;  // [rows × (points · dimension)]
};

// The local state, with positions and velocities flattened to [points · dimension].
struct LocalState {
  double time;
  int dimension;
  Eigen::VectorXd x, xDot;
};

Evaluation evaluate(const Constraint& constraint, const LocalState& s) {
  const int d = s.dimension;
  const auto count = static_cast<std::size_t>(s.x.size() / d);
  const int rows = constraint.rows();
  std::vector<Eigen::Vector3d> positions(count), velocities(count);
  for (std::size_t k = 0; k < count; ++k) {
    positions[k] = readPoint(s.x, k * d, d);
    velocities[k] = readPoint(s.xDot, k * d, d);
  }
  Evaluation e{Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows),
               {}, {}};
  // Gradients are stored point by point: row r of G_k is G[k * rows + r].
  const std::size_t size = count * static_cast<std::size_t>(rows);
  std::vector<Eigen::Vector3d> G(size, Eigen::Vector3d::Zero()), Gdot(size, Eigen::Vector3d::Zero());
  ConstraintOutput output(e.C.data(), e.Cdot.data(), e.Ctt.data(), G.data(), Gdot.data(), rows);
  constraint.evaluate({s.time, d, positions, velocities}, output);
  const auto cols = static_cast<Eigen::Index>(count) * d;
  e.J.resize(rows, cols);
  e.Jdot.resize(rows, cols);
  for (std::size_t k = 0; k < count; ++k) {
    for (int r = 0; r < rows; ++r) {
      const std::size_t at = k * static_cast<std::size_t>(rows) + static_cast<std::size_t>(r);
      e.J.block(r, static_cast<Eigen::Index>(k) * d, 1, d) = G[at].head(d).transpose();
      e.Jdot.block(r, static_cast<Eigen::Index>(k) * d, 1, d) = Gdot[at].head(d).transpose();
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

DerivativeAuditResult worseOf(const DerivativeAuditResult& a, const DerivativeAuditResult& b) {
  return {std::max(a.jacobian, b.jacobian), std::max(a.velocity, b.velocity),
          std::max(a.jacobianDot, b.jacobianDot), std::max(a.acceleration, b.acceleration)};
}

// The state moved by ±ε along the motion: x ± ε ẋ, t ± ε.
LocalState alongMotion(const LocalState& s, double epsilon) {
  return {s.time + epsilon, s.dimension, s.x + epsilon * s.xDot, s.xDot};
}

}  // namespace

double DerivativeAuditResult::worst() const {
  return std::max({jacobian, velocity, jacobianDot, acceleration});
}

DerivativeAuditResult auditConstraint(const Constraint& constraint, const ConstraintInput& input) {
  const int d = input.dimension;
  const auto count = static_cast<Eigen::Index>(input.positions.size());
  LocalState s{input.time, d, Eigen::VectorXd(count * d), Eigen::VectorXd(count * d)};
  for (Eigen::Index k = 0; k < count; ++k) {
    s.x.segment(k * d, d) = input.positions[static_cast<std::size_t>(k)].head(d);
    s.xDot.segment(k * d, d) = input.velocities[static_cast<std::size_t>(k)].head(d);
  }
  const Evaluation at = evaluate(constraint, s);
  const double h = 1e-6 * std::max(1.0, s.x.cwiseAbs().maxCoeff());

  // J by differences of C in each coordinate; ∂C/∂t by a difference in time.
  Eigen::MatrixXd J(at.J.rows(), at.J.cols());
  for (Eigen::Index j = 0; j < s.x.size(); ++j) {
    LocalState plus = s, minus = s;
    plus.x[j] += h;
    minus.x[j] -= h;
    J.col(j) = (evaluate(constraint, plus).C - evaluate(constraint, minus).C) / (2 * h);
  }
  LocalState later = s, earlier = s;
  later.time += h;
  earlier.time -= h;
  const Eigen::VectorXd Ct = (evaluate(constraint, later).C - evaluate(constraint, earlier).C) / (2 * h);

  // J̇ and C̈ (with ẍ = 0) by differences along the motion.
  const double k = 1e-6 / std::max(1.0, s.xDot.cwiseAbs().maxCoeff());
  const Evaluation ahead = evaluate(constraint, alongMotion(s, k));
  const Evaluation behind = evaluate(constraint, alongMotion(s, -k));

  DerivativeAuditResult result;
  result.jacobian = mixedError(at.J, J);
  result.velocity = mixedError(at.Cdot, at.J * s.xDot + Ct);
  result.jacobianDot = mixedError(at.Jdot, (ahead.J - behind.J) / (2 * k));
  result.acceleration = mixedError(at.Jdot * s.xDot + at.Ctt, (ahead.Cdot - behind.Cdot) / (2 * k));
  return result;
}

DerivativeAuditResult auditConstraint(const Model& model, ConstraintId id) {
  const Constraint& constraint = model.constraint(id);
  const int d = model.dimension();
  std::vector<Eigen::Vector3d> positions, velocities, probe;
  const Eigen::VectorXd random = probeVector(12345u + static_cast<std::uint32_t>(model.indexOf(id)),
                                             3 * static_cast<Eigen::Index>(constraint.points().size()));
  for (const BodyPoint& p : constraint.points()) {
    positions.push_back(padTo3d(model.position(p)));
    velocities.push_back(padTo3d(model.velocity(p)));
    probe.push_back(padTo3d(random.segment(3 * static_cast<Eigen::Index>(probe.size()), d)));
  }
  return worseOf(auditConstraint(constraint, {model.time(), d, positions, velocities}),
                 auditConstraint(constraint, {model.time(), d, positions, probe}));
}

DerivativeAuditResult auditBody(const Body& body, int point, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v) {
  PointKinematics at, k;
  body.pointKinematics(point, q, v, at);
  const double h = 1e-6 * std::max(1.0, q.cwiseAbs().maxCoeff());
  const Eigen::Index n = q.size();

  // J by central differences of x in each coordinate.
  Eigen::MatrixXd J(3, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    Eigen::VectorXd plus = q, minus = q;
    plus[j] += h;
    minus[j] -= h;
    body.pointKinematics(point, plus, v, k);
    const Eigen::Vector3d xPlus = k.position;
    body.pointKinematics(point, minus, v, k);
    J.col(j) = (xPlus - k.position) / (2 * h);
  }
  // J̇ and J̇ q̇ by differences along the motion q ± ε q̇ (with q̈ = 0, ẍ = J̇ q̇).
  const double e = 1e-6 / std::max(1.0, v.cwiseAbs().maxCoeff());
  body.pointKinematics(point, q + e * v, v, k);
  const Eigen::MatrixXd jacobianAhead = k.jacobian;
  const Eigen::Vector3d velocityAhead = k.velocity;
  body.pointKinematics(point, q - e * v, v, k);
  const Eigen::MatrixXd jacobianDot = (jacobianAhead - k.jacobian) / (2 * e);
  const Eigen::Vector3d acceleration = (velocityAhead - k.velocity) / (2 * e);

  DerivativeAuditResult result;
  result.jacobian = mixedError(at.jacobian, J);
  result.velocity = mixedError(at.velocity, at.jacobian * v);
  result.jacobianDot = mixedError(at.jacobianDot, jacobianDot);
  result.acceleration = mixedError(at.jacobianDot * v, acceleration);
  return result;
}

DerivativeAuditResult auditBody(const Model& model, BodyId id) {
  const Body& body = model.body(id);
  const Eigen::VectorXd q = model.coordinates(id);
  const Eigen::VectorXd probe = probeVector(777u + static_cast<std::uint32_t>(model.indexOf(id)), q.size());
  DerivativeAuditResult worst;
  for (int i = 0; i < body.pointCount(); ++i) {
    for (const Eigen::VectorXd& v : {model.velocities(id), probe}) {
      worst = worseOf(worst, auditBody(body, i, q, v));
    }
  }
  return worst;
}

}  // namespace tinkertoy
