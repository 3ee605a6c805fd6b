// The browser build's Eigen-backed BLAS (apps/web/eigen_blas.hpp) against the system's BLAS and
// LAPACK (OpenBLAS), on random column-major matrices with leading dimensions larger than their
// rows, in every variant of every argument: to round-off, and the untouched entries untouched.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <random>
#include <string>
#include <vector>

#include "eigen_blas.hpp"

extern "C" {
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*);
void dgemv_(const char*, const int*, const int*, const double*, const double*, const int*, const double*, const int*,
            const double*, double*, const int*);
void dsyrk_(const char*, const char*, const int*, const int*, const double*, const double*, const int*, const double*,
            double*, const int*);
void dtrsm_(const char*, const char*, const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, double*, const int*);
void dtrsv_(const char*, const char*, const char*, const int*, const double*, const int*, double*, const int*);
void dpotrf_(const char*, const int*, double*, const int*, int*);
}

namespace tinkertoy {
namespace {

std::vector<double> randomArray(std::size_t size, std::mt19937& random) {
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  std::vector<double> out(size);
  for (double& x : out) x = entry(random);
  return out;
}

// A well-conditioned triangle: its diagonal away from zero.
std::vector<double> triangle(int n, int ld, std::mt19937& random) {
  std::vector<double> A = randomArray(static_cast<std::size_t>(ld * n), random);
  for (int i = 0; i < n; ++i) A[static_cast<std::size_t>(i + i * ld)] = 2.0 + std::abs(A[static_cast<std::size_t>(i + i * ld)]);
  return A;
}

void expectClose(const std::vector<double>& ours, const std::vector<double>& theirs, const std::string& what) {
  ASSERT_EQ(ours.size(), theirs.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    EXPECT_NEAR(ours[i], theirs[i], 1e-12 * (1.0 + std::abs(theirs[i]))) << what << " at " << i;
  }
}

TEST(EigenBlas, DgemmMatchesTheSystemsInEveryTransposition) {
  std::mt19937 random(7);
  const int m = 5, n = 4, k = 3, ld = 9;
  for (const char ta : {'N', 'T', 'C'}) {
    for (const char tb : {'N', 'T'}) {
      for (const double beta : {0.0, 1.0, -0.5}) {
        const std::vector<double> A = randomArray(ld * 5, random), B = randomArray(ld * 5, random);
        std::vector<double> C = randomArray(ld * n, random), D = C;
        const double alpha = 1.5;
        dgemm_(&ta, &tb, &m, &n, &k, &alpha, A.data(), &ld, B.data(), &ld, &beta, D.data(), &ld);
        eigen_blas::dgemm(ta, tb, m, n, k, alpha, A.data(), ld, B.data(), ld, beta, C.data(), ld);
        expectClose(C, D, std::string("dgemm ") + ta + tb);
      }
    }
  }
}

TEST(EigenBlas, DgemvMatchesTheSystemsWithStrides) {
  std::mt19937 random(8);
  const int m = 6, n = 4, ld = 8;
  for (const char t : {'N', 'T'}) {
    for (const int inc : {1, 2, -1}) {
      const std::vector<double> A = randomArray(ld * n, random), x = randomArray(20, random);
      std::vector<double> y = randomArray(20, random), z = y;
      const double alpha = -0.7, beta = 0.3;
      dgemv_(&t, &m, &n, &alpha, A.data(), &ld, x.data(), &inc, &beta, z.data(), &inc);
      eigen_blas::dgemv(t, m, n, alpha, A.data(), ld, x.data(), inc, beta, y.data(), inc);
      expectClose(y, z, std::string("dgemv ") + t + " inc " + std::to_string(inc));
    }
  }
}

TEST(EigenBlas, DsyrkMatchesTheSystemsOnItsTriangleOnly) {
  std::mt19937 random(9);
  const int n = 5, k = 3, ld = 7;
  for (const char uplo : {'L', 'U'}) {
    for (const char t : {'N', 'T'}) {
      const std::vector<double> A = randomArray(ld * 5, random);
      std::vector<double> C = randomArray(ld * n, random), D = C;
      const double alpha = -1.0, beta = 1.0;
      dsyrk_(&uplo, &t, &n, &k, &alpha, A.data(), &ld, &beta, D.data(), &ld);
      eigen_blas::dsyrk(uplo, t, n, k, alpha, A.data(), ld, beta, C.data(), ld);
      expectClose(C, D, std::string("dsyrk ") + uplo + t);
    }
  }
}

TEST(EigenBlas, DtrsmMatchesTheSystemsOnEitherSide) {
  std::mt19937 random(10);
  const int m = 4, n = 3, ld = 6;
  for (const char side : {'L', 'R'}) {
    for (const char uplo : {'L', 'U'}) {
      for (const char t : {'N', 'T', 'C'}) {
        for (const char diag : {'N', 'U'}) {
          const std::vector<double> A = triangle(side == 'L' ? m : n, ld, random);
          std::vector<double> B = randomArray(ld * n, random), D = B;
          const double alpha = 0.8;
          dtrsm_(&side, &uplo, &t, &diag, &m, &n, &alpha, A.data(), &ld, D.data(), &ld);
          eigen_blas::dtrsm(side, uplo, t, diag, m, n, alpha, A.data(), ld, B.data(), ld);
          expectClose(B, D, std::string("dtrsm ") + side + uplo + t + diag);
        }
      }
    }
  }
}

TEST(EigenBlas, DtrsvMatchesTheSystems) {
  std::mt19937 random(11);
  const int n = 5, ld = 7;
  for (const char uplo : {'L', 'U'}) {
    for (const char t : {'N', 'T'}) {
      for (const char diag : {'N', 'U'}) {
        for (const int inc : {1, 3, -2}) {
          const std::vector<double> A = triangle(n, ld, random);
          std::vector<double> x = randomArray(20, random), y = x;
          dtrsv_(&uplo, &t, &diag, &n, A.data(), &ld, y.data(), &inc);
          eigen_blas::dtrsv(uplo, t, diag, n, A.data(), ld, x.data(), inc);
          expectClose(x, y, std::string("dtrsv ") + uplo + t + diag + " inc " + std::to_string(inc));
        }
      }
    }
  }
}

TEST(EigenBlas, DpotrfMatchesTheSystemsAndReportsWhereItFails) {
  std::mt19937 random(12);
  const int n = 6, ld = 8;
  const std::vector<double> R = randomArray(ld * n, random);
  const Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>> r(R.data(), n, n, Eigen::OuterStride<>(ld));
  const Eigen::MatrixXd spd = r.transpose() * r + Eigen::MatrixXd::Identity(n, n);
  for (const char uplo : {'L', 'U'}) {
    std::vector<double> A = randomArray(ld * n, random);  // beyond the matrix: left alone
    Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>(A.data(), n, n, Eigen::OuterStride<>(ld)) = spd;
    std::vector<double> B = A;
    int info = -1;
    dpotrf_(&uplo, &n, B.data(), &ld, &info);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(eigen_blas::dpotrf(uplo, n, A.data(), ld), 0);
    expectClose(A, B, std::string("dpotrf ") + uplo);
  }
  // Not positive definite at its third leading minor.
  std::vector<double> A(static_cast<std::size_t>(ld * 3), 0.0);
  A[0] = 4.0, A[1 + ld] = 1.0, A[2 + 2 * ld] = -1.0;
  EXPECT_EQ(eigen_blas::dpotrf('L', 3, A.data(), ld), 3);
}

}  // namespace
}  // namespace tinkertoy
