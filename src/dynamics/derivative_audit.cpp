#include "tinkertoy/dynamics/derivative_audit.hpp"

#include <algorithm>
#include <vector>

#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

namespace {

// One evaluation of a constraint, with its blocks side by side: J = [J_0 J_1 ...].
struct Evaluation {
  Eigen::VectorXd C, Cdot, Ctt;
  Eigen::MatrixXd J, Jdot;  // [rows × (particles · dimension)]
};

// The local state, with positions and velocities flattened to [particles · dimension].
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
  std::vector<std::size_t> offsets(count);
  for (std::size_t k = 0; k < count; ++k) {
    positions[k] = readPoint(s.x, k * d, d);
    velocities[k] = readPoint(s.xDot, k * d, d);
    offsets[k] = k * static_cast<std::size_t>(rows * d);
  }
  Evaluation e{Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows),
               {}, {}};
  // Blocks are stored one after another, each rows × d row-major.
  std::vector<double> J(count * rows * d, 0.0), Jdot(count * rows * d, 0.0);
  ConstraintOutput output(e.C.data(), e.Cdot.data(), e.Ctt.data(), J.data(), Jdot.data(),
                          offsets.data(), d);
  constraint.evaluate({s.time, d, positions, velocities}, output);
  const auto cols = static_cast<Eigen::Index>(count) * d;
  e.J.resize(rows, cols);
  e.Jdot.resize(rows, cols);
  for (std::size_t k = 0; k < count; ++k) {
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < d; ++c) {
        const std::size_t at = offsets[k] + static_cast<std::size_t>(r * d + c);
        e.J(r, static_cast<Eigen::Index>(k) * d + c) = J[at];
        e.Jdot(r, static_cast<Eigen::Index>(k) * d + c) = Jdot[at];
      }
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
  const auto particles = constraint.particles();
  std::vector<Eigen::Vector3d> positions, velocities, probe;
  std::uint32_t seed = 12345u + static_cast<std::uint32_t>(model.indexOf(id));
  auto uniform = [&seed] {  // deterministic values in [−1, 1]
    seed = seed * 1664525u + 1013904223u;
    return static_cast<double>(seed >> 8) / static_cast<double>(1u << 23) - 1.0;
  };
  for (ParticleId p : particles) {
    positions.push_back(readPoint(model.q(), model.offsetOf(p), d));
    velocities.push_back(readPoint(model.v(), model.offsetOf(p), d));
    Eigen::Vector3d random(uniform(), uniform(), uniform());
    if (d == 2) random.z() = 0.0;
    probe.push_back(random);
  }
  const DerivativeAuditResult actual =
      auditConstraint(constraint, {model.time(), d, positions, velocities});
  const DerivativeAuditResult probed =
      auditConstraint(constraint, {model.time(), d, positions, probe});
  return {std::max(actual.jacobian, probed.jacobian), std::max(actual.velocity, probed.velocity),
          std::max(actual.jacobianDot, probed.jacobianDot),
          std::max(actual.acceleration, probed.acceleration)};
}

}  // namespace tinkertoy
