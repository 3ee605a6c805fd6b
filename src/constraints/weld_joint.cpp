#include "tinkertoy/constraints/weld_joint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/angle_term.hpp"
#include "constraints/parts/axis_term.hpp"
#include "constraints/parts/joint_ends.hpp"

namespace tinkertoy {

WeldJoint::WeldJoint(const JointConnection& connection, double referenceAngle)
    : Joint(connection), referenceAngle_(referenceAngle) {}

void WeldJoint::validate(int dimension) const {
  requirePlanar(dimension);
  detail::requireFinite(referenceAngle_, "weld reference angle");
}

void WeldJoint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const auto [a, b] = detail::jointEnds(connection(), input);
  const std::size_t n = points().size();
  detail::writeRow(output, 0, detail::axisTerm(a, b, Eigen::Vector2d::UnitX(), false), 1.0, 0.0, n);
  detail::writeRow(output, 1, detail::axisTerm(a, b, Eigen::Vector2d::UnitY(), false), 1.0, 0.0, n);
  detail::writeRow(output, 2, detail::angleTerm(a, b), 1.0, referenceAngle_, n);
}

}  // namespace tinkertoy
