// PointOnCircleConstraint: the bead on a wire (Witkin, "Constrained Dynamics", §2). The point stays on the
// circle with the given center and radius; in 3D the circle is a sphere.
//
//   C = |x − c| − r       (derivation in src/constraints/parts/distance_part.hpp)
//
//   model.addConstraint(std::make_unique<PointOnCircleConstraint>(bead, Eigen::Vector2d(0, 0), 1.0));
#pragma once

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class PointOnCircleConstraint final : public Constraint {
 public:
  // center [dimension]; radius > 0 in metres.
  PointOnCircleConstraint(BodyPoint point, Eigen::VectorXd center, double radius);
  explicit PointOnCircleConstraint(const PointOnCircleConstraintSettings& s)
      : PointOnCircleConstraint(s.point, s.center, s.radius) {}

  [[nodiscard]] std::string_view type() const override { return PointOnCircleConstraintSettings::type; }
  [[nodiscard]] int rows() const override { return 1; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return PointOnCircleConstraintSettings{.point = point_, .center = center_, .radius = radius_};
  }

  [[nodiscard]] const Eigen::VectorXd& center() const { return center_; }
  [[nodiscard]] double radius() const { return radius_; }

 private:
  BodyPoint point_;
  Eigen::VectorXd center_;
  Eigen::Vector3d center3d_;
  double radius_;
};

}  // namespace tinkertoy
