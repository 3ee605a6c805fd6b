// PointOnPlaneConstraint (3D): the point slides on the plane through `origin` with normal
// `normal`. One row: C = n·(x − p) with n the unit normal (affine rows, J constant).
//
//   model.addConstraint(std::make_unique<PointOnPlaneConstraint>(p, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY()));
#pragma once

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class PointOnPlaneConstraint final : public Constraint {
 public:
  // origin, normal [3]; normal must be non-zero (it need not be unit length).
  PointOnPlaneConstraint(BodyPoint point, Eigen::VectorXd origin, Eigen::VectorXd normal);
  explicit PointOnPlaneConstraint(const PointOnPlaneConstraintSettings& s)
      : PointOnPlaneConstraint(s.point, s.origin, s.normal) {}

  [[nodiscard]] std::string_view type() const override { return PointOnPlaneConstraintSettings::type; }
  [[nodiscard]] int rows() const override { return 1; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return PointOnPlaneConstraintSettings{.point = point_, .origin = origin_, .normal = normal_};
  }

  [[nodiscard]] const Eigen::VectorXd& origin() const { return origin_; }
  [[nodiscard]] const Eigen::VectorXd& normal() const { return normal_; }

 private:
  BodyPoint point_;
  Eigen::VectorXd origin_;
  Eigen::VectorXd normal_;
  Eigen::Vector3d unitNormal_;
};

}  // namespace tinkertoy
