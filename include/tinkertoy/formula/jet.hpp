// Jet: a number that carries, besides its value f, everything a constraint needs of it to second
// order, by forward-mode automatic differentiation (docs/formula.md, "How the derivatives are
// obtained"). Over variables s = (s_1, …, s_n) (the coordinates of a constraint's points and the
// time t) that move along a direction w = ṡ (their velocities, and ṫ = 1):
//
//   value          f
//   gradient       ∇f                 ∂f/∂s_i
//   rate           ḟ = ∇f · w         the total time derivative
//   rateGradient   ∇ḟ = H w           ∂ḟ/∂s_i = Σ_j ∂²f/∂s_i∂s_j w_j  (w does not depend on s)
//
// For a constraint C(x, t) that is everything: J = ∂C/∂x and ∂C/∂t are the gradient, Ċ the rate,
// and J̇ = Σ_j ∂²C/∂x∂s_j w_j and Ctt = Σ_j ∂²C/∂t∂s_j w_j the rate's gradient. Each operation
// z = f(u) or z = f(u, v) applies the chain rule to all four (jetOf below) with the operation's
// first and second partial derivatives, so evaluating a formula with Jets costs a small constant
// times evaluating it with doubles, exactly (to round-off), without a symbolic derivative or a
// finite difference.
//
// Write a function once as a template, and call it with doubles for its value or with Jets for
// its derivatives (sqrt, sin, … are found for Jets by argument-dependent lookup):
//
//   auto C = [](auto xa, auto ya, auto t) { using std::sin; return ya - 0.3 * sin(2 * xa) - 0.1 * t; };
//   Jet x = Jet::variable(0.4, 0, 3, 1.2), y = Jet::variable(0.1, 1, 3, -0.5), t = Jet::variable(2.0, 2, 3, 1.0);
//   Jet c = C(x, y, t);     // c.gradient[0] = ∂C/∂xa, c.rate = Ċ, c.rateGradient[0] = d(∂C/∂xa)/dt
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

namespace tinkertoy {

// The most variables a Jet differentiates with respect to: the coordinates x, y, z and the frame
// angle φ of up to four points, and the time.
inline constexpr int kMaxJetVariables = 17;

struct Jet {
  double value;
  double rate;
  // Only the first `size` entries of each are defined; the others count as zero. A Jet over n
  // variables is copied and combined in O(n), not O(kMaxJetVariables).
  std::array<double, kMaxJetVariables> gradient;
  std::array<double, kMaxJetVariables> rateGradient;
  int size;  // the entries of gradient and rateGradient in use; 0 for a constant

  // Uninitialized (a formula's evaluation stack holds Jets it writes before it reads).
  Jet() = default;
  // A constant: no gradient, no rate.
  Jet(double constant)  // NOLINT(google-explicit-constructor): constants mix with variables
      : value(constant), rate(0.0), size(0) {}
  Jet(const Jet& other) : value(other.value), rate(other.rate), size(other.size) { copyEntries(other); }
  Jet& operator=(const Jet& other) {
    value = other.value;
    rate = other.rate;
    size = other.size;
    copyEntries(other);
    return *this;
  }
  ~Jet() = default;

  // Variable `index` of `count`, at `value`, moving at `rate`: its gradient is the unit vector e_index.
  static Jet variable(double value, int index, int count, double rate) {
    Jet v(value);
    v.rate = rate;
    v.size = count;
    for (std::size_t k = 0; k < static_cast<std::size_t>(count); ++k) v.gradient[k] = v.rateGradient[k] = 0.0;
    v.gradient[static_cast<std::size_t>(index)] = 1.0;
    return v;
  }

  // Sets the entries from size to n − 1 to zero and size to n (≥ size): a Jet whose first n
  // entries can be read, whatever its size was (a formula that is constant where it is evaluated).
  void widen(int n) {
    for (auto k = static_cast<std::size_t>(size); k < static_cast<std::size_t>(n); ++k) gradient[k] = rateGradient[k] = 0.0;
    size = std::max(size, n);
  }

 private:
  void copyEntries(const Jet& other) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(size); ++k) {
      gradient[k] = other.gradient[k];
      rateGradient[k] = other.rateGradient[k];
    }
  }
};

// Whether the value, rate and every entry in use of the gradient and the rate's gradient are finite.
inline bool allFinite(const Jet& j) {
  bool ok = std::isfinite(j.value) && std::isfinite(j.rate);
  for (std::size_t i = 0; i < static_cast<std::size_t>(j.size); ++i) {
    ok = ok && std::isfinite(j.gradient[i]) && std::isfinite(j.rateGradient[i]);
  }
  return ok;
}

// z = f(u), given f(u), f'(u) and f''(u):
//   ∇z = f' ∇u,   ż = f' u̇,   ∇ż = f'' u̇ ∇u + f' ∇u̇
inline Jet jetOf(const Jet& u, double f, double d1, double d2) {
  Jet z;
  z.value = f;
  z.rate = d1 * u.rate;
  z.size = u.size;
  const double a = d2 * u.rate;
  for (std::size_t k = 0; k < static_cast<std::size_t>(u.size); ++k) {
    z.gradient[k] = d1 * u.gradient[k];
    z.rateGradient[k] = a * u.gradient[k] + d1 * u.rateGradient[k];
  }
  return z;
}

// z = f(u, v), given f and its partial derivatives f_u, f_v, f_uu, f_uv, f_vv:
//   ∇z = f_u ∇u + f_v ∇v,   ż = f_u u̇ + f_v v̇,
//   ∇ż = (f_uu u̇ + f_uv v̇) ∇u + (f_uv u̇ + f_vv v̇) ∇v + f_u ∇u̇ + f_v ∇v̇
// Entries past an argument's size are zero: past the shorter one only the longer one counts.
inline Jet jetOf(const Jet& u, const Jet& v, double f, double fu, double fv, double fuu, double fuv, double fvv) {
  Jet z;
  z.value = f;
  z.rate = fu * u.rate + fv * v.rate;
  z.size = std::max(u.size, v.size);
  const double a = fuu * u.rate + fuv * v.rate;
  const double b = fuv * u.rate + fvv * v.rate;
  const auto both = static_cast<std::size_t>(std::min(u.size, v.size));
  for (std::size_t k = 0; k < both; ++k) {
    z.gradient[k] = fu * u.gradient[k] + fv * v.gradient[k];
    z.rateGradient[k] = a * u.gradient[k] + b * v.gradient[k] + fu * u.rateGradient[k] + fv * v.rateGradient[k];
  }
  for (std::size_t k = both; k < static_cast<std::size_t>(u.size); ++k) {
    z.gradient[k] = fu * u.gradient[k];
    z.rateGradient[k] = a * u.gradient[k] + fu * u.rateGradient[k];
  }
  for (std::size_t k = both; k < static_cast<std::size_t>(v.size); ++k) {
    z.gradient[k] = fv * v.gradient[k];
    z.rateGradient[k] = b * v.gradient[k] + fv * v.rateGradient[k];
  }
  return z;
}

// ---- arithmetic ------------------------------------------------------------------------

inline Jet operator+(const Jet& u, const Jet& v) { return jetOf(u, v, u.value + v.value, 1, 1, 0, 0, 0); }
inline Jet operator-(const Jet& u, const Jet& v) { return jetOf(u, v, u.value - v.value, 1, -1, 0, 0, 0); }
inline Jet operator*(const Jet& u, const Jet& v) { return jetOf(u, v, u.value * v.value, v.value, u.value, 0, 1, 0); }
// z = u / v:  z_u = 1/v, z_v = −u/v², z_uu = 0, z_uv = −1/v², z_vv = 2u/v³
inline Jet operator/(const Jet& u, const Jet& v) {
  const double r = 1.0 / v.value;
  return jetOf(u, v, u.value * r, r, -u.value * r * r, 0, -r * r, 2 * u.value * r * r * r);
}
inline Jet operator-(const Jet& u) { return jetOf(u, -u.value, -1, 0); }
inline Jet operator+(const Jet& u) { return u; }

// With a double on one side the Jet keeps its size.
inline Jet operator+(const Jet& u, double c) { return jetOf(u, u.value + c, 1, 0); }
inline Jet operator+(double c, const Jet& u) { return jetOf(u, c + u.value, 1, 0); }
inline Jet operator-(const Jet& u, double c) { return jetOf(u, u.value - c, 1, 0); }
inline Jet operator-(double c, const Jet& u) { return jetOf(u, c - u.value, -1, 0); }
inline Jet operator*(const Jet& u, double c) { return jetOf(u, u.value * c, c, 0); }
inline Jet operator*(double c, const Jet& u) { return jetOf(u, c * u.value, c, 0); }
inline Jet operator/(const Jet& u, double c) { return jetOf(u, u.value / c, 1.0 / c, 0); }
inline Jet operator/(double c, const Jet& u) {
  const double r = 1.0 / u.value;
  return jetOf(u, c * r, -c * r * r, 2 * c * r * r * r);
}

// ---- functions (found by argument-dependent lookup) ------------------------------------

inline Jet sqrt(const Jet& u) {
  const double s = std::sqrt(u.value);
  return jetOf(u, s, 0.5 / s, -0.25 / (s * u.value));
}
inline Jet exp(const Jet& u) {
  const double e = std::exp(u.value);
  return jetOf(u, e, e, e);
}
inline Jet log(const Jet& u) { return jetOf(u, std::log(u.value), 1.0 / u.value, -1.0 / (u.value * u.value)); }
inline Jet sin(const Jet& u) {
  const double s = std::sin(u.value);
  return jetOf(u, s, std::cos(u.value), -s);
}
inline Jet cos(const Jet& u) {
  const double c = std::cos(u.value);
  return jetOf(u, c, -std::sin(u.value), -c);
}
// tan' = 1 + tan², tan'' = 2 tan (1 + tan²)
inline Jet tan(const Jet& u) {
  const double t = std::tan(u.value), d = 1.0 + t * t;
  return jetOf(u, t, d, 2 * t * d);
}
// asin' = (1 − u²)^(−1/2), asin'' = u (1 − u²)^(−3/2); acos is their negatives
inline Jet asin(const Jet& u) {
  const double r = 1.0 / std::sqrt(1.0 - u.value * u.value);
  return jetOf(u, std::asin(u.value), r, u.value * r * r * r);
}
inline Jet acos(const Jet& u) {
  const double r = 1.0 / std::sqrt(1.0 - u.value * u.value);
  return jetOf(u, std::acos(u.value), -r, -u.value * r * r * r);
}
// atan' = 1/(1 + u²), atan'' = −2u/(1 + u²)²
inline Jet atan(const Jet& u) {
  const double r = 1.0 / (1.0 + u.value * u.value);
  return jetOf(u, std::atan(u.value), r, -2 * u.value * r * r);
}
inline Jet sinh(const Jet& u) { return jetOf(u, std::sinh(u.value), std::cosh(u.value), std::sinh(u.value)); }
inline Jet cosh(const Jet& u) { return jetOf(u, std::cosh(u.value), std::sinh(u.value), std::cosh(u.value)); }
// tanh' = 1 − tanh², tanh'' = −2 tanh (1 − tanh²)
inline Jet tanh(const Jet& u) {
  const double t = std::tanh(u.value), d = 1.0 - t * t;
  return jetOf(u, t, d, -2 * t * d);
}
// |u|' = sign(u), with sign(0) = 0: at the kink the derivative is the mean of the one-sided ones.
inline Jet abs(const Jet& u) {
  const double s = u.value > 0 ? 1.0 : (u.value < 0 ? -1.0 : 0.0);
  return jetOf(u, std::abs(u.value), s, 0);
}
// z = atan2(y, x), the angle of (x, y): with r² = x² + y²,
//   z_y = x/r², z_x = −y/r², z_yy = −2xy/r⁴, z_yx = (y² − x²)/r⁴, z_xx = 2xy/r⁴
inline Jet atan2(const Jet& y, const Jet& x) {
  const double r2 = x.value * x.value + y.value * y.value, r4 = r2 * r2, xy = x.value * y.value;
  return jetOf(y, x, std::atan2(y.value, x.value), x.value / r2, -y.value / r2, -2 * xy / r4,
               (y.value * y.value - x.value * x.value) / r4, 2 * xy / r4);
}
// z = hypot(u, v) = r: z_u = u/r, z_v = v/r, z_uu = v²/r³, z_uv = −uv/r³, z_vv = u²/r³
inline Jet hypot(const Jet& u, const Jet& v) {
  const double r = std::hypot(u.value, v.value), r3 = r * r * r;
  return jetOf(u, v, r, u.value / r, v.value / r, v.value * v.value / r3, -u.value * v.value / r3,
               u.value * u.value / r3);
}
// The larger (smaller) argument with its derivatives; at a tie, the first argument's.
inline Jet max(const Jet& u, const Jet& v) { return u.value >= v.value ? u : v; }
inline Jet min(const Jet& u, const Jet& v) { return u.value <= v.value ? u : v; }
// u^c for a constant c: c u^(c−1), c (c−1) u^(c−2). An integer c is exact for any u; a square,
// the commonest, is u·u.
inline Jet pow(const Jet& u, double c) {
  if (c == 2.0) return jetOf(u, u.value * u.value, 2.0 * u.value, 2.0);
  return jetOf(u, std::pow(u.value, c), c * std::pow(u.value, c - 1.0), c * (c - 1.0) * std::pow(u.value, c - 2.0));
}
// u^v with v a variable: exp(v log u), for u > 0:
//   z_u = v u^(v−1), z_v = z log u, z_uu = v (v−1) u^(v−2), z_uv = u^(v−1) (1 + v log u), z_vv = z log² u
inline Jet pow(const Jet& u, const Jet& v) {
  const double z = std::pow(u.value, v.value), l = std::log(u.value), p1 = z / u.value;
  return jetOf(u, v, z, v.value * p1, z * l, v.value * (v.value - 1.0) * p1 / u.value, p1 * (1.0 + v.value * l), z * l * l);
}

}  // namespace tinkertoy
