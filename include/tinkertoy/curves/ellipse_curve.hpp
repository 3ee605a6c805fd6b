// EllipseCurve: an ellipse with semi-axes a (along e1) and b (along e2) about a center.
//
//   c(u)   = center + a cos u e1 + b sin u e2
//   c'(u)  = −a sin u e1 + b cos u e2
//   c''(u) = −a cos u e1 − b sin u e2        = −(c(u) − center)
//
// u is the angle parameter (radians, counter-clockwise), not the polar angle of the point.
// In 2D e1 = x̂ and e2 = ŷ; in 3D the ellipse lies in the plane through the center with the
// given normal (default ẑ), with the axes of src/curves/plane_frame.hpp.
//
//   auto track = std::make_shared<tinkertoy::EllipseCurve>(Eigen::Vector2d(0, 0), 2.0, 1.0);
#pragma once

#include <numbers>

#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy {

class EllipseCurve : public Curve {
 public:
  // center [2 or 3]; semi-axes > 0 in metres; normal [3] (3D only; default ẑ).
  EllipseCurve(Eigen::VectorXd center, double semiAxisA, double semiAxisB,
               Eigen::Vector3d normal = Eigen::Vector3d::UnitZ());
  explicit EllipseCurve(const EllipseCurveSettings& s) : EllipseCurve(s.center, s.semiAxisA, s.semiAxisB, s.normal) {}

  [[nodiscard]] std::string_view type() const override { return EllipseCurveSettings::type; }
  [[nodiscard]] CurveSettings settings() const override {
    return EllipseCurveSettings{.center = center_, .semiAxisA = a_, .semiAxisB = b_, .normal = normal_};
  }
  [[nodiscard]] int dimension() const override { return static_cast<int>(center_.size()); }
  void validate() const override;
  [[nodiscard]] CurvePoint evaluate(double u) const override;
  [[nodiscard]] std::optional<Domain> domain() const override { return Domain{0.0, 2.0 * std::numbers::pi, true}; }

  [[nodiscard]] const Eigen::VectorXd& center() const { return center_; }
  [[nodiscard]] double semiAxisA() const { return a_; }
  [[nodiscard]] double semiAxisB() const { return b_; }
  [[nodiscard]] const Eigen::Vector3d& normal() const { return normal_; }

 protected:
  // Throws unless the center has 2 or 3 finite components and the normal is usable.
  void validatePlacement() const;

 private:
  Eigen::VectorXd center_;
  double a_, b_;
  Eigen::Vector3d normal_;
  Eigen::Vector3d e1_, e2_;
};

// CircleCurve: the ellipse with a = b = radius, so c(u) = center + r (cos u e1 + sin u e2)
// and u is the polar angle. This is the wire of Witkin's "Constrained Dynamics".
class CircleCurve final : public EllipseCurve {
 public:
  CircleCurve(Eigen::VectorXd center, double radius, Eigen::Vector3d normal = Eigen::Vector3d::UnitZ())
      : EllipseCurve(std::move(center), radius, radius, normal) {}
  explicit CircleCurve(const CircleCurveSettings& s) : CircleCurve(s.center, s.radius, s.normal) {}

  [[nodiscard]] std::string_view type() const override { return CircleCurveSettings::type; }
  [[nodiscard]] CurveSettings settings() const override {
    return CircleCurveSettings{.center = center(), .radius = radius(), .normal = normal()};
  }
  void validate() const override;
  [[nodiscard]] double radius() const { return semiAxisA(); }
};

}  // namespace tinkertoy
