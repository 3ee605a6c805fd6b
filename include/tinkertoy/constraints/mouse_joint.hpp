// MouseJoint: pulls a body point toward a target that the user moves, softly and with a
// bounded force (Box2D's mouse joint), so a dragged model follows the cursor without
// tearing its other joints.
//
//   rows 0, 1   C = x_a − target              (axis terms on x̂, ŷ), both Spring rows
//
// with the spring's frequency and damping ratio, and |λ| ≤ maxForce as a 2D vector. Velocity
// level only; at the acceleration level use the MouseSpring force.
//
//   auto drag = model.addConstraint(std::make_unique<MouseJoint>(BodyPoint{box, grab}, cursor,
//                                                                JointSpring{5.0, 0.7}, 500.0));
#pragma once

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/constraints/joint_settings.hpp"

namespace tinkertoy {

class MouseJoint final : public Constraint {
 public:
  // spring.frequency > 0; maxForce > 0, N.
  MouseJoint(BodyPoint point, const Eigen::Vector2d& target, const JointSpring& spring, double maxForce);
  explicit MouseJoint(const MouseJointSettings& s) : MouseJoint(s.point, s.target, s.spring, s.maxForce) {}

  [[nodiscard]] std::string_view type() const override { return MouseJointSettings::type; }
  [[nodiscard]] int rows() const override { return 2; }
  [[nodiscard]] RowKind rowKind(int /*row*/) const override { return RowKind::Spring; }
  // The user's hand does the work, not a spring of the model.
  [[nodiscard]] WorkSource workSource(int /*row*/) const override { return WorkSource::Mouse; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return MouseJointSettings{.point = point_, .target = target_, .spring = spring_, .maxForce = maxForce_};
  }

  [[nodiscard]] const Eigen::Vector2d& target() const { return target_; }
  [[nodiscard]] const JointSpring& spring() const { return spring_; }
  [[nodiscard]] double maxForce() const { return maxForce_; }

 private:
  BodyPoint point_;
  Eigen::Vector2d target_;
  JointSpring spring_;
  double maxForce_;
};

}  // namespace tinkertoy
