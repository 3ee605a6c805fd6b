#include "tinkertoy/solvers/conjugate_gradient.hpp"

#include <cmath>
#include <stdexcept>

namespace tinkertoy {

ConjugateGradient::ConjugateGradient(double tolerance, int maxIterations)
    : tolerance_(tolerance), maxIterations_(maxIterations) {
  if (!(tolerance > 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("CG tolerance must be positive and finite");
  }
  if (maxIterations < 0) throw std::invalid_argument("CG iteration cap must not be negative");
}

void ConjugateGradient::analyze(const BlockSparseMatrix& J) {
  const Eigen::Index m = J.rows();
  r_.resize(m);
  z_.resize(m);
  p_.resize(m);
  Ap_.resize(m);
  inverseDiagonal_.resize(m);
}

// Preconditioned CG (Jacobi preconditioner M = diag A), warm-started from x:
//   r = b − A x,  z = M⁻¹ r,  p = z
//   repeat: α = rᵀz / pᵀAp,  x += α p,  r −= α Ap,  z = M⁻¹ r,  β = rᵀz_new / rᵀz_old,  p = z + β p
SolveStats ConjugateGradient::solve(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                                    Eigen::VectorXd& x) {
  const Eigen::Index m = b.size();
  if (r_.size() != m) analyze(A.jacobian());
  const double bNorm = b.norm();
  if (bNorm == 0.0) {
    x.setZero();
    return {0, 0.0};
  }
  A.diagonal(inverseDiagonal_);
  for (Eigen::Index i = 0; i < m; ++i) {
    inverseDiagonal_[i] = inverseDiagonal_[i] > 0.0 ? 1.0 / inverseDiagonal_[i] : 1.0;
  }
  const int cap = maxIterations_ > 0 ? maxIterations_ : static_cast<int>(2 * m + 100);
  const double target = tolerance_ * bNorm;

  A.apply(x, Ap_);
  r_ = b - Ap_;
  z_ = inverseDiagonal_.cwiseProduct(r_);
  p_ = z_;
  double rz = r_.dot(z_);
  int iterations = 0;
  while (iterations < cap && r_.norm() > target) {
    A.apply(p_, Ap_);
    const double curvature = p_.dot(Ap_);
    if (!(curvature > 0.0)) break;  // p lies in A's null space: nothing more to gain
    const double alpha = rz / curvature;
    x += alpha * p_;
    r_ -= alpha * Ap_;
    z_ = inverseDiagonal_.cwiseProduct(r_);
    const double rzNext = r_.dot(z_);
    p_ = z_ + (rzNext / rz) * p_;
    rz = rzNext;
    ++iterations;
  }
  // Report the true residual: the recursively updated r drifts from b − A x in long runs.
  return {iterations, relativeResidual(A, b, x, Ap_)};
}

}  // namespace tinkertoy
