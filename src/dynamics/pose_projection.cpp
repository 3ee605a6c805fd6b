#include "tinkertoy/dynamics/pose_projection.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "dynamics/newton_line_search.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"

namespace tinkertoy {

namespace {

constexpr auto kJacobian = ConstraintSystem::Evaluation::WithoutJacobianDot;

// Whether row r takes part at the evaluated pose: equalities always, inequalities when violated.
bool takesPart(const ConstraintSystem& system, Eigen::Index r) {
  switch (system.kinds()[static_cast<std::size_t>(r)]) {
    case RowKind::Equality:
      return true;
    case RowKind::Inequality:
      return system.value()[r] < 0.0;
    case RowKind::Motor:
    case RowKind::Spring:
      break;
  }
  return false;
}

}  // namespace

ProjectionResult projectPose(Model& model, std::span<const BodyId> preferred, const ProjectionSettings& settings) {
  ConstraintSystem system;
  system.build(model);
  const Eigen::Index m = system.rows();
  if (m == 0) return {};
  const double time = model.time();
  const Eigen::VectorXd v = model.v();
  Eigen::VectorXd q = model.q();
  InverseMass inverseMass;
  inverseMass.build(model);
  inverseMass.update(model, q);
  BlockDiagonalMatrix W = inverseMass.matrix();
  for (const BodyId body : preferred) {
    if (!model.contains(body)) continue;
    const std::size_t block = model.indexOf(body);
    if (W.blocks()[block].diagonal) {
      W.diagonalBlock(block) *= kPreferredWeight;
    } else {
      W.denseBlock(block) *= kPreferredWeight;
    }
  }
  const auto evaluate = [&](const Eigen::VectorXd& at) { system.evaluate({time, at, v}, kJacobian); };
  std::vector<char> excluded(static_cast<std::size_t>(m), 0);
  const auto violation = [&] {
    double worst = 0.0, sum = 0.0;
    for (Eigen::Index r = 0; r < m; ++r) {
      const double c = takesPart(system, r) ? std::abs(system.value()[r]) : 0.0;
      if (!(c <= worst)) worst = c;  // a NaN wins
      sum += c * c;
    }
    return std::pair{worst, 0.5 * sum};
  };
  const auto merit = [&] { return violation().second; };

  DirectSolver solver(FactorizationKind::Automatic, SolverSettings{}.regularization, 0);
  ConstraintMatrix::Workspace workspace;
  solver.analyze(ConstraintMatrix(system.jacobian(), W, nullptr, {}, &workspace));
  Eigen::VectorXd rhs(m), delta(m), JtDelta, step, start;
  NewtonLineSearch search;
  ProjectionResult result;
  evaluate(q);
  result.error = violation().first;
  while (result.error > settings.tolerance && result.iterations < settings.maxIterations) {
    for (Eigen::Index r = 0; r < m; ++r) {
      const bool part = takesPart(system, r);
      excluded[static_cast<std::size_t>(r)] = !part;
      rhs[r] = part ? -system.value()[r] : 0.0;
    }
    delta.setZero();
    solver.solve(ConstraintMatrix(system.jacobian(), W, nullptr, excluded, &workspace), rhs, delta);
    system.jacobian().multiplyTransposed(delta, JtDelta);
    W.multiply(JtDelta, step);
    const double before = merit();
    start = q;
    q += step;
    evaluate(q);
    ++result.iterations;
    if (!NewtonLineSearch::backtrack(q, start, step, before, evaluate, merit)) {
      result.stalled = true;
      break;
    }
    result.error = violation().first;
    if (result.error > settings.tolerance && search.plateau(merit())) {
      result.stalled = true;
      break;
    }
  }
  result.converged = result.error <= settings.tolerance;
  if (!q.allFinite()) return result;  // nothing written: the model keeps its pose
  for (std::size_t b = 0; b < model.bodyCount(); ++b) {
    const BodyId body = model.bodyAt(b);
    model.setCoordinates(body, model.slice(q, b));
  }
  return result;
}

}  // namespace tinkertoy
