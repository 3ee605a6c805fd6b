// SplineCurve: a smooth (C²) cubic spline through given points, open or closed.
//
// Parameter: chord length. The knots are t_0 = 0, t_k = t_{k−1} + |P_k − P_{k−1}|, so u is
// close to the distance travelled along the wire; a closed spline adds the chord from the
// last point back to the first and repeats with period T = t_n.
//
// On the span [t_k, t_{k+1}] of length h, with a = t_{k+1} − u and b = u − t_k, the spline is
// the cubic whose second derivatives at the knots are M_k and M_{k+1}:
//
//   c(u)   = M_k a³/(6h) + M_{k+1} b³/(6h) + (P_k − M_k h²/6) a/h + (P_{k+1} − M_{k+1} h²/6) b/h
//   c'(u)  = −M_k a²/(2h) + M_{k+1} b²/(2h) + (P_{k+1} − P_k)/h − (M_{k+1} − M_k) h/6
//   c''(u) = (M_k a + M_{k+1} b)/h
//
// Continuity of c' at every interior knot gives the tridiagonal system
//
//   h_{k−1} M_{k−1} + 2 (h_{k−1} + h_k) M_k + h_k M_{k+1} = 6 [(P_{k+1} − P_k)/h_k − (P_k − P_{k−1})/h_{k−1}]
//
// closed with M_0 = M_{n−1} = 0 for an open ("natural") spline or cyclically for a closed
// one, solved once at construction. An open spline continues beyond its ends along its end
// tangents; since M = 0 there, the continuation keeps the curve C².
//
//   auto coaster = std::make_shared<tinkertoy::SplineCurve>(points, /*closed=*/true);
#pragma once

#include <vector>

#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy {

class SplineCurve final : public Curve {
 public:
  // points: at least 2 (open) or 3 (closed), each [2 or 3], consecutive points distinct.
  // Throws std::invalid_argument naming the first bad point.
  SplineCurve(std::vector<Eigen::VectorXd> points, bool closed);
  explicit SplineCurve(const SplineCurveSettings& s) : SplineCurve(s.points, s.closed) {}

  [[nodiscard]] std::string_view type() const override { return SplineCurveSettings::type; }
  [[nodiscard]] CurveSettings settings() const override {
    return SplineCurveSettings{.points = points_, .closed = closed_};
  }
  [[nodiscard]] int dimension() const override { return dimension_; }
  void validate() const override {}  // the constructor validated everything
  [[nodiscard]] CurvePoint evaluate(double u) const override;
  [[nodiscard]] std::optional<Domain> domain() const override { return Domain{0.0, length(), closed_}; }

  [[nodiscard]] const std::vector<Eigen::VectorXd>& points() const { return points_; }
  [[nodiscard]] bool closed() const { return closed_; }
  // The parameter range [0, length()): the chord length of the control polygon.
  [[nodiscard]] double length() const { return knots_.back(); }

 private:
  std::vector<Eigen::VectorXd> points_;
  bool closed_;
  int dimension_;
  std::vector<Eigen::Vector3d> P_;      // the points, padded, with P_0 repeated at the end if closed
  std::vector<double> knots_;           // t_0 .. t_spans
  std::vector<Eigen::Vector3d> M_;      // second derivatives at the knots
};

}  // namespace tinkertoy
