#include "tinkertoy/solvers/linear_solver.hpp"

#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/solvers/conjugate_gradient.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tinkertoy {

namespace {

std::string singularMessage(Eigen::Index row, SingularSystemError::Cause cause) {
  std::string message = "J W Jᵀ is singular at constraint row " + std::to_string(row);
  switch (cause) {
    case SingularSystemError::Cause::Redundant:
      return message + ": the row is redundant with others";
    case SingularSystemError::Cause::NoGradient:
      return message + ": the row has no gradient at this state (J = 0 there)";
    case SingularSystemError::Cause::NotFinite:
      break;
  }
  return message + ": the matrix is not finite there";
}

}  // namespace

SingularSystemError::SingularSystemError(Eigen::Index row, Cause cause)
    : std::runtime_error(singularMessage(row, cause)), row_(row), cause_(cause) {}

LinearSolver::LinearSolver(double regularization) : regularization_(regularization) {
  if (!(regularization >= 0.0) || !std::isfinite(regularization)) {
    throw std::invalid_argument("regularization must be finite and not negative");
  }
}

const ConstraintMatrix& LinearSolver::regularized(const ConstraintMatrix& A) {
  A.diagonal(shift_);  // diag(A), S included
  shift_ *= regularization_;
  if (const Eigen::VectorXd* S = A.shift()) shift_ += *S;
  regularized_.emplace(A.jacobian(), A.inverseMass(), &shift_, A.held(), A.workspace());
  return *regularized_;
}

// The Rayleigh quotient xᵀ A x / xᵀ D x = bᵀx / xᵀ D x of the exact solution is of the order of
// A's eigenvalues over its diagonal where x lies along regular directions, and falls toward
// s / d where it is dominated by a direction of eigenvalue s ≪ d: a part of b that A can meet
// only with an enormous x, the mark of a singular configuration.
void LinearSolver::analyze(const ConstraintMatrix& A) {
  ++analyses_;
  analyzeLayout(A);
  for (Eigen::VectorXd* v : {&shift_, &residual_, &correction_, &product_, &start_}) v->setZero(A.size());
  redundantLayout_ = false;
}

void LinearSolver::serialize(StateArchive& archive) {
  archive.flag(redundantLayout_);
  serializeSolver(archive);
}

bool LinearSolver::dominatedByNearNull(const ConstraintMatrix& A, const Eigen::VectorXd& b, const Eigen::VectorXd& x) {
  if (!x.allFinite()) return true;
  solvedDiagonal(A, shift_);
  const double weighted = x.cwiseAbs2().dot(shift_);
  return weighted > 0.0 && !(b.dot(x) >= kNearNullMargin * regularization_ * weighted);
}

SolveStats LinearSolver::solve(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                               double tolerance) {
  try {
    return solveWithDamping(A, b, x, tolerance);
  } catch (const SingularSystemError& e) {
    // Why the row's pivot vanished, from its diagonal entry A_ii = J_i W J_iᵀ (+ softness).
    A.diagonal(shift_);
    const double diagonal = shift_[e.row()];
    throw SingularSystemError(e.row(), !std::isfinite(diagonal) ? SingularSystemError::Cause::NotFinite
                                       : diagonal == 0.0       ? SingularSystemError::Cause::NoGradient
                                                               : SingularSystemError::Cause::Redundant);
  }
}

SolveStats LinearSolver::solveWithDamping(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                          double tolerance) {
  if (regularization_ == 0.0) return solveSystem(A, b, x, tolerance);
  start_ = x;
  SolveStats exact{};
  if (!redundantLayout_) {
    try {
      exact = solveSystem(A, b, x, tolerance);
      if (!dominatedByNearNull(A, b, x)) return exact;
    } catch (const SingularSystemError&) {  // a zero pivot: redundant rows, solved damped below
      redundantLayout_ = true;
    }
    x = start_;
  }
  SolveStats stats = solveDamped(A, b, x, tolerance);
  stats.iterations += exact.iterations;
  stats.factorized = stats.factorized || exact.factorized;
  return stats;
}

// Each refinement removes the fraction s / (s + ε d) of the error along an eigenvector of A
// with eigenvalue s (d its diagonal scale): nearly all of it where s ≫ ε d, next to nothing
// where s ≪ ε d. So the residual falls fast until only the near-null directions hold it, and
// the refinements stop there, the solution along them still damped.
SolveStats LinearSolver::solveDamped(const ConstraintMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                     double tolerance) {
  const ConstraintMatrix& damped = regularized(A);
  // The damped solve is off by about ε in the regular directions: solving it further than
  // that is wasted, the refinements take over from there.
  const double goal = tolerance > 0.0 ? tolerance : ownTolerance();
  SolveStats stats = solveSystem(damped, b, x, std::max(goal, regularization_));
  const double bNorm = b.norm();
  if (bNorm == 0.0) return stats;
  constexpr double kRoundOff = 1e-14;
  const double target = std::max(goal, kRoundOff) * bNorm;
  A.apply(x, product_);
  residual_ = b - product_;
  double residual = residual_.norm();
  for (int k = 0; k < kMostRefinements && residual > target; ++k) {
    correction_.setZero(b.size());
    const SolveStats step = solveSystem(damped, residual_, correction_, std::min(0.5, target / residual));
    stats.iterations += step.iterations;
    stats.factorized = stats.factorized || step.factorized;
    x += correction_;
    A.apply(x, product_);
    residual_ = b - product_;
    const double refined = residual_.norm();
    if (!(refined < 0.5 * residual)) {  // only near-null directions are left: keep them damped
      x -= correction_;
      break;
    }
    residual = refined;
  }
  return stats;
}

double relativeResidual(const ConstraintMatrix& A, const Eigen::VectorXd& b,
                        const Eigen::VectorXd& x, Eigen::VectorXd& scratch) {
  const double bNorm = b.norm();
  if (bNorm == 0.0) return 0.0;
  A.apply(x, scratch);
  scratch = b - scratch;
  const double rNorm = scratch.norm();
  // Entries beyond about 1e154 overflow a plain norm; the stable one scales them first.
  if (std::isinf(bNorm) || std::isinf(rNorm)) return scratch.stableNorm() / b.stableNorm();
  return rNorm / bNorm;
}

std::unique_ptr<LinearSolver> makeLinearSolver(const SolverSettings& settings) {
  switch (settings.kind) {
    case SolverKind::ConjugateGradient:
      return std::make_unique<ConjugateGradient>(settings.tolerance, settings.maxIterations, settings.regularization);
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
