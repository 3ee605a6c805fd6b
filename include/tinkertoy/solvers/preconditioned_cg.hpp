// The preconditioned conjugate-gradient iteration on A x = b, A = J W Jᵀ + S symmetric positive
// (semi)definite, shared by the two solvers that iterate:
//
//   ConjugateGradient   M = diag(A), Jacobi (Witkin, "Constrained Dynamics", §4.4)
//   DirectSolver        M = a factorization of A at an earlier state (a stale factor: exact for
//                       the matrix it was computed from, close for the matrix of now)
//
// Starting from the x it is given (a warm start):
//   r = b − A x,  z = M⁻¹ r,  p = z
//   repeat:  α = rᵀz / pᵀAp,  x += α p,  r −= α Ap,  z = M⁻¹ r,  β = rᵀz_new / rᵀz_old,  p = z + β p
// until ‖r‖ ≤ tolerance ‖b‖ or `cap` iterations; with CgPatience::UntilTooSlow, also as soon as
// the mean residual reduction per iteration so far (from the third iteration on) predicts more
// than `cap` iterations in all. A direction of zero curvature (pᵀAp ≤ 0: p in
// the null space of a singular A) ends the iteration with the best x so far. The residual
// reported is the true ‖b − A x‖ / ‖b‖ of the returned x: the recursively updated r drifts.
//
//   CgScratch scratch;
//   CgResult r = preconditionedConjugateGradient(A, b, x, jacobi, 1e-10, 500, scratch);
#pragma once

#include <Eigen/Core>

#include "tinkertoy/solvers/constraint_matrix.hpp"

namespace tinkertoy {

// z = M⁻¹ r for a symmetric positive definite M that approximates A.
class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  // r, z: [m], different vectors.
  virtual void apply(const Eigen::VectorXd& r, Eigen::VectorXd& z) = 0;
};

// Work vectors [m], sized on first use and kept, so a solve does not allocate.
struct CgScratch {
  Eigen::VectorXd r, z, p, Ap;
};

struct CgResult {
  int iterations = 0;
  double residual = 0.0;   // true ‖b − A x‖ / ‖b‖ of the returned x, 0 when b = 0
  bool converged = false;  // residual ≤ tolerance
};

// Whether CG runs to its cap, or gives up once it predicts missing it (a caller with a cheaper
// way to an exact solve than a slow CG).
enum class CgPatience { UntilCap, UntilTooSlow };

CgResult preconditionedConjugateGradient(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                         Preconditioner& M, double tolerance, int cap, CgScratch& scratch,
                                         CgPatience patience = CgPatience::UntilCap);

}  // namespace tinkertoy
