// DistanceConstraint: a rod between two points, or between a point and a fixed world point,
// and, with DistanceSettings, the distance joint of the velocity level: a rigid rod, a spring,
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
//   model.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector2d(0, 0),
//                                                            DistanceSettings{.maxLength = 2.0}));   // a rope
#pragma once

#include <array>
#include <limits>
#include <optional>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/constraints/joint_settings.hpp"

namespace tinkertoy {

struct DistanceSettings {
  std::optional<double> length;  // L: a rigid rod, or with a spring its rest length, m
  std::optional<JointSpring> spring;
  double minLength = 0.0;                                       // 0: no minimum
  double maxLength = std::numeric_limits<double>::infinity();  // ∞: no maximum
};

class DistanceConstraint final : public Constraint {
 public:
  // A rigid rod of length > 0, in metres.
  DistanceConstraint(BodyPoint a, BodyPoint b, double length);
  // anchor: a fixed world point [dimension].
  DistanceConstraint(BodyPoint a, Eigen::VectorXd anchor, double length);
  DistanceConstraint(BodyPoint a, BodyPoint b, const DistanceSettings& settings);
  DistanceConstraint(BodyPoint a, Eigen::VectorXd anchor, const DistanceSettings& settings);

  [[nodiscard]] std::string_view type() const override { return "distance"; }
  [[nodiscard]] int rows() const override;
  [[nodiscard]] RowKind rowKind(int row) const override;
  [[nodiscard]] std::span<const BodyPoint> points() const override;
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;

  // The rod's length (or the spring's rest length); throws if there is none.
  [[nodiscard]] double length() const;
  void setLength(double length);
  [[nodiscard]] const DistanceSettings& settings() const { return settings_; }
  [[nodiscard]] const std::optional<Eigen::VectorXd>& anchor() const { return anchor_; }

 private:
  std::array<BodyPoint, 2> points_;
  std::optional<Eigen::VectorXd> anchor_;
  Eigen::Vector3d anchor3d_ = Eigen::Vector3d::Zero();
  DistanceSettings settings_;
};

}  // namespace tinkertoy
