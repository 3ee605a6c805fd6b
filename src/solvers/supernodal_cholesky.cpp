#include "tinkertoy/solvers/supernodal_cholesky.hpp"

#include <suitesparse/cholmod.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "solvers/constraint_matrix_assembly.hpp"
#include "solvers/fill_reducing_ordering.hpp"
#include "solvers/recycling_pool.hpp"
#include "solvers/single_thread_scope.hpp"
#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

namespace {

// A pivot below this fraction of its row's diagonal entry means a redundant row.
constexpr double kSingularPivot = 1e-12;

[[noreturn]] void throwSingular(int row) {
  throw SingularSystemError(row);
}

}  // namespace

struct SupernodalCholesky::Cholmod {
  RecyclingPool pool;  // what a factorization or solve allocates, for the next one
  cholmod_common common{};
  ConstraintMatrixAssembly assembly;
  cholmod_sparse* A = nullptr;  // the lower triangle of P A Pᵀ, values assembled in place
  cholmod_factor* L = nullptr;
  cholmod_dense *B = nullptr, *X = nullptr, *Y = nullptr, *E = nullptr;  // a solve's vectors

  Cholmod() {
    RecyclingPool::install();
    cholmod_start(&common);
    common.print = 0;  // failures come back as exceptions, not as printed warnings
    common.supernodal = CHOLMOD_SUPERNODAL;
  }
  ~Cholmod() {
    release();
    cholmod_finish(&common);
  }
  Cholmod(const Cholmod&) = delete;
  Cholmod& operator=(const Cholmod&) = delete;

  void release() {
    cholmod_free_sparse(&A, &common);
    cholmod_free_factor(&L, &common);
    for (cholmod_dense** d : {&B, &X, &Y, &E}) cholmod_free_dense(d, &common);
  }

  // L = the factor of A as its values stand.
  void factorize() {
    const SingleThreadScope oneThread;
    RecyclingPool::Scope scope(pool);  // CHOLMOD's update workspace, the same every time
    cholmod_factorize(A, L, &common);
  }

  // Allocation failures inside CHOLMOD come back as a null result and a negative status.
  template <class T>
  T* require(T* result, const char* what) const {
    if (!result || common.status < CHOLMOD_OK) throw std::runtime_error(std::string("CHOLMOD could not ") + what);
    return result;
  }
};

SupernodalCholesky::SupernodalCholesky() : cholmod_(std::make_unique<Cholmod>()) {}
SupernodalCholesky::~SupernodalCholesky() = default;

// The matrix is laid out already in its fill-reducing order (postordered), and analyzed in its
// natural order, so that a factorization reads the assembled values as they are, without
// permuting them first.
void SupernodalCholesky::analyze(const ConstraintMatrix& A) {
  Cholmod& c = *cholmod_;
  c.release();
  c.assembly.analyze(A.jacobian());
  m_ = static_cast<int>(A.size());
  const auto m = static_cast<std::size_t>(m_);
  pivotRow_.resize(m);
  cost_ = {};
  if (m_ == 0) return;

  auto lower = c.assembly.pattern();
  pivotRow_ = fillReducingOrdering(lower).pivotRow;

  std::vector<int> position(m);
  for (std::size_t k = 0; k < m; ++k) position[static_cast<std::size_t>(pivotRow_[k])] = static_cast<int>(k);
  // The lower triangle in natural order is what CHOLMOD factors without transposing it first.
  c.assembly.layOut(position, ConstraintMatrixAssembly::Triangle::Lower);
  c.A = c.require(cholmod_allocate_sparse(m, m, c.assembly.nonZeros(), 1, 1, -1, CHOLMOD_REAL, &c.common),
                  "allocate J W Jᵀ");
  std::copy(c.assembly.columnStarts().begin(), c.assembly.columnStarts().end(), static_cast<int*>(c.A->p));
  std::copy(c.assembly.rowIndices().begin(), c.assembly.rowIndices().end(), static_cast<int*>(c.A->i));
  c.common.nmethods = 1;
  c.common.method[0].ordering = CHOLMOD_NATURAL;
  c.common.postorder = 0;
  c.L = c.require(cholmod_analyze(c.A, &c.common), "analyze J W Jᵀ");
  c.B = c.require(cholmod_allocate_dense(m, 1, m, CHOLMOD_REAL, &c.common), "allocate a right-hand side");
  // Flops: CHOLMOD's count for the factorization, plus the assembly's two per term; a solve
  // is two triangular solves, four flops per entry of L.
  cost_.factorize = c.common.fl + 2.0 * static_cast<double>(c.assembly.nonZeros()) * 4.0;
  cost_.solve = 4.0 * c.common.lnz;
}

void SupernodalCholesky::factorize(const ConstraintMatrix& A) {
  if (m_ == 0) return;
  Cholmod& c = *cholmod_;
  c.assembly.assemble(A, static_cast<double*>(c.A->x));
  c.factorize();
  if (c.common.status == CHOLMOD_NOT_POSDEF) throwSingular(pivotRow_[c.L->minor]);
  if (c.common.status < CHOLMOD_OK) throw std::runtime_error("CHOLMOD could not factor J W Jᵀ");
  checkPivots();
}

// L Lᵀ with the pivots d_k = L_kk², each compared with its row's diagonal entry, as the
// simplicial factorization compares its D_k. The diagonal of a supernode's dense block (its
// rows × its columns, column-major) holds the L_kk of its columns.
void SupernodalCholesky::checkPivots() const {
  const Cholmod& c = *cholmod_;
  const auto* super = static_cast<const int*>(c.L->super);
  const auto* rowStart = static_cast<const int*>(c.L->pi);
  const auto* valueStart = static_cast<const int*>(c.L->px);
  const auto* L = static_cast<const double*>(c.L->x);
  const auto* Avalues = static_cast<const double*>(c.A->x);
  for (std::size_t s = 0; s < c.L->nsuper; ++s) {
    const int rows = rowStart[s + 1] - rowStart[s];
    for (int k = super[s]; k < super[s + 1]; ++k) {
      const int j = k - super[s];
      const double pivot = L[valueStart[s] + j * rows + j];
      const int row = pivotRow_[static_cast<std::size_t>(k)];
      if (!(pivot * pivot > kSingularPivot * Avalues[c.assembly.diagonal(row)])) throwSingular(row);
    }
  }
}

bool SupernodalCholesky::factoredDiagonal(Eigen::VectorXd& d) const {
  d.resize(m_);
  if (m_ == 0) return true;
  const Cholmod& c = *cholmod_;
  const auto* Avalues = static_cast<const double*>(c.A->x);
  for (int row = 0; row < m_; ++row) d[row] = Avalues[c.assembly.diagonal(row)];
  return true;
}

void SupernodalCholesky::solveInPlace(Eigen::VectorXd& x) {
  if (m_ == 0) return;
  Cholmod& c = *cholmod_;
  auto* b = static_cast<double*>(c.B->x);
  for (int k = 0; k < m_; ++k) b[k] = x[pivotRow_[static_cast<std::size_t>(k)]];
  const SingleThreadScope oneThread;
  RecyclingPool::Scope scope(c.pool);
  if (!cholmod_solve2(CHOLMOD_A, c.L, c.B, nullptr, &c.X, nullptr, &c.Y, &c.E, &c.common)) {
    throw std::runtime_error("CHOLMOD could not solve with its factors");
  }
  const auto* solution = static_cast<const double*>(c.X->x);
  for (int k = 0; k < m_; ++k) x[pivotRow_[static_cast<std::size_t>(k)]] = solution[k];
}

void SupernodalCholesky::factorIdentity() {
  Cholmod& c = *cholmod_;
  auto* values = static_cast<double*>(c.A->x);
  std::fill_n(values, c.assembly.nonZeros(), 0.0);
  for (int row = 0; row < m_; ++row) values[c.assembly.diagonal(row)] = 1.0;
  c.factorize();
  if (c.common.status < CHOLMOD_OK) throw std::runtime_error("CHOLMOD could not allocate the factor of J W Jᵀ");
}

void SupernodalCholesky::serialize(StateArchive& archive) {
  if (m_ == 0) return;
  Cholmod& c = *cholmod_;
  if (archive.reading()) factorIdentity();
  auto* factor = static_cast<double*>(c.L->x);
  std::vector<double> values(factor, factor + c.L->xsize);
  archive.numbers(values, c.L->xsize);
  std::copy(values.begin(), values.end(), factor);
}

}  // namespace tinkertoy
