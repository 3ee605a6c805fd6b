#include "tinkertoy/solvers/linear_solver.hpp"

#include "tinkertoy/solvers/conjugate_gradient.hpp"
#include "tinkertoy/solvers/sparse_ldlt.hpp"

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
      return std::make_unique<SparseLdlt>(settings.regularization);
  }
  throw std::invalid_argument("unknown solver kind");
}

std::string_view solverName(SolverKind kind) {
  return kind == SolverKind::ConjugateGradient ? "cg" : "ldlt";
}

}  // namespace tinkertoy
