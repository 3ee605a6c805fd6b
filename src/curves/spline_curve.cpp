#include "tinkertoy/curves/spline_curve.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

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

  // The second derivatives M_k: natural ends (M = 0) if open, periodic if closed. The
  // unknowns are M_0 .. M_{spans−1} for a closed spline (M_spans = M_0) and M_0 .. M_spans open.
  const auto h = [&](std::size_t k) { return knots_[k + 1] - knots_[k]; };
  const auto slope = [&](std::size_t k) -> Eigen::Vector3d { return (P_[k + 1] - P_[k]) / h(k); };
  const auto n = static_cast<Eigen::Index>(closed_ ? spans : spans + 1);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  Eigen::MatrixXd b = Eigen::MatrixXd::Zero(n, 3);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!closed_ && (i == 0 || i == n - 1)) {
      A(i, i) = 1.0;  // natural end: M = 0
      continue;
    }
    const std::size_t before = closed_ ? (k + spans - 1) % spans : k - 1;  // span ending at knot k
    const std::size_t after = k;                                           // span starting at knot k
    const Eigen::Index previous = closed_ ? (i + n - 1) % n : i - 1;
    const Eigen::Index next = closed_ ? (i + 1) % n : i + 1;
    A(i, previous) += h(before);
    A(i, i) += 2.0 * (h(before) + h(after));
    A(i, next) += h(after);
    b.row(i) = 6.0 * (slope(after) - slope(before)).transpose();
  }
  const Eigen::MatrixXd solution = A.partialPivLu().solve(b);
  for (Eigen::Index i = 0; i < n; ++i) M_.emplace_back(solution.row(i).transpose());
  if (closed_) M_.push_back(M_.front());
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
