#include "tinkertoy/constraints/mouse_joint.hpp"

#include <stdexcept>

#include "common/vector_checks.hpp"
#include "constraints/parts/axis_term.hpp"

namespace tinkertoy {

MouseJoint::MouseJoint(BodyPoint point, const Eigen::Vector2d& target, const JointSpring& spring, double maxForce)
    : point_(point), target_(target), spring_(spring), maxForce_(maxForce) {}

void MouseJoint::validate(int dimension) const {
  if (dimension != 2) throw std::invalid_argument("a mouse joint needs a 2D model");
  if (!target_.allFinite()) throw std::invalid_argument("mouse joint target must be finite");
  detail::requirePositive(spring_.frequency, "mouse joint frequency");
  detail::requireNonNegative(spring_.dampingRatio, "mouse joint damping ratio");
  detail::requirePositive(maxForce_, "mouse joint maximum force");
}

void MouseJoint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const detail::JointEnd a = detail::pointEnd(input, 0);
  const detail::JointEnd target = detail::worldEnd(Eigen::Vector3d(target_.x(), target_.y(), 0.0));
  const RowParameters parameters{.maxForce = maxForce_, .frequency = spring_.frequency,
                                 .dampingRatio = spring_.dampingRatio};
  for (int row = 0; row < 2; ++row) {
    detail::writeRow(output, row, detail::axisTerm(a, target, row == 0 ? Eigen::Vector2d::UnitX() : Eigen::Vector2d::UnitY(), false),
                     1.0, 0.0, 1);
    output.setParameters(row, parameters);
  }
}

}  // namespace tinkertoy
