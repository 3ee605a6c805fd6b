#include "tinkertoy/curves/spline_curve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

namespace {

// A (cyclic) tridiagonal system a_i x_{i−1} + b_i x_i + c_i x_{i+1} = d_i with vector unknowns.
// The spline's systems are strictly diagonally dominant (b_i = 2(a_i + c_i) > a_i + c_i), so
// both solves are stable without pivoting, and they take O(n) time and memory.
class Tridiagonal {
 public:
  explicit Tridiagonal(std::size_t n) : a_(n), b_(n), c_(n), d_(n) {}

  void set(std::size_t i, double a, double b, double c, const Eigen::Vector3d& d) {
    a_[i] = a;
    b_[i] = b;
    c_[i] = c;
    d_[i] = d;
  }

  // Thomas algorithm; a_0 and c_{n−1} are ignored (x_{−1} = x_n = 0).
  [[nodiscard]] std::vector<Eigen::Vector3d> solve() const { return thomas(b_, d_); }

  // x_{−1} = x_{n−1} and x_n = x_0 (n ≥ 3): the corner terms a_0 and c_{n−1} make a rank-one
  // update of a plain tridiagonal T, removed by Sherman–Morrison: with γ = −b_0, T has
  // b_0 − γ and b_{n−1} − a_0 c_{n−1}/γ on its diagonal, u = (γ, 0, …, 0, c_{n−1}),
  // v = (1, 0, …, 0, a_0/γ), and x = y − z (v·y)/(1 + v·z) for T y = d, T z = u.
  [[nodiscard]] std::vector<Eigen::Vector3d> solveCyclic() const {
    const std::size_t n = b_.size();
    const double gamma = -b_[0];
    std::vector<double> diagonal = b_;
    diagonal[0] -= gamma;
    diagonal[n - 1] -= a_[0] * c_[n - 1] / gamma;
    std::vector<Eigen::Vector3d> u(n, Eigen::Vector3d::Zero());
    u[0].setConstant(gamma);
    u[n - 1].setConstant(c_[n - 1]);
    const std::vector<Eigen::Vector3d> y = thomas(diagonal, d_);
    const std::vector<Eigen::Vector3d> z = thomas(diagonal, u);
    std::vector<Eigen::Vector3d> x(n);
    for (int axis = 0; axis < 3; ++axis) {
      const double vy = y[0][axis] + a_[0] / gamma * y[n - 1][axis];
      const double vz = z[0][axis] + a_[0] / gamma * z[n - 1][axis];
      const double factor = vy / (1.0 + vz);
      for (std::size_t i = 0; i < n; ++i) x[i][axis] = y[i][axis] - factor * z[i][axis];
    }
    return x;
  }

 private:
  // Forward elimination and back substitution on the tridiagonal (a, diagonal, c).
  [[nodiscard]] std::vector<Eigen::Vector3d> thomas(const std::vector<double>& diagonal,
                                                    const std::vector<Eigen::Vector3d>& rhs) const {
    const std::size_t n = diagonal.size();
    std::vector<double> cPrime(n);
    std::vector<Eigen::Vector3d> x(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double lower = i > 0 ? a_[i] : 0.0;
      const double pivot = diagonal[i] - (i > 0 ? lower * cPrime[i - 1] : 0.0);
      cPrime[i] = c_[i] / pivot;
      x[i] = (rhs[i] - (i > 0 ? (lower * x[i - 1]).eval() : Eigen::Vector3d::Zero())) / pivot;
    }
    for (std::size_t i = n; i-- > 1;) x[i - 1] -= cPrime[i - 1] * x[i];
    return x;
  }

  std::vector<double> a_, b_, c_;
  std::vector<Eigen::Vector3d> d_;
};

}  // namespace

SplineCurve::SplineCurve(std::vector<Eigen::VectorXd> points, bool closed)
    : points_(std::move(points)), closed_(closed), dimension_(0) {
  const std::size_t needed = closed_ ? 3 : 2;
  if (points_.size() < needed) {
    throw std::invalid_argument(std::string("a") + (closed_ ? " closed" : "n open") + " spline needs at least " +
                                std::to_string(needed) + " points, got " + std::to_string(points_.size()));
  }
  dimension_ = static_cast<int>(points_[0].size());
  if (dimension_ != 2 && dimension_ != 3) throw std::invalid_argument("spline points must have 2 or 3 components");
  for (std::size_t k = 0; k < points_.size(); ++k) {
    if (points_[k].size() != dimension_) {
      throw std::invalid_argument("spline point " + std::to_string(k) + " has " + std::to_string(points_[k].size()) +
                                  " components; point 0 has " + std::to_string(dimension_));
    }
    if (!points_[k].allFinite()) throw std::invalid_argument("spline point " + std::to_string(k) + " must be finite");
    P_.push_back(padTo3d(points_[k]));
  }
  if (closed_) P_.push_back(P_.front());

  // Chord-length knots; a zero chord would make a span of length zero.
  const std::size_t spans = P_.size() - 1;
  knots_.assign(1, 0.0);
  for (std::size_t k = 0; k < spans; ++k) {
    const double h = (P_[k + 1] - P_[k]).norm();
    if (h == 0.0) {
      const std::size_t next = (k + 1) % points_.size();
      throw std::invalid_argument("spline points " + std::to_string(k) + " and " + std::to_string(next) +
                                  " coincide");
    }
    knots_.push_back(knots_.back() + h);
  }

  // The second derivatives M_k: natural ends (M = 0) if open, periodic if closed. Row k of the
  // continuity system couples the spans before and after knot k.
  const auto h = [&](std::size_t k) { return knots_[k + 1] - knots_[k]; };
  const auto slope = [&](std::size_t k) -> Eigen::Vector3d { return (P_[k + 1] - P_[k]) / h(k); };
  if (closed_) {
    Tridiagonal system(spans);  // unknowns M_0 .. M_{spans−1}; M_spans = M_0
    for (std::size_t k = 0; k < spans; ++k) {
      const std::size_t before = (k + spans - 1) % spans;
      system.set(k, h(before), 2.0 * (h(before) + h(k)), h(k), 6.0 * (slope(k) - slope(before)));
    }
    M_ = system.solveCyclic();
    M_.push_back(M_.front());
  } else {
    Tridiagonal system(spans - 1);  // interior unknowns M_1 .. M_{spans−1}; M_0 = M_spans = 0
    for (std::size_t k = 1; k < spans; ++k) {
      system.set(k - 1, h(k - 1), 2.0 * (h(k - 1) + h(k)), h(k), 6.0 * (slope(k) - slope(k - 1)));
    }
    M_ = system.solve();
    M_.insert(M_.begin(), Eigen::Vector3d::Zero());
    M_.push_back(Eigen::Vector3d::Zero());
  }
}

CurvePoint SplineCurve::evaluate(double u) const {
  const double T = knots_.back();
  if (closed_) {
    u = std::fmod(u, T);
    if (u < 0.0) u += T;
  } else if (u < 0.0 || u > T) {
    // Straight continuation along the end tangent (M = 0 at a natural end).
    const bool start = u < 0.0;
    CurvePoint end = evaluate(start ? 0.0 : T);
    end.position += (start ? u : u - T) * end.tangent;
    return end;
  }
  const auto span = static_cast<std::size_t>(
      std::min<std::ptrdiff_t>(std::upper_bound(knots_.begin(), knots_.end(), u) - knots_.begin() - 1,
                               static_cast<std::ptrdiff_t>(knots_.size()) - 2));
  const double h = knots_[span + 1] - knots_[span];
  const double a = knots_[span + 1] - u, b = u - knots_[span];
  const Eigen::Vector3d& M0 = M_[span];
  const Eigen::Vector3d& M1 = M_[span + 1];
  const Eigen::Vector3d& P0 = P_[span];
  const Eigen::Vector3d& P1 = P_[span + 1];
  CurvePoint p;
  p.position = (M0 * a * a * a + M1 * b * b * b) / (6.0 * h) + (P0 - M0 * h * h / 6.0) * (a / h) +
               (P1 - M1 * h * h / 6.0) * (b / h);
  p.tangent = (M1 * b * b - M0 * a * a) / (2.0 * h) + (P1 - P0) / h - (M1 - M0) * h / 6.0;
  p.curvature = (M0 * a + M1 * b) / h;
  return p;
}

}  // namespace tinkertoy
