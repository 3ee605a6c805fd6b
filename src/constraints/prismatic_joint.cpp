#include "tinkertoy/constraints/prismatic_joint.hpp"

#include <stdexcept>

#include "common/vector_checks.hpp"
#include "constraints/parts/angle_term.hpp"
#include "constraints/parts/axis_term.hpp"
#include "constraints/parts/coordinate_rows.hpp"
#include "constraints/parts/joint_ends.hpp"

namespace tinkertoy {

PrismaticJoint::PrismaticJoint(const JointConnection& connection, const Eigen::Vector2d& axis, double referenceAngle,
                               const JointLimits& limits, const std::optional<JointMotor>& motor)
    : Joint(connection), axis_(axis.isZero(0.0) ? axis : axis.stableNormalized()), referenceAngle_(referenceAngle),
      limits_(limits), motor_(motor) {}

int PrismaticJoint::rows() const { return 2 + detail::CoordinateRows(limits_, motor_).count(); }

RowKind PrismaticJoint::rowKind(int row) const {
  return row < 2 ? RowKind::Equality : detail::CoordinateRows(limits_, motor_).kind(row - 2);
}

void PrismaticJoint::validate(int dimension) const {
  requirePlanar(dimension);
  if (!axis_.allFinite() || axis_.isZero(0.0)) throw std::invalid_argument("prismatic axis must be non-zero");
  detail::requireFinite(referenceAngle_, "prismatic reference angle");
  detail::CoordinateRows(limits_, motor_).validate("prismatic translation");
}

// The axis turns with b's frame when b is a body; the ground's is fixed.
void PrismaticJoint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const auto [a, b] = detail::jointEnds(connection(), input);
  const std::size_t n = points().size();
  const bool turning = connection().b.has_value();
  const Eigen::Vector2d normal(-axis_.y(), axis_.x());
  detail::writeRow(output, 0, detail::axisTerm(a, b, normal, turning), 1.0, 0.0, n);
  detail::writeRow(output, 1, detail::angleTerm(a, b), 1.0, referenceAngle_, n);
  const detail::CoordinateRows coordinate(limits_, motor_);
  if (coordinate.count() > 0) coordinate.write(output, 2, detail::axisTerm(a, b, axis_, turning), n);
}

}  // namespace tinkertoy
