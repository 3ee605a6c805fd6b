#include "tinkertoy/constraints/revolute_joint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/angle_term.hpp"
#include "constraints/parts/axis_term.hpp"
#include "constraints/parts/coordinate_rows.hpp"
#include "constraints/parts/joint_ends.hpp"

namespace tinkertoy {

RevoluteJoint::RevoluteJoint(const JointConnection& connection, double referenceAngle, const JointLimits& limits,
                             const std::optional<JointMotor>& motor)
    : Joint(connection), referenceAngle_(referenceAngle), limits_(limits), motor_(motor) {}

int RevoluteJoint::rows() const { return 2 + detail::CoordinateRows(limits_, motor_).count(); }

RowKind RevoluteJoint::rowKind(int row) const {
  return row < 2 ? RowKind::Equality : detail::CoordinateRows(limits_, motor_).kind(row - 2);
}

void RevoluteJoint::validate(int dimension) const {
  requirePlanar(dimension);
  detail::requireFinite(referenceAngle_, "revolute reference angle");
  detail::CoordinateRows(limits_, motor_).validate("revolute angle");
}

// Rows 0, 1: x_a − x_b along x̂ and ŷ. Then θ = φ_a − φ_b − θ_ref for the limits and motor.
void RevoluteJoint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const auto [a, b] = detail::jointEnds(connection(), input);
  const std::size_t n = points().size();
  detail::writeRow(output, 0, detail::axisTerm(a, b, Eigen::Vector2d::UnitX(), false), 1.0, 0.0, n);
  detail::writeRow(output, 1, detail::axisTerm(a, b, Eigen::Vector2d::UnitY(), false), 1.0, 0.0, n);
  const detail::CoordinateRows coordinate(limits_, motor_);
  if (coordinate.count() == 0) return;
  detail::ScalarTerm angle = detail::angleTerm(a, b);
  angle.value -= referenceAngle_;
  coordinate.write(output, 2, angle, n);
}

}  // namespace tinkertoy
