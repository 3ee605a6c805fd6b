#include "tinkertoy/constraints/point_on_circle_constraint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/distance_part.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

PointOnCircleConstraint::PointOnCircleConstraint(BodyPoint point, Eigen::VectorXd center,
                                                 double radius)
    : point_(point), center_(std::move(center)), center3d_(padTo3d(center_)),
      radius_(radius) {}

void PointOnCircleConstraint::validate(int dimension) const {
  detail::requireDimension(center_, dimension, "circle center");
  detail::requirePositive(radius_, "circle radius");
}

// The distance part with b = the fixed center: J = nᵀ with n the outward normal.
void PointOnCircleConstraint::evaluate(const ConstraintInput& input,
                                       ConstraintOutput& output) const {
  const detail::DistanceRow row = detail::evaluateDistance(
      input.positions[0], input.velocities[0], center3d_, Eigen::Vector3d::Zero(), radius_);
  output.setValue(0, row.C);
  output.setVelocity(0, row.Cdot);
  output.setJacobian(0, 0, row.gradient);
  output.setJacobianDot(0, 0, row.gradientDot);
}

}  // namespace tinkertoy
