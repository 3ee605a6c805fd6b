#include "tinkertoy/constraints/distance_constraint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/distance_part.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

DistanceConstraint::DistanceConstraint(BodyPoint a, BodyPoint b, double length)
    : points_{a, b}, length_(length) {}

DistanceConstraint::DistanceConstraint(BodyPoint a, Eigen::VectorXd anchor, double length)
    : points_{a, BodyPoint{}}, anchor_(std::move(anchor)), anchor3d_(padTo3d(*anchor_)),
      length_(length) {}

std::span<const BodyPoint> DistanceConstraint::points() const {
  return {points_.data(), anchor_ ? 1u : 2u};
}

void DistanceConstraint::validate(int dimension) const {
  detail::requirePositive(length_, "rod length");
  if (anchor_) detail::requireDimension(*anchor_, dimension, "rod anchor");
  if (!anchor_ && points_[0] == points_[1]) {
    throw std::invalid_argument("a rod cannot join a point to itself");
  }
}

void DistanceConstraint::setLength(double length) {
  detail::requirePositive(length, "rod length");
  length_ = length;
}

// Point–point: G = [nᵀ, −nᵀ]; point–anchor: the anchor has no block.
void DistanceConstraint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const Eigen::Vector3d& xa = input.positions[0];
  const Eigen::Vector3d& va = input.velocities[0];
  const bool anchored = anchor_.has_value();
  const Eigen::Vector3d xb = anchored ? anchor3d_ : input.positions[1];
  const Eigen::Vector3d vb = anchored ? Eigen::Vector3d::Zero() : input.velocities[1];
  const detail::DistanceRow row = detail::evaluateDistance(xa, va, xb, vb, length_);
  output.setValue(0, row.C);
  output.setVelocity(0, row.Cdot);
  output.setJacobian(0, 0, row.gradient);
  output.setJacobianDot(0, 0, row.gradientDot);
  if (!anchored) {
    output.setJacobian(1, 0, -row.gradient);
    output.setJacobianDot(1, 0, -row.gradientDot);
  }
}

}  // namespace tinkertoy
