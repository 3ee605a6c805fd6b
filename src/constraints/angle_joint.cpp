#include "tinkertoy/constraints/angle_joint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/angle_term.hpp"
#include "constraints/parts/joint_ends.hpp"

namespace tinkertoy {

AngleJoint::AngleJoint(const JointConnection& connection, double ratio, double referenceAngle)
    : Joint(connection), ratio_(ratio), referenceAngle_(referenceAngle) {}

void AngleJoint::validate(int dimension) const {
  requirePlanar(dimension);
  detail::requireRatio(ratio_, "angle joint ratio");
  detail::requireFinite(referenceAngle_, "angle joint reference angle");
}

void AngleJoint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const auto [a, b] = detail::jointEnds(connection(), input);
  detail::writeRow(output, 0, detail::angleTerm(a, b, ratio_), 1.0, referenceAngle_, points().size());
}

}  // namespace tinkertoy
