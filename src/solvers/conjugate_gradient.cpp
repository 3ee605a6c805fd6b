#include "tinkertoy/solvers/conjugate_gradient.hpp"

#include <cmath>
#include <stdexcept>

namespace tinkertoy {

ConjugateGradient::ConjugateGradient(double tolerance, int maxIterations, double regularization)
    : LinearSolver(regularization), tolerance_(tolerance), maxIterations_(maxIterations) {
  if (!(tolerance > 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("CG tolerance must be positive and finite");
  }
  if (maxIterations < 0) throw std::invalid_argument("CG iteration cap must not be negative");
}

void ConjugateGradient::analyzeLayout(const ConstraintMatrix& A) { jacobi_.inverseDiagonal.resize(A.size()); }

SolveStats ConjugateGradient::solveSystem(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                          double tolerance) {
  const Eigen::Index m = b.size();
  if (b.norm() == 0.0) {
    x.setZero(m);
    return {0, 0.0};
  }
  Eigen::VectorXd& d = jacobi_.inverseDiagonal;
  A.diagonal(d);
  for (Eigen::Index i = 0; i < m; ++i) d[i] = d[i] > 0.0 ? 1.0 / d[i] : 1.0;
  const int cap = maxIterations_ > 0 ? maxIterations_ : static_cast<int>(2 * m + 100);
  const CgResult r =
      preconditionedConjugateGradient(A, b, x, jacobi_, tolerance > 0.0 ? tolerance : tolerance_, cap, scratch_);
  return {r.iterations, r.residual};
}

}  // namespace tinkertoy
