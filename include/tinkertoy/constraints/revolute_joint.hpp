// RevoluteJoint: a pin. Point a and point b (or the ground point) coincide, and the bodies turn
// freely about it, within optional angle limits, optionally driven by a motor.
//
//   rows 0, 1   C = x_a − x_b                        (two axis terms on x̂, ŷ: a 2 × 2 block)
//   then        limits and motor on the joint angle  θ = φ_a − φ_b − θ_ref
//
// θ is the angle of a's frame relative to b's (to the world if b is the ground), zero at
// θ_ref, which the scene loader sets to the initial relative angle. λ of rows 0 and 1 is the
// force on a (N); the motor's is its torque (N·m).
//
//   model.addConstraint(std::make_unique<RevoluteJoint>(
//       JointConnection{.a = {rod, Eigen::Vector2d(-0.5, 0)}, .ground = Eigen::Vector2d(0, 0)}));
#pragma once

#include <optional>

#include "tinkertoy/constraints/joint.hpp"

namespace tinkertoy {

class RevoluteJoint final : public Joint {
 public:
  RevoluteJoint(const JointConnection& connection, double referenceAngle = 0.0, const JointLimits& limits = {},
                const std::optional<JointMotor>& motor = std::nullopt);
  explicit RevoluteJoint(const RevoluteJointSettings& s)
      : RevoluteJoint(s.connection, s.referenceAngle, s.limits, s.motor) {}

  [[nodiscard]] std::string_view type() const override { return RevoluteJointSettings::type; }
  [[nodiscard]] int rows() const override;
  [[nodiscard]] RowKind rowKind(int row) const override;
  [[nodiscard]] bool usesAngle(std::size_t /*point*/) const override { return rows() > 2; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return RevoluteJointSettings{
        .connection = connection(), .referenceAngle = referenceAngle_, .limits = limits_, .motor = motor_};
  }

  [[nodiscard]] double referenceAngle() const { return referenceAngle_; }
  [[nodiscard]] const JointLimits& limits() const { return limits_; }
  [[nodiscard]] const std::optional<JointMotor>& motor() const { return motor_; }

 private:
  double referenceAngle_;
  JointLimits limits_;
  std::optional<JointMotor> motor_;
};

}  // namespace tinkertoy
