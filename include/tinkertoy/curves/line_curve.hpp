// LineCurve: a straight wire through an origin along a direction, parametrized by arc length.
//
//   c(u) = origin + u d̂,   c'(u) = d̂,   c''(u) = 0,      d̂ = direction / |direction|
//
// The scene format's "line" gives origin and direction; its "segment" from a to b is the same
// curve with origin a and direction b − a, so u = 0 at a and u = |b − a| at b. A bead is not
// stopped at a segment's ends: the wire continues straight.
//
//   auto rail = std::make_shared<tinkertoy::LineCurve>(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, -1));
#pragma once

#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy {

class LineCurve final : public Curve {
 public:
  // origin, direction [2 or 3]; direction non-zero (any length).
  LineCurve(Eigen::VectorXd origin, Eigen::VectorXd direction);
  explicit LineCurve(const LineCurveSettings& s) : LineCurve(s.origin, s.direction) {}

  [[nodiscard]] std::string_view type() const override { return LineCurveSettings::type; }
  [[nodiscard]] CurveSettings settings() const override {
    return LineCurveSettings{.origin = origin_, .direction = direction_};
  }
  [[nodiscard]] int dimension() const override { return static_cast<int>(origin_.size()); }
  void validate() const override;
  [[nodiscard]] CurvePoint evaluate(double u) const override;

  [[nodiscard]] const Eigen::VectorXd& origin() const { return origin_; }
  [[nodiscard]] const Eigen::VectorXd& direction() const { return direction_; }

 private:
  Eigen::VectorXd origin_, direction_;
  Eigen::Vector3d unit_;  // d̂, of any direction's finite length (stableNormalized)
};

}  // namespace tinkertoy
