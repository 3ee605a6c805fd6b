#include "tinkertoy/solvers/direct_solver.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "solvers/constraint_matrix_assembly.hpp"
#include "solvers/fill_reducing_ordering.hpp"
#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/solvers/simplicial_ldlt.hpp"
#include "tinkertoy/solvers/supernodal_cholesky.hpp"
#include "tinkertoy/solvers/tree_factorization.hpp"

namespace tinkertoy {

namespace {

constexpr int kMostReuseIterations = 30;
// The most solves that factor without trying the last factorization after reuse failed.
constexpr int kMostReuseBackoff = 8;

}  // namespace

DirectSolver::DirectSolver(FactorizationKind kind, double regularization, int reuseIterations)
    : LinearSolver(regularization), kind_(kind), reuseIterations_(reuseIterations) {
  if (reuseIterations < -1) throw std::invalid_argument("factorization reuse iterations must be −1 (automatic) or more");
}

void DirectSolver::FactorPreconditioner::apply(const Eigen::VectorXd& r, Eigen::VectorXd& z) {
  z = r;
  solver_.factorization_->solveInPlace(z);
}

void DirectSolver::analyzeLayout(const ConstraintMatrix& A) {
  if (!factorization_ || (kind_ == FactorizationKind::Automatic) || factorization_->kind() != kind_) {
    factorization_ = makeFactorization(kind_, A);
  }
  factorization_->analyze(A);
  factored_ = factoredLast_ = false;
  skipReuse_ = 0;
  reuseBackoff_ = 1;
  reuseTolerance_ = kReuseTolerance;
  if (reuseIterations_ >= 0) {
    reuseCap_ = reuseIterations_;
    return;
  }
  // One CG iteration: a solve with the factorization and a product J (W (Jᵀ p)), 2 flops per
  // entry of J each way, plus the vector updates. A reuse that takes k iterations saves
  // F − k·I; one that fails costs its iterations and the factorization anyway. Capped at half
  // of F / I, every success saves at least half a factorization, which pays for the failed
  // attempts as long as most attempts succeed (and the backoff stops trying when they do not).
  const FactorizationCost cost = factorization_->cost();
  const auto entries = static_cast<double>(A.jacobian().values().size());
  const double iteration = cost.solve + 4.0 * entries + 10.0 * static_cast<double>(A.size());
  reuseCap_ = iteration > 0.0
                  ? static_cast<int>(std::min<double>(kMostReuseIterations, 0.5 * cost.factorize / iteration))
                  : 0;
}

SolveStats DirectSolver::solveSystem(const ConstraintMatrix& M, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                     double tolerance) {
  const Eigen::Index m = b.size();
  if (m == 0) return {0, 0.0, false};
  if (!factorization_ || m != M.size()) throw std::logic_error("DirectSolver::solve before analyze()");
  if (x.size() != m) x.setZero(m);
  if (factored_ && reuseCap_ > 0 && skipReuse_ > 0) {
    --skipReuse_;  // the last attempt failed: factor without trying (see below)
  } else if (factored_ && reuseCap_ > 0) {
    const CgResult r = preconditionedConjugateGradient(M, b, x, preconditioner_, std::max(tolerance, reuseTolerance_),
                                                       reuseCap_, scratch_, CgPatience::UntilTooSlow);
    if (r.converged) {
      reuseBackoff_ = 1;
      factoredLast_ = false;
      return {r.iterations, r.residual, false};
    }
    // The matrix has moved too far for the factorization: the next solves likely find the same,
    // so the next reuseBackoff_ of them factor without trying (1, 2, 4, … solves).
    skipReuse_ = reuseBackoff_;
    reuseBackoff_ = std::min(2 * reuseBackoff_, kMostReuseBackoff);
  }
  factored_ = factoredLast_ = false;  // a failed factorization leaves nothing to reuse
  factorization_->factorize(M);
  factored_ = factoredLast_ = true;
  x = b;
  factorization_->solveInPlace(x);
  const double residual = relativeResidual(M, b, x, residual_);
  reuseTolerance_ = std::max(kReuseTolerance, 10.0 * residual);
  return {1, residual, true};
}

void DirectSolver::solvedDiagonal(const ConstraintMatrix& A, Eigen::VectorXd& d) const {
  if (!(factoredLast_ && factorization_->factoredDiagonal(d))) A.diagonal(d);
}

void DirectSolver::serializeSolver(StateArchive& archive) {
  archive.integer(skipReuse_);
  archive.integer(reuseBackoff_);
  archive.number(reuseTolerance_);
  archive.flag(factored_);
  if (archive.reading() && !(skipReuse_ >= 0 && skipReuse_ <= kMostReuseBackoff && reuseBackoff_ >= 1 &&
                             reuseBackoff_ <= kMostReuseBackoff && reuseTolerance_ >= kReuseTolerance &&
                             std::isfinite(reuseTolerance_))) {
    throw StateError("the state file holds a factorization reuse state no solve leaves");
  }
  if (factored_) factorization_->serialize(archive);
}

namespace {

// Supernodes pay for their dense kernels once the factor is large or its columns are long:
// measured on this project's scenarios (bench/RESULTS.md, factorize/*), the simplicial
// factorization wins up to a cloth of 64 × 64 (5e6 flops) and the supernodal one from the joint
// grid of 100 × 100 (1.6e8 flops) up. The width, flops over nnz(L) (about the mean length of a
// column below the diagonal, weighted by its cost), is what CHOLMOD switches on (at 40): the
// exact mode's contact matrix of a 20-row pyramid (8e6 flops, width 78: each manifold's rows
// share one pattern) factors 1.9× faster supernodal, while the joint grid of 32 × 32 (5e6 flops,
// width 43.5) still factors 5 % faster and solves 28 % faster simplicial.
constexpr double kSupernodalFlops = 3e7;
constexpr double kSupernodalWidth = 50.0;
// The tree factorization works node by node on blocks of a few entries, about ten times slower
// per flop than the sparse factorizations' column loops (factorize/tree/chain-* against
// factorize/simplicial/chain-*); it is chosen where that still wins: a body shared by many
// constraints (a star), whose J W Jᵀ is dense.
constexpr double kTreeOverhead = 10.0;

FactorizationKind automaticKind(const ConstraintMatrix& A) {
  ConstraintMatrixAssembly assembly;
  assembly.analyze(A.jacobian());
  auto lower = assembly.pattern();
  const FillReducingOrdering ordering = fillReducingOrdering(lower);
  const double sparse = ordering.flops;
  const std::optional<FactorizationCost> tree = TreeFactorization::estimate(A);
  if (tree && kTreeOverhead * tree->factorize < sparse) return FactorizationKind::Tree;
  const double width = sparse / std::max(ordering.factorEntries, 1.0);
  return sparse > kSupernodalFlops || width >= kSupernodalWidth ? FactorizationKind::Supernodal
                                                                 : FactorizationKind::Simplicial;
}

}  // namespace

std::unique_ptr<Factorization> makeFactorization(FactorizationKind kind, const ConstraintMatrix& A) {
  switch (kind) {
    case FactorizationKind::Automatic:
      return makeFactorization(automaticKind(A), A);
    case FactorizationKind::Simplicial:
      return std::make_unique<SimplicialLdlt>();
    case FactorizationKind::Supernodal:
      return std::make_unique<SupernodalCholesky>();
    case FactorizationKind::Tree:
      return std::make_unique<TreeFactorization>();
  }
  throw std::invalid_argument("unknown factorization");
}

}  // namespace tinkertoy
