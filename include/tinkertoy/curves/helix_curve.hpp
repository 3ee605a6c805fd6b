// HelixCurve (3D): a wire winding about an axis, rising `pitch` metres per turn.
//
//   c(u)   = center + r (cos u e1 + sin u e2) + (p / 2π) u â
//   c'(u)  = r (−sin u e1 + cos u e2) + (p / 2π) â
//   c''(u) = −r (cos u e1 + sin u e2)
//
// with â the unit axis (default ŷ, up) and e1, e2 the in-plane axes of
// src/curves/plane_frame.hpp (for â = ŷ: e1 = ẑ, e2 = x̂). u is the winding angle; a positive
// pitch climbs along â as u grows. The speed |c'| = √(r² + (p/2π)²) is constant.
//
//   auto spiral = std::make_shared<tinkertoy::HelixCurve>(Eigen::Vector3d(0, 0, 0), 1.0, 0.5);
#pragma once

#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy {

class HelixCurve final : public Curve {
 public:
  // center [3]; radius > 0; pitch finite (m per turn); axis [3] non-zero.
  HelixCurve(Eigen::VectorXd center, double radius, double pitch,
             Eigen::Vector3d axis = Eigen::Vector3d::UnitY());
  explicit HelixCurve(const HelixCurveSettings& s) : HelixCurve(s.center, s.radius, s.pitch, s.axis) {}

  [[nodiscard]] std::string_view type() const override { return HelixCurveSettings::type; }
  [[nodiscard]] CurveSettings settings() const override {
    return HelixCurveSettings{.center = center_, .radius = radius_, .pitch = pitch_, .axis = axis_};
  }
  [[nodiscard]] int dimension() const override { return 3; }
  void validate() const override;
  [[nodiscard]] CurvePoint evaluate(double u) const override;

  [[nodiscard]] const Eigen::VectorXd& center() const { return center_; }
  [[nodiscard]] double radius() const { return radius_; }
  [[nodiscard]] double pitch() const { return pitch_; }
  [[nodiscard]] const Eigen::Vector3d& axis() const { return axis_; }

 private:
  Eigen::VectorXd center_;
  double radius_, pitch_;
  Eigen::Vector3d axis_, e1_, e2_;
};

}  // namespace tinkertoy
