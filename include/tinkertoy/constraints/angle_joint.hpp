// AngleJoint: fixes the angle of a's frame against b's (or the world's), through a gear ratio r:
//
//   C = φ_a − r φ_b − θ_ref        (an angle term; r = 1 keeps the relative angle)
//
// With r ≠ 1 the pair turns like two meshed gears (r = −1: in opposite directions at the same
// rate). The points do not matter, only their bodies' frames.
//
//   model.addConstraint(std::make_unique<AngleJoint>(JointConnection{.a = gearA, .b = BodyPoint{gearB}}, -2.0));
#pragma once

#include "tinkertoy/constraints/joint.hpp"

namespace tinkertoy {

class AngleJoint final : public Joint {
 public:
  explicit AngleJoint(const JointConnection& connection, double ratio = 1.0, double referenceAngle = 0.0);
  explicit AngleJoint(const AngleJointSettings& s) : AngleJoint(s.connection, s.ratio, s.referenceAngle) {}

  [[nodiscard]] std::string_view type() const override { return AngleJointSettings::type; }
  [[nodiscard]] int rows() const override { return 1; }
  [[nodiscard]] bool usesAngle(std::size_t /*point*/) const override { return true; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return AngleJointSettings{.connection = connection(), .ratio = ratio_, .referenceAngle = referenceAngle_};
  }

  [[nodiscard]] double ratio() const { return ratio_; }
  [[nodiscard]] double referenceAngle() const { return referenceAngle_; }

 private:
  double ratio_;
  double referenceAngle_;
};

}  // namespace tinkertoy
