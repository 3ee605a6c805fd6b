#include "tinkertoy/solvers/linear_solver.hpp"

#include "tinkertoy/solvers/conjugate_gradient.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"

#include <stdexcept>

namespace tinkertoy {

double relativeResidual(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                        const Eigen::VectorXd& x, Eigen::VectorXd& scratch) {
  const double bNorm = b.norm();
  if (bNorm == 0.0) return 0.0;
  A.apply(x, scratch);
  return (b - scratch).norm() / bNorm;
}

std::unique_ptr<LinearSolver> makeLinearSolver(const SolverSettings& settings) {
  switch (settings.kind) {
    case SolverKind::ConjugateGradient:
      return std::make_unique<ConjugateGradient>(settings.tolerance, settings.maxIterations);
    case SolverKind::SparseLdlt:
      return std::make_unique<DirectSolver>(settings.factorization, settings.regularization, settings.reuseIterations);
    case SolverKind::SequentialImpulses:
      break;
  }
  throw std::invalid_argument("sequential impulses are not a linear solver of J W Jᵀ");
}

std::string_view solverName(SolverKind kind) {
  switch (kind) {
    case SolverKind::ConjugateGradient:
      return "cg";
    case SolverKind::SparseLdlt:
      return "ldlt";
    case SolverKind::SequentialImpulses:
      break;
  }
  return "sequential";
}

std::optional<SolverKind> parseSolver(std::string_view name) {
  for (const SolverKind kind : {SolverKind::ConjugateGradient, SolverKind::SparseLdlt, SolverKind::SequentialImpulses}) {
    if (solverName(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace tinkertoy
