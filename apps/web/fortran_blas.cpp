// The browser build's BLAS and LAPACK under the Fortran names CHOLMOD calls (dgemm_ …), each
// forwarding to its Eigen version (eigen_blas.hpp). Only the web target links this file
// (web/CMakeLists.txt): natively the names are the system BLAS's.
//
// CHOLMOD also has complex factorizations, whose BLAS names (zgemm_ …) its code refers to; the
// engine's matrices are real, so none is ever called: each ends the program with a message,
// should that ever change.
#include <cstdio>
#include <cstdlib>

#include "eigen_blas.hpp"

namespace blas = tinkertoy::eigen_blas;

extern "C" {

void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* alpha,
            const double* A, const int* lda, const double* B, const int* ldb, const double* beta, double* C,
            const int* ldc) {
  blas::dgemm(*ta, *tb, *m, *n, *k, *alpha, A, *lda, B, *ldb, *beta, C, *ldc);
}

void dgemv_(const char* t, const int* m, const int* n, const double* alpha, const double* A, const int* lda,
            const double* x, const int* incx, const double* beta, double* y, const int* incy) {
  blas::dgemv(*t, *m, *n, *alpha, A, *lda, x, *incx, *beta, y, *incy);
}

void dsyrk_(const char* uplo, const char* t, const int* n, const int* k, const double* alpha, const double* A,
            const int* lda, const double* beta, double* C, const int* ldc) {
  blas::dsyrk(*uplo, *t, *n, *k, *alpha, A, *lda, *beta, C, *ldc);
}

void dtrsm_(const char* side, const char* uplo, const char* t, const char* diag, const int* m, const int* n,
            const double* alpha, const double* A, const int* lda, double* B, const int* ldb) {
  blas::dtrsm(*side, *uplo, *t, *diag, *m, *n, *alpha, A, *lda, B, *ldb);
}

void dtrsv_(const char* uplo, const char* t, const char* diag, const int* n, const double* A, const int* lda,
            double* x, const int* incx) {
  blas::dtrsv(*uplo, *t, *diag, *n, A, *lda, x, *incx);
}

void dpotrf_(const char* uplo, const int* n, double* A, const int* lda, int* info) {
  *info = blas::dpotrf(*uplo, *n, A, *lda);
}

// Every argument of these is a pointer (Fortran passes by reference): their signatures are
// written as so many pointers, which is what WebAssembly's linker compares.
namespace {
[[noreturn]] void noComplexBlas(const char* name) {
  std::fprintf(stderr, "tinkertoy: CHOLMOD called the complex BLAS routine %s, which the browser build does not have "
                       "(its matrices are real)\n", name);
  std::abort();
}
using P = const void*;
}  // namespace

void zgemm_(P, P, P, P, P, P, P, P, P, P, P, P, P) { noComplexBlas("zgemm"); }
void zgemv_(P, P, P, P, P, P, P, P, P, P, P) { noComplexBlas("zgemv"); }
void zherk_(P, P, P, P, P, P, P, P, P, P) { noComplexBlas("zherk"); }
void zpotrf_(P, P, P, P, P) { noComplexBlas("zpotrf"); }
void ztrsm_(P, P, P, P, P, P, P, P, P, P, P) { noComplexBlas("ztrsm"); }
void ztrsv_(P, P, P, P, P, P, P, P) { noComplexBlas("ztrsv"); }

}  // extern "C"
