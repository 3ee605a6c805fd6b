#include "tinkertoy/solvers/simplicial_ldlt.hpp"

extern "C" {
#include <suitesparse/ldl.h>
}

#include <algorithm>
#include <stdexcept>
#include <string>

#include "solvers/constraint_matrix_assembly.hpp"
#include "tinkertoy/archive/state_archive.hpp"
#include "solvers/fill_reducing_ordering.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

namespace {

// A pivot below this fraction of its row's diagonal entry means a redundant row.
constexpr double kSingularPivot = 1e-12;

}  // namespace

SimplicialLdlt::SimplicialLdlt() : assembly_(std::make_unique<ConstraintMatrixAssembly>()) {}
SimplicialLdlt::~SimplicialLdlt() = default;

void SimplicialLdlt::analyze(const ConstraintMatrix& A) {
  assembly_->analyze(A.jacobian());
  m_ = static_cast<int>(A.size());
  const auto m = static_cast<std::size_t>(m_);
  auto lower = assembly_->pattern();
  pivotRow_ = fillReducingOrdering(lower).pivotRow;
  std::vector<int> position(m);
  for (std::size_t k = 0; k < m; ++k) position[static_cast<std::size_t>(pivotRow_[k])] = static_cast<int>(k);
  assembly_->layOut(position, ConstraintMatrixAssembly::Triangle::Upper);  // what LDL reads
  columnStarts_.assign(assembly_->columnStarts().begin(), assembly_->columnStarts().end());
  rowIndices_.assign(assembly_->rowIndices().begin(), assembly_->rowIndices().end());
  values_.assign(assembly_->nonZeros(), 0.0);

  Lp_.resize(m + 1);
  parent_.resize(m);
  Lnz_.resize(m);
  flag_.resize(m);
  pattern_.resize(m);
  D_.resize(m);
  Y_.resize(m);
  ldl_symbolic(m_, columnStarts_.data(), rowIndices_.data(), Lp_.data(), parent_.data(), Lnz_.data(), flag_.data(),
               nullptr, nullptr);
  Li_.resize(static_cast<std::size_t>(Lp_[m]));
  Lx_.resize(static_cast<std::size_t>(Lp_[m]));
  permuted_.resize(m_);
  cost_ = {};
  for (const int c : Lnz_) {
    cost_.factorize += static_cast<double>(c) * static_cast<double>(c + 3);
    cost_.solve += 4.0 * static_cast<double>(c) + 1.0;
  }
}

// P A Pᵀ = L D Lᵀ: pivot k belongs to row pivotRow_[k] of A. LDL stops at an exact zero pivot;
// a redundant row usually leaves a round-off-sized one instead, so every pivot is compared with
// its row's diagonal entry A_ii, in elimination order.
void SimplicialLdlt::factorize(const ConstraintMatrix& A) {
  if (m_ == 0) return;
  assembly_->assemble(A, values_.data());
  const int done = ldl_numeric(m_, columnStarts_.data(), rowIndices_.data(), values_.data(), Lp_.data(), parent_.data(),
                               Lnz_.data(), Li_.data(), Lx_.data(), D_.data(), Y_.data(), pattern_.data(), flag_.data(),
                               nullptr, nullptr);
  for (int k = 0; k < done + (done < m_ ? 1 : 0); ++k) {
    const auto pivot = static_cast<std::size_t>(k);
    const int row = pivotRow_[pivot];
    const double scale = values_[assembly_->diagonal(row)];
    if (k == done || !(D_[pivot] > kSingularPivot * scale)) {
      throw SingularSystemError(row);
    }
  }
}

bool SimplicialLdlt::factoredDiagonal(Eigen::VectorXd& d) const {
  d.resize(m_);
  for (int row = 0; row < m_; ++row) d[row] = values_[assembly_->diagonal(row)];
  return true;
}

void SimplicialLdlt::solveInPlace(Eigen::VectorXd& x) {
  if (m_ == 0) return;
  for (int k = 0; k < m_; ++k) permuted_[k] = x[pivotRow_[static_cast<std::size_t>(k)]];
  ldl_lsolve(m_, permuted_.data(), Lp_.data(), Li_.data(), Lx_.data());
  ldl_dsolve(m_, permuted_.data(), D_.data());
  ldl_ltsolve(m_, permuted_.data(), Lp_.data(), Li_.data(), Lx_.data());
  for (int k = 0; k < m_; ++k) x[pivotRow_[static_cast<std::size_t>(k)]] = permuted_[k];
}

void SimplicialLdlt::factorIdentity() {
  std::fill(values_.begin(), values_.end(), 0.0);
  for (int row = 0; row < m_; ++row) values_[assembly_->diagonal(row)] = 1.0;
  ldl_numeric(m_, columnStarts_.data(), rowIndices_.data(), values_.data(), Lp_.data(), parent_.data(), Lnz_.data(),
              Li_.data(), Lx_.data(), D_.data(), Y_.data(), pattern_.data(), flag_.data(), nullptr, nullptr);
}

void SimplicialLdlt::serialize(StateArchive& archive) {
  if (archive.reading()) factorIdentity();
  archive.numbers(Lx_, Lx_.size());
  archive.numbers(D_, D_.size());
}

}  // namespace tinkertoy
