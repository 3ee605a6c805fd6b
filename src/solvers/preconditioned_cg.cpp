#include "tinkertoy/solvers/preconditioned_cg.hpp"

#include <cmath>

#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

CgResult preconditionedConjugateGradient(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                         Preconditioner& M, double tolerance, int cap, CgScratch& s,
                                         CgPatience patience) {
  const Eigen::Index m = b.size();
  if (x.size() != m) x.setZero(m);
  const double bNorm = b.norm();
  // Beyond about 1e154 an entry's square, and so ‖b‖, overflows: the target would be infinite and
  // CG would stop before its first step. Solve A (x/s) = b/s instead, with s a power of two so
  // that scaling loses nothing.
  if (std::isinf(bNorm) && b.allFinite()) {
    const int exponent = std::ilogb(b.cwiseAbs().maxCoeff());
    const Eigen::VectorXd scaled = b * std::ldexp(1.0, -exponent);
    x *= std::ldexp(1.0, -exponent);
    const CgResult r = preconditionedConjugateGradient(A, scaled, x, M, tolerance, cap, s, patience);
    x *= std::ldexp(1.0, exponent);
    return r;
  }
  if (bNorm == 0.0) {
    x.setZero();
    return {0, 0.0, true};
  }
  s.r.resize(m);
  s.z.resize(m);
  s.p.resize(m);
  s.Ap.resize(m);
  const double target = tolerance * bNorm;

  A.apply(x, s.Ap);
  s.r = b - s.Ap;
  M.apply(s.r, s.z);
  s.p = s.z;
  double rz = s.r.dot(s.z);
  const double firstNorm = s.r.norm();
  int iterations = 0;
  // Stagnation: in exact arithmetic CG is done within m iterations; m + 50 more without the
  // residual falling by 1 % mean round-off has the last word, however far the cap (a user's cap of
  // 1e9 with a tolerance no double resolves would otherwise spin for hours).
  const Eigen::Index window = m + 50;
  double best = firstNorm;
  Eigen::Index sinceBest = 0;
  for (double rNorm = firstNorm; iterations < cap && rNorm > target; rNorm = s.r.norm()) {
    if (rNorm < 0.99 * best) {
      best = rNorm;
      sinceBest = 0;
    } else if (++sinceBest > window) {
      break;
    }
    if (patience == CgPatience::UntilTooSlow && iterations >= 2) {
      // The mean reduction per iteration so far, ρ, predicts log(target/‖r‖)/log ρ more.
      const double rate = std::pow(rNorm / firstNorm, 1.0 / iterations);
      if (!(rate < 1.0) || iterations + std::log(target / rNorm) / std::log(rate) > cap) break;
    }
    A.apply(s.p, s.Ap);
    const double curvature = s.p.dot(s.Ap);
    if (!(curvature > 0.0)) break;  // p lies in A's null space: nothing more to gain
    const double alpha = rz / curvature;
    x += alpha * s.p;
    s.r -= alpha * s.Ap;
    M.apply(s.r, s.z);
    const double rzNext = s.r.dot(s.z);
    s.p = s.z + (rzNext / rz) * s.p;
    rz = rzNext;
    ++iterations;
  }
  const double residual = relativeResidual(A, b, x, s.Ap);
  return {iterations, residual, residual <= tolerance};
}

}  // namespace tinkertoy
