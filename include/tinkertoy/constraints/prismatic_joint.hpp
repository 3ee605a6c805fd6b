// PrismaticJoint: a slider. Point a moves along an axis fixed in b's frame (in the world if b is
// the ground), and the relative rotation is locked; the translation may have limits and a motor.
//
//   row 0   C = n·(x_a − x_b)              n ⊥ the axis, turning with b   (an axis term)
//   row 1   C = φ_a − φ_b − θ_ref                                          (an angle term)
//   then    limits and motor on the translation s = u·(x_a − x_b), u the unit axis
//
// `axis` is the slide direction in b's frame at φ_b = 0 (in the world for the ground); the
// scene loader converts the world direction given at the initial pose. s is zero where a's
// point and b's coincide, which is the initial pose when both sit at the joint's anchor.
//
//   model.addConstraint(std::make_unique<PrismaticJoint>(
//       JointConnection{.a = piston, .ground = Eigen::Vector2d(0, 0)}, Eigen::Vector2d(1, 0)));
#pragma once

#include <optional>

#include "tinkertoy/constraints/joint.hpp"

namespace tinkertoy {

class PrismaticJoint final : public Joint {
 public:
  PrismaticJoint(const JointConnection& connection, const Eigen::Vector2d& axis, double referenceAngle = 0.0,
                 const JointLimits& limits = {}, const std::optional<JointMotor>& motor = std::nullopt);
  explicit PrismaticJoint(const PrismaticJointSettings& s)
      : PrismaticJoint(s.connection, s.axis, s.referenceAngle, s.limits, s.motor) {}

  [[nodiscard]] std::string_view type() const override { return PrismaticJointSettings::type; }
  [[nodiscard]] int rows() const override;
  [[nodiscard]] RowKind rowKind(int row) const override;
  [[nodiscard]] bool usesAngle(std::size_t /*point*/) const override { return true; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return PrismaticJointSettings{.connection = connection(), .axis = axis_, .referenceAngle = referenceAngle_,
                                  .limits = limits_, .motor = motor_};
  }

  [[nodiscard]] const Eigen::Vector2d& axis() const { return axis_; }
  [[nodiscard]] double referenceAngle() const { return referenceAngle_; }
  [[nodiscard]] const JointLimits& limits() const { return limits_; }
  [[nodiscard]] const std::optional<JointMotor>& motor() const { return motor_; }

 private:
  Eigen::Vector2d axis_;  // unit
  double referenceAngle_;
  JointLimits limits_;
  std::optional<JointMotor> motor_;
};

}  // namespace tinkertoy
