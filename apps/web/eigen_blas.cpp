#include "eigen_blas.hpp"

#include <Eigen/Core>
#include <cctype>
#include <cmath>

namespace tinkertoy::eigen_blas {

namespace {

using Matrix = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using ConstMatrix = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using Vector = Eigen::Map<Eigen::VectorXd, 0, Eigen::InnerStride<>>;
using ConstVector = Eigen::Map<const Eigen::VectorXd, 0, Eigen::InnerStride<>>;

bool transposed(char c) {
  const char t = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return t == 'T' || t == 'C';
}
bool is(char c, char letter) { return std::toupper(static_cast<unsigned char>(c)) == letter; }

ConstMatrix matrix(const double* A, int rows, int cols, int ld) { return {A, rows, cols, Eigen::OuterStride<>(ld)}; }
Matrix matrix(double* A, int rows, int cols, int ld) { return {A, rows, cols, Eigen::OuterStride<>(ld)}; }

// A BLAS vector of stride inc (negative: stored from its end).
template <class Map, class Pointer>
Map vector(Pointer x, int n, int inc) {
  const int stride = inc < 0 ? -inc : inc;
  return Map(inc < 0 ? x + static_cast<long>(n - 1) * stride : x, n, Eigen::InnerStride<>(inc));
}

// X = op(T)⁻¹ X for the triangle of T that uplo and diag say, X a matrix or a vector.
template <class Triangle, class Rhs>
void solveTriangle(const Triangle& T, char uplo, char trans, char diag, Rhs&& X) {
  const bool lower = is(uplo, 'L'), unit = is(diag, 'U');
  if (!transposed(trans)) {
    if (lower && unit) T.template triangularView<Eigen::UnitLower>().solveInPlace(X);
    if (lower && !unit) T.template triangularView<Eigen::Lower>().solveInPlace(X);
    if (!lower && unit) T.template triangularView<Eigen::UnitUpper>().solveInPlace(X);
    if (!lower && !unit) T.template triangularView<Eigen::Upper>().solveInPlace(X);
    return;
  }
  if (lower && unit) T.transpose().template triangularView<Eigen::UnitUpper>().solveInPlace(X);
  if (lower && !unit) T.transpose().template triangularView<Eigen::Upper>().solveInPlace(X);
  if (!lower && unit) T.transpose().template triangularView<Eigen::UnitLower>().solveInPlace(X);
  if (!lower && !unit) T.transpose().template triangularView<Eigen::Lower>().solveInPlace(X);
}

}  // namespace

void dgemm(char transA, char transB, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
           int ldb, double beta, double* C, int ldc) {
  if (m <= 0 || n <= 0) return;
  Matrix c = matrix(C, m, n, ldc);
  if (beta == 0.0) {
    c.setZero();  // as the BLAS does: C's old entries are not read (they may be NaN)
  } else if (beta != 1.0) {
    c *= beta;
  }
  if (k <= 0 || alpha == 0.0) return;
  const ConstMatrix a = transposed(transA) ? matrix(A, k, m, lda) : matrix(A, m, k, lda);
  const ConstMatrix b = transposed(transB) ? matrix(B, n, k, ldb) : matrix(B, k, n, ldb);
  if (transposed(transA) && transposed(transB)) {
    c.noalias() += alpha * a.transpose() * b.transpose();
  } else if (transposed(transA)) {
    c.noalias() += alpha * a.transpose() * b;
  } else if (transposed(transB)) {
    c.noalias() += alpha * a * b.transpose();
  } else {
    c.noalias() += alpha * a * b;
  }
}

void dgemv(char trans, int m, int n, double alpha, const double* A, int lda, const double* x, int incx, double beta,
           double* y, int incy) {
  if (m <= 0 || n <= 0) return;
  const bool t = transposed(trans);
  const ConstMatrix a = matrix(A, m, n, lda);
  const ConstVector xs = vector<ConstVector>(x, t ? m : n, incx);
  Vector ys = vector<Vector>(y, t ? n : m, incy);
  if (beta == 0.0) {
    ys.setZero();
  } else if (beta != 1.0) {
    ys *= beta;
  }
  if (alpha == 0.0) return;
  if (t) {
    ys.noalias() += alpha * a.transpose() * xs;
  } else {
    ys.noalias() += alpha * a * xs;
  }
}

void dsyrk(char uplo, char trans, int n, int k, double alpha, const double* A, int lda, double beta, double* C,
           int ldc) {
  if (n <= 0) return;
  Matrix c = matrix(C, n, n, ldc);
  const bool lower = is(uplo, 'L');
  // Only the triangle: the other one of C is not the routine's to touch.
  for (int j = 0; j < n; ++j) {
    const int from = lower ? j : 0, to = lower ? n : j + 1;
    for (int i = from; i < to; ++i) c(i, j) = beta == 0.0 ? 0.0 : beta * c(i, j);
  }
  if (k <= 0 || alpha == 0.0) return;
  const bool t = transposed(trans);
  const ConstMatrix a = t ? matrix(A, k, n, lda) : matrix(A, n, k, lda);
  for (int j = 0; j < n; ++j) {
    const int from = lower ? j : 0, to = lower ? n : j + 1;
    for (int i = from; i < to; ++i) c(i, j) += alpha * (t ? a.col(i).dot(a.col(j)) : a.row(i).dot(a.row(j)));
  }
}

void dtrsm(char side, char uplo, char transA, char diag, int m, int n, double alpha, const double* A, int lda,
           double* B, int ldb) {
  if (m <= 0 || n <= 0) return;
  Matrix b = matrix(B, m, n, ldb);
  if (alpha == 0.0) {
    b.setZero();
    return;
  }
  if (alpha != 1.0) b *= alpha;
  if (is(side, 'L')) {
    solveTriangle(matrix(A, m, m, lda), uplo, transA, diag, b);
    return;
  }
  // X op(A) = B  ⇔  op(A)ᵀ Xᵀ = Bᵀ: the transposed triangle from the left.
  Eigen::Transpose<Matrix> bt = b.transpose();
  solveTriangle(matrix(A, n, n, lda), uplo, transposed(transA) ? 'N' : 'T', diag, bt);
}

void dtrsv(char uplo, char trans, char diag, int n, const double* A, int lda, double* x, int incx) {
  if (n <= 0) return;
  Vector xs = vector<Vector>(x, n, incx);
  solveTriangle(matrix(A, n, n, lda), uplo, trans, diag, xs);
}

int dpotrf(char uplo, int n, double* A, int lda) {
  Matrix a = matrix(A, n, n, lda);
  const bool lower = is(uplo, 'L');
  // Column by column (Cholesky–Crout): L(j, j) = √(A(j, j) − Σ_k L(j, k)²), then the column below.
  // The upper case is the same on the transpose, read through (i, j) ↔ (j, i).
  const auto at = [&](int i, int j) -> double& { return lower ? a(i, j) : a(j, i); };
  for (int j = 0; j < n; ++j) {
    double d = at(j, j);
    for (int k = 0; k < j; ++k) d -= at(j, k) * at(j, k);
    if (!(d > 0.0)) {
      at(j, j) = d;
      return j + 1;
    }
    d = std::sqrt(d);
    at(j, j) = d;
    for (int i = j + 1; i < n; ++i) {
      double s = at(i, j);
      for (int k = 0; k < j; ++k) s -= at(i, k) * at(j, k);
      at(i, j) = s / d;
    }
  }
  return 0;
}

}  // namespace tinkertoy::eigen_blas
