// DistanceConstraint: a rod between two points, or between a point and a fixed world point,
// and, with DistanceConstraintSettings, the distance joint of the velocity level: a rigid rod, a spring,
// a minimum and/or a maximum length. A maximum length alone is a rope.
//
//   ℓ = |x_a − x_b|   (derivation in src/constraints/parts/distance_part.hpp)
//
//   rigid rod       C = ℓ − L              Equality
//   spring          C = ℓ − L              Spring (frequency, damping ratio)
//   minimum         C = ℓ − min ≥ 0        Inequality
//   maximum         C = max − ℓ ≥ 0        Inequality
//
// For the rod, λ is the force in newtons. The force on a is J_aᵀλ = λ n with n pointing from b
// to a, so λ < 0 means tension (the rod pulls a toward b) and λ > 0 compression.
//
//   model.addConstraint(std::make_unique<DistanceConstraint>(a, b, 1.0));
//   model.addConstraint(std::make_unique<DistanceConstraint>(DistanceConstraintSettings{
//       .a = a, .anchor = Eigen::Vector2d(0, 0), .maxLength = 2.0}));                     // a rope
#pragma once

#include <array>

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class DistanceConstraint final : public Constraint {
 public:
  // A rigid rod of length > 0, in metres.
  DistanceConstraint(BodyPoint a, BodyPoint b, double length);
  // anchor: a fixed world point [dimension].
  DistanceConstraint(BodyPoint a, Eigen::VectorXd anchor, double length);
  // A rod, spring, rope or strut (constraints/constraint_settings.hpp).
  explicit DistanceConstraint(DistanceConstraintSettings settings);

  [[nodiscard]] std::string_view type() const override { return DistanceConstraintSettings::type; }
  [[nodiscard]] int rows() const override;
  [[nodiscard]] RowKind rowKind(int row) const override;
  [[nodiscard]] std::span<const BodyPoint> points() const override;
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override { return settings_; }

 private:
  DistanceConstraintSettings settings_;
  std::array<BodyPoint, 2> points_;
  Eigen::Vector3d anchor3d_ = Eigen::Vector3d::Zero();
};

}  // namespace tinkertoy
