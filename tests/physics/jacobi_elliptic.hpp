// Jacobi elliptic functions sn, cn, dn for the pendulum's closed form, by the arithmetic–
// geometric mean (descending Landen transformation, Abramowitz & Stegun 16.4):
//
//   a₀ = 1, b₀ = √(1 − m), c₀ = √m
//   a_n = (a_{n−1} + b_{n−1})/2,  b_n = √(a_{n−1} b_{n−1}),  c_n = (a_{n−1} − b_{n−1})/2
//   stop when c_N is negligible; φ_N = 2^N a_N u
//   φ_{n−1} = (φ_n + asin((c_n / a_n) sin φ_n)) / 2
//   sn = sin φ₀,  cn = cos φ₀,  dn = √(1 − m sn²)
//
// m = k² is the parameter (k the modulus), valid for 0 ≤ m < 1. The argument is first
// reduced modulo the real period 4K, so round-off does not grow with |u|.
#pragma once

#include <array>
#include <cmath>

namespace tinkertoy::test {

struct JacobiValues {
  double sn, cn, dn;
};

inline JacobiValues jacobiElliptic(double u, double m) {
  constexpr int kMaxTerms = 32;
  const double K = std::comp_ellint_1(std::sqrt(m));
  u = std::remainder(u, 4.0 * K);  // sn, cn have period 4K in u; dn has 2K
  std::array<double, kMaxTerms + 1> a{}, c{};
  a[0] = 1.0;
  c[0] = std::sqrt(m);
  double b = std::sqrt(1.0 - m);
  int n = 0;
  while (std::abs(c[static_cast<std::size_t>(n)]) > 1e-17 && n < kMaxTerms) {
    const auto i = static_cast<std::size_t>(n);
    a[i + 1] = 0.5 * (a[i] + b);
    c[i + 1] = 0.5 * (a[i] - b);
    b = std::sqrt(a[i] * b);
    ++n;
  }
  double phi = std::ldexp(1.0, n) * a[static_cast<std::size_t>(n)] * u;
  for (int i = n; i > 0; --i) {
    const auto j = static_cast<std::size_t>(i);
    phi = 0.5 * (phi + std::asin(c[j] / a[j] * std::sin(phi)));
  }
  const double sn = std::sin(phi);
  return {sn, std::cos(phi), std::sqrt(1.0 - m * sn * sn)};
}

}  // namespace tinkertoy::test
