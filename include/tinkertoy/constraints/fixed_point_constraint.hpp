// FixedPointConstraint: a nail. The point stays at a fixed location; d rows.
//
//   C = x − p,  J = I,  J̇ = 0   (affine rows with the coordinate axes as normals)
//
//   model.addConstraint(std::make_unique<FixedPointConstraint>(p, model.position(p)));
#pragma once

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class FixedPointConstraint final : public Constraint {
 public:
  // location: where the point is nailed [dimension].
  FixedPointConstraint(BodyPoint point, Eigen::VectorXd location);
  explicit FixedPointConstraint(const FixedPointConstraintSettings& s) : FixedPointConstraint(s.point, s.location) {}

  [[nodiscard]] std::string_view type() const override { return FixedPointConstraintSettings::type; }
  [[nodiscard]] int rows() const override { return static_cast<int>(location_.size()); }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return FixedPointConstraintSettings{.point = point_, .location = location_};
  }

  [[nodiscard]] const Eigen::VectorXd& location() const { return location_; }

 private:
  BodyPoint point_;
  Eigen::VectorXd location_;
};

}  // namespace tinkertoy
