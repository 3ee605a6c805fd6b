#include "tinkertoy/solvers/tree_factorization.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "solvers/constraint_forest.hpp"
#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

namespace {

// A pivot below this fraction of its row's diagonal entry A_ii means a redundant row.
constexpr double kSingularPivot = 1e-12;

[[noreturn]] void throwSingular(Eigen::Index row) {
  throw SingularSystemError(row);
}

// The lower Cholesky factor of the symmetric positive definite a [n × n, row-major], in place.
// Returns the first column whose pivot is not above floor(column), or −1.
template <class Floor>
int cholesky(double* a, int n, Floor floor) {
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > floor(j))) return j;
    const double l = std::sqrt(d);
    a[j * n + j] = l;
    for (int i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (int k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / l;
    }
  }
  return -1;
}

// a ← (L Lᵀ)⁻¹ from the lower factor L in a [n × n, row-major]; scratch: [n × n].
void invertFromCholesky(double* a, int n, double* scratch) {
  // scratch ← L⁻¹, lower triangular.
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) scratch[i * n + j] = 0.0;
    scratch[j * n + j] = 1.0 / a[j * n + j];
    for (int i = j + 1; i < n; ++i) {
      double s = 0.0;
      for (int k = j; k < i; ++k) s -= a[i * n + k] * scratch[k * n + j];
      scratch[i * n + j] = s / a[i * n + i];
    }
  }
  // a ← L⁻ᵀ L⁻¹: (i, j) = Σ_{k ≥ max(i, j)} L⁻¹_ki L⁻¹_kj.
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      double s = 0.0;
      for (int k = i; k < n; ++k) s += scratch[k * n + i] * scratch[k * n + j];
      a[i * n + j] = a[j * n + i] = s;
    }
  }
}

// The flops of a factorization and of a solve on a forest: per node its pivot's inversion, its
// L block and its parent's update; then the k loop rows' tree solves, Bᵀ Z and T's Cholesky.
FactorizationCost forestCost(const ConstraintForest& forest) {
  FactorizationCost cost;
  double treeSolve = 0.0;
  const auto& nodes = forest.nodes();
  for (const ConstraintForest::Node& node : nodes) {
    const double s = node.size;
    const double p = node.parent < 0 ? 0.0 : nodes[static_cast<std::size_t>(node.parent)].size;
    cost.factorize += 2.0 * s * s * s + 2.0 * p * s * s + 2.0 * p * p * s;
    treeSolve += s * s + 4.0 * p * s;
  }
  const double k = forest.auxiliaryRows(), n = static_cast<double>(forest.size());
  cost.factorize += k * treeSolve + 16.0 * k * k + k * k * k / 3.0;
  cost.solve = treeSolve + 4.0 * n * k + 2.0 * k * k;
  return cost;
}

bool tooManyLoops(const ConstraintForest& forest) {
  return static_cast<double>(forest.size()) * forest.auxiliaryRows() > TreeFactorization::kMostSchurEntries;
}

}  // namespace

std::optional<FactorizationCost> TreeFactorization::estimate(const ConstraintMatrix& A) {
  const ConstraintForest forest = ConstraintForest::build(A.jacobian(), A.inverseMass());
  if (tooManyLoops(forest)) return std::nullopt;
  return forestCost(forest);
}

TreeFactorization::TreeFactorization() = default;
TreeFactorization::~TreeFactorization() = default;

int TreeFactorization::auxiliaryRows() const { return forest_ ? forest_->auxiliaryRows() : 0; }

void TreeFactorization::analyze(const ConstraintMatrix& A) {
  forest_ = std::make_unique<ConstraintForest>(ConstraintForest::build(A.jacobian(), A.inverseMass()));
  if (tooManyLoops(*forest_)) {
    throw std::invalid_argument("the tree factorization closes this model's " + std::to_string(forest_->auxiliaryRows()) +
                                " loop rows through a dense Schur complement, too big here; use the simplicial or "
                                "supernodal factorization");
  }
  m_ = A.size();
  const auto& nodes = forest_->nodes();
  inverseAt_.resize(nodes.size());
  lowerAt_.resize(nodes.size());
  std::size_t inverses = 0, lowers = 0;
  int widest = 0;
  Eigen::Index covered = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ConstraintForest::Node& node = nodes[i];
    const auto s = static_cast<std::size_t>(node.size);
    const std::size_t p = node.parent < 0 ? 0 : static_cast<std::size_t>(nodes[static_cast<std::size_t>(node.parent)].size);
    inverseAt_[i] = inverses;
    lowerAt_[i] = lowers;
    inverses += s * s;
    lowers += p * s;
    widest = std::max(widest, node.size);
    if (!node.isBody) covered += node.size;
  }
  inverse_.assign(inverses, 0.0);
  lower_.assign(lowers, 0.0);
  // Each auxiliary row's column of B: its entries of J, at the rows of the tree vector that its
  // bodies' nodes occupy.
  auxiliaryRow_.clear();
  auxiliaryStart_.assign(1, 0);
  auxiliaryIndex_.clear();
  const BlockDiagonalMatrix& W = A.inverseMass();
  for (const std::size_t c : forest_->auxiliary()) {
    const ConstraintForest::Constraint& constraint = forest_->constraints()[c];
    for (int r = 0; r < constraint.rows; ++r) {
      auxiliaryRow_.push_back(constraint.row + r);
      for (const std::size_t b : constraint.blocks) {
        const BlockSparseMatrix::Block& block = A.jacobian().blocks()[b];
        const Eigen::Index at = nodes[static_cast<std::size_t>(forest_->nodeOfBody(W.indexOfColumn(block.col)))].offset;
        for (int j = 0; j < block.cols; ++j) auxiliaryIndex_.push_back(at + j);
      }
      auxiliaryStart_.push_back(auxiliaryIndex_.size());
    }
  }
  auxiliaryValue_.assign(auxiliaryIndex_.size(), 0.0);
  covered += static_cast<Eigen::Index>(auxiliaryRow_.size());
  if (covered != m_) throw std::logic_error("TreeFactorization: rows of A without a block of J");
  const auto k = static_cast<Eigen::Index>(auxiliaryRow_.size());
  const auto n = forest_->size();
  Z_.setZero(n, k);
  schur_.setZero(k, k);
  diagonal_.setZero(m_);
  tree_.setZero(n);
  auxiliary_.setZero(k);
  scratch_.assign(2 * static_cast<std::size_t>(widest) * static_cast<std::size_t>(widest), 0.0);
  cost_ = forestCost(*forest_);
}

void TreeFactorization::couplingBlock(const ConstraintMatrix& A, std::size_t i, double* out) const {
  const auto& nodes = forest_->nodes();
  const ConstraintForest::Node& node = nodes[i];
  const BlockSparseMatrix::Block& block = J_->blocks()[node.coupling];
  const double* values = J_->values().data() + block.offset;
  // The constraint is the parent (a body below its constraint: H_pi = J_cb) or the node (a
  // constraint below its body: H_pi = J_cbᵀ); its held rows count as zero rows of J.
  const bool bodyBelow = node.isBody;
  const Eigen::Index firstRow = block.row;
  const int rows = block.rows, cols = block.cols;
  const int outCols = bodyBelow ? cols : rows;
  for (int r = 0; r < rows; ++r) {
    const bool held = A.isHeld(firstRow + r);
    for (int c = 0; c < cols; ++c) {
      const double v = held ? 0.0 : values[r * cols + c];
      if (bodyBelow) {
        out[r * outCols + c] = v;
      } else {
        out[c * outCols + r] = v;
      }
    }
  }
}

void TreeFactorization::factorize(const ConstraintMatrix& A) {
  J_ = &A.jacobian();
  const BlockDiagonalMatrix& W = A.inverseMass();
  const auto& nodes = forest_->nodes();
  const auto& constraints = forest_->constraints();
  A.diagonal(diagonal_);
  const Eigen::VectorXd* shift = A.shift();
  const auto regularizer = [&](Eigen::Index row) { return A.isHeld(row) ? 1.0 : (shift ? (*shift)[row] : 0.0); };
  double* work = scratch_.data();
  double* H = work + scratch_.size() / 2;

  // The diagonal blocks: M_b = W_b⁻¹, and −S for a constraint.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ConstraintForest::Node& node = nodes[i];
    double* D = inverse_.data() + inverseAt_[i];
    const int s = node.size;
    if (node.isBody) {
      W.copyBlock(node.index, D);  // symmetric: its column-major copy reads as row-major
      if (cholesky(D, s, [](int) { return 0.0; }) >= 0) {
        throw std::runtime_error("TreeFactorization: a body's inverse mass is not positive definite");
      }
      invertFromCholesky(D, s, work);
    } else {
      std::fill_n(D, s * s, 0.0);
      for (int r = 0; r < s; ++r) D[r * s + r] = -regularizer(constraints[node.index].row + r);
    }
  }
  // Children before parents: D_i is complete when i comes; invert it, form L_pi = H_pi D_i⁻¹ and
  // take L_pi H_piᵀ from D_p.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ConstraintForest::Node& node = nodes[i];
    const int s = node.size;
    double* D = inverse_.data() + inverseAt_[i];
    if (node.isBody) {
      if (cholesky(D, s, [](int) { return 0.0; }) >= 0) {
        throw std::runtime_error("TreeFactorization: a body's pivot is not positive definite");
      }
      invertFromCholesky(D, s, work);
    } else {  // −D is positive definite unless the constraint's rows are redundant
      const Eigen::Index first = constraints[node.index].row;
      for (int e = 0; e < s * s; ++e) D[e] = -D[e];
      const int failed = cholesky(D, s, [&](int j) { return kSingularPivot * diagonal_[first + j]; });
      if (failed >= 0) throwSingular(first + failed);
      invertFromCholesky(D, s, work);
      for (int e = 0; e < s * s; ++e) D[e] = -D[e];
    }
    if (node.parent < 0) continue;
    const auto parentIndex = static_cast<std::size_t>(node.parent);
    const int p = nodes[parentIndex].size;
    couplingBlock(A, i, H);
    double* L = lower_.data() + lowerAt_[i];
    for (int a = 0; a < p; ++a) {
      for (int b = 0; b < s; ++b) {
        double sum = 0.0;
        for (int c = 0; c < s; ++c) sum += H[a * s + c] * D[c * s + b];
        L[a * s + b] = sum;
      }
    }
    double* parentD = inverse_.data() + inverseAt_[parentIndex];
    for (int a = 0; a < p; ++a) {
      for (int b = 0; b <= a; ++b) {
        double sum = 0.0;
        for (int c = 0; c < s; ++c) sum += L[a * s + c] * H[b * s + c];
        parentD[a * p + b] -= sum;
        if (b != a) parentD[b * p + a] -= sum;
      }
    }
  }

  // Loops: B's entries as they are now (a factorization reused later must stay one operator),
  // Z = H_T⁻¹ B, one column per auxiliary row, and T = −S_a = S_aux + Bᵀ Z.
  const auto k = static_cast<Eigen::Index>(auxiliaryRow_.size());
  if (k == 0) return;
  std::size_t entry = 0;
  Eigen::Index column = 0;
  for (const std::size_t c : forest_->auxiliary()) {
    const ConstraintForest::Constraint& constraint = constraints[c];
    for (int r = 0; r < constraint.rows; ++r, ++column) {
      const bool held = A.isHeld(constraint.row + r);
      for (const std::size_t b : constraint.blocks) {
        const BlockSparseMatrix::Block& block = J_->blocks()[b];
        const double* row = J_->values().data() + block.offset + static_cast<std::size_t>(r * block.cols);
        for (int j = 0; j < block.cols; ++j) auxiliaryValue_[entry++] = held ? 0.0 : row[j];
      }
    }
  }
  Z_.setZero();
  for (column = 0; column < k; ++column) {
    for (std::size_t e = auxiliaryStart_[static_cast<std::size_t>(column)]; e < auxiliaryStart_[static_cast<std::size_t>(column) + 1]; ++e) {
      Z_(auxiliaryIndex_[e], column) += auxiliaryValue_[e];
    }
    solveTree(Z_.col(column).data());
  }
  for (column = 0; column < k; ++column) {
    const Eigen::Index systemRow = auxiliaryRow_[static_cast<std::size_t>(column)];
    schur_.row(column).setZero();
    schur_(column, column) = regularizer(systemRow);
    for (std::size_t e = auxiliaryStart_[static_cast<std::size_t>(column)]; e < auxiliaryStart_[static_cast<std::size_t>(column) + 1]; ++e) {
      schur_.row(column) += auxiliaryValue_[e] * Z_.row(auxiliaryIndex_[e]);
    }
  }
  // T is symmetric in exact arithmetic: factor the mean of its halves (row-major from here on).
  for (Eigen::Index i = 0; i < k; ++i) {
    for (Eigen::Index j = 0; j < i; ++j) schur_(i, j) = schur_(j, i) = 0.5 * (schur_(i, j) + schur_(j, i));
  }
  const int failed = cholesky(schur_.data(), static_cast<int>(k), [&](int j) {
    return kSingularPivot * diagonal_[auxiliaryRow_[static_cast<std::size_t>(j)]];
  });
  if (failed >= 0) throwSingular(auxiliaryRow_[static_cast<std::size_t>(failed)]);
}

void TreeFactorization::solveTree(double* x) const {
  const auto& nodes = forest_->nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {  // L y = f
    const ConstraintForest::Node& node = nodes[i];
    if (node.parent < 0) continue;
    const ConstraintForest::Node& parent = nodes[static_cast<std::size_t>(node.parent)];
    const double* L = lower_.data() + lowerAt_[i];
    const double* xi = x + node.offset;
    double* xp = x + parent.offset;
    for (int a = 0; a < parent.size; ++a) {
      double sum = 0.0;
      for (int b = 0; b < node.size; ++b) sum += L[a * node.size + b] * xi[b];
      xp[a] -= sum;
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {  // D z = y
    const ConstraintForest::Node& node = nodes[i];
    const double* D = inverse_.data() + inverseAt_[i];
    double* xi = x + node.offset;
    double y[kMaxBlockWidth];
    std::copy_n(xi, node.size, y);
    for (int a = 0; a < node.size; ++a) {
      double sum = 0.0;
      for (int b = 0; b < node.size; ++b) sum += D[a * node.size + b] * y[b];
      xi[a] = sum;
    }
  }
  for (std::size_t i = nodes.size(); i-- > 0;) {  // Lᵀ x = z
    const ConstraintForest::Node& node = nodes[i];
    if (node.parent < 0) continue;
    const ConstraintForest::Node& parent = nodes[static_cast<std::size_t>(node.parent)];
    const double* L = lower_.data() + lowerAt_[i];
    double* xi = x + node.offset;
    const double* xp = x + parent.offset;
    for (int b = 0; b < node.size; ++b) {
      double sum = 0.0;
      for (int a = 0; a < parent.size; ++a) sum += L[a * node.size + b] * xp[a];
      xi[b] -= sum;
    }
  }
}

void TreeFactorization::solveInPlace(Eigen::VectorXd& x) {
  const auto& nodes = forest_->nodes();
  const auto& constraints = forest_->constraints();
  tree_.setZero();
  for (const ConstraintForest::Node& node : nodes) {
    if (node.isBody) continue;
    const Eigen::Index first = constraints[node.index].row;
    for (int r = 0; r < node.size; ++r) tree_[node.offset + r] = -x[first + r];
  }
  solveTree(tree_.data());
  const auto k = static_cast<Eigen::Index>(auxiliaryRow_.size());
  if (k > 0) {
    // t = g − Bᵀ y₀ with g = −b_aux; λ_a = S_a⁻¹ t = −T⁻¹ t with T = L Lᵀ; y = y₀ − Z λ_a.
    const int n = static_cast<int>(k);
    const double* L = schur_.data();  // row-major lower factor
    for (int a = 0; a < n; ++a) {
      double t = -x[auxiliaryRow_[static_cast<std::size_t>(a)]];
      for (std::size_t e = auxiliaryStart_[static_cast<std::size_t>(a)]; e < auxiliaryStart_[static_cast<std::size_t>(a) + 1]; ++e) {
        t -= auxiliaryValue_[e] * tree_[auxiliaryIndex_[e]];
      }
      auxiliary_[a] = t;
    }
    for (int i = 0; i < n; ++i) {  // L u = t
      double s = auxiliary_[i];
      for (int j = 0; j < i; ++j) s -= L[i * n + j] * auxiliary_[j];
      auxiliary_[i] = s / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; --i) {  // Lᵀ w = u
      double s = auxiliary_[i];
      for (int j = i + 1; j < n; ++j) s -= L[j * n + i] * auxiliary_[j];
      auxiliary_[i] = s / L[i * n + i];
    }
    auxiliary_ = -auxiliary_;  // λ_a
    tree_.noalias() -= Z_ * auxiliary_;
    for (int a = 0; a < n; ++a) x[auxiliaryRow_[static_cast<std::size_t>(a)]] = auxiliary_[a];
  }
  for (const ConstraintForest::Node& node : nodes) {
    if (node.isBody) continue;
    const Eigen::Index first = constraints[node.index].row;
    for (int r = 0; r < node.size; ++r) x[first + r] = tree_[node.offset + r];
  }
}

void TreeFactorization::serialize(StateArchive& archive) {
  archive.numbers(inverse_, inverse_.size());
  archive.numbers(lower_, lower_.size());
  archive.numbers(auxiliaryValue_, auxiliaryValue_.size());
  archive.numbers(Z_, Z_.rows(), Z_.cols());
  archive.numbers(schur_, schur_.rows(), schur_.cols());
}

}  // namespace tinkertoy
