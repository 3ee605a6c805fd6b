// DistanceConstraint: a rigid rod between two points, or between a point and a
// fixed world point.  C = |x_a − x_b| − L  (derivation in src/constraints/parts/distance_part.hpp).
//
// λ is the rod force in newtons. The force on a is J_aᵀλ = λ n with n pointing from b to a,
// so λ < 0 means tension (the rod pulls a toward b) and λ > 0 compression.
//
//   model.addConstraint(std::make_unique<DistanceConstraint>(a, b, 1.0));
//   model.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector2d(0, 0), 1.0));
#pragma once

#include <array>
#include <optional>

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class DistanceConstraint final : public Constraint {
 public:
  // length > 0, in metres.
  DistanceConstraint(BodyPoint a, BodyPoint b, double length);
  // anchor: a fixed world point [dimension].
  DistanceConstraint(BodyPoint a, Eigen::VectorXd anchor, double length);

  [[nodiscard]] std::string_view type() const override { return "distance"; }
  [[nodiscard]] int rows() const override { return 1; }
  [[nodiscard]] std::span<const BodyPoint> points() const override;
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;

  [[nodiscard]] double length() const { return length_; }
  void setLength(double length);
  [[nodiscard]] const std::optional<Eigen::VectorXd>& anchor() const { return anchor_; }

 private:
  std::array<BodyPoint, 2> points_;
  std::optional<Eigen::VectorXd> anchor_;
  Eigen::Vector3d anchor3d_ = Eigen::Vector3d::Zero();
  double length_;
};

}  // namespace tinkertoy
