// PointOnLineConstraint: the point slides on a straight line through `origin` along
// `direction`. One row in 2D, two rows in 3D.
//
//   C_i = n_i·(x − p) for the line's normals n_i   (affine rows, J constant)
//
//   model.addConstraint(std::make_unique<PointOnLineConstraint>(p, Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0)));
#pragma once

#include <array>

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class PointOnLineConstraint final : public Constraint {
 public:
  // origin, direction [dimension]; direction must be non-zero (it need not be unit length).
  PointOnLineConstraint(BodyPoint point, Eigen::VectorXd origin, Eigen::VectorXd direction);
  explicit PointOnLineConstraint(const PointOnLineConstraintSettings& s)
      : PointOnLineConstraint(s.point, s.origin, s.direction) {}

  [[nodiscard]] std::string_view type() const override { return PointOnLineConstraintSettings::type; }
  [[nodiscard]] int rows() const override { return static_cast<int>(origin_.size()) - 1; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return PointOnLineConstraintSettings{.point = point_, .origin = origin_, .direction = direction_};
  }

  [[nodiscard]] const Eigen::VectorXd& origin() const { return origin_; }
  [[nodiscard]] const Eigen::VectorXd& direction() const { return direction_; }

 private:
  BodyPoint point_;
  Eigen::VectorXd origin_;
  Eigen::VectorXd direction_;
  std::array<Eigen::Vector3d, 2> normals_;
};

}  // namespace tinkertoy
