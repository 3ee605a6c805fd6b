// EigenBlas: the six BLAS and LAPACK routines CHOLMOD's supernodal factorization and solves call
// (dgemm, dgemv, dsyrk, dtrsm, dtrsv, dpotrf), written on Eigen, for the browser build, where
// no BLAS is packaged for WebAssembly (issue #39). Column-major matrices with leading dimensions,
// as the Fortran BLAS takes them; the character arguments as BLAS reads them (first letter, either
// case: 'N' no transpose, 'T' or 'C' transpose; 'L'/'U' lower/upper; 'L'/'R' side; 'U'/'N' unit
// diagonal or not). The web build is to export them under the Fortran names (dgemm_ …); natively
// they are tested against the system's BLAS (tests/web/eigen_blas_test.cpp).
//
//   eigen_blas::dgemm('N', 'T', m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc);   // C = A Bᵀ
#pragma once

namespace tinkertoy::eigen_blas {

// C = α op(A) op(B) + β C, C m × n, op(A) m × k, op(B) k × n.
void dgemm(char transA, char transB, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
           int ldb, double beta, double* C, int ldc);
// y = α op(A) x + β y, A m × n (strides incx, incy).
void dgemv(char trans, int m, int n, double alpha, const double* A, int lda, const double* x, int incx, double beta,
           double* y, int incy);
// C = α A Aᵀ + β C ('N', A n × k) or α Aᵀ A + β C ('T', A k × n), on C's `uplo` triangle only.
void dsyrk(char uplo, char trans, int n, int k, double alpha, const double* A, int lda, double beta, double* C, int ldc);
// B = α op(A)⁻¹ B (side 'L', A m × m) or α B op(A)⁻¹ (side 'R', A n × n), A triangular, B m × n.
void dtrsm(char side, char uplo, char transA, char diag, int m, int n, double alpha, const double* A, int lda,
           double* B, int ldb);
// x = op(A)⁻¹ x, A n × n triangular (stride incx).
void dtrsv(char uplo, char trans, char diag, int n, const double* A, int lda, double* x, int incx);
// A = L Lᵀ ('L', L in the lower triangle) or Uᵀ U ('U'), in place; returns 0, or the order
// (1-based) of the first leading minor that is not positive definite, as LAPACK's info.
int dpotrf(char uplo, int n, double* A, int lda);

}  // namespace tinkertoy::eigen_blas
