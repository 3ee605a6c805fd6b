// WeldJoint: glues a to b (or to the world): the points coincide and the relative angle holds.
//
//   rows 0, 1   C = x_a − x_b                  (axis terms on x̂, ŷ)
//   row 2       C = φ_a − φ_b − θ_ref          (an angle term)
//
// The three rows are solved together, as a 3 × 3 block, by the sequential-impulse solver.
//
//   model.addConstraint(std::make_unique<WeldJoint>(JointConnection{.a = {arm, anchor}, .b = BodyPoint{hand, anchor2}}));
#pragma once

#include "tinkertoy/constraints/joint.hpp"

namespace tinkertoy {

class WeldJoint final : public Joint {
 public:
  explicit WeldJoint(const JointConnection& connection, double referenceAngle = 0.0);
  explicit WeldJoint(const WeldJointSettings& s) : WeldJoint(s.connection, s.referenceAngle) {}

  [[nodiscard]] std::string_view type() const override { return WeldJointSettings::type; }
  [[nodiscard]] int rows() const override { return 3; }
  [[nodiscard]] bool usesAngle(std::size_t /*point*/) const override { return true; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return WeldJointSettings{.connection = connection(), .referenceAngle = referenceAngle_};
  }

  [[nodiscard]] double referenceAngle() const { return referenceAngle_; }

 private:
  double referenceAngle_;
};

}  // namespace tinkertoy
