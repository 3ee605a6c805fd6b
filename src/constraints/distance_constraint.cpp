#include "tinkertoy/constraints/distance_constraint.hpp"

#include <cmath>

#include "common/vector_checks.hpp"
#include "constraints/parts/distance_term.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

DistanceConstraint::DistanceConstraint(BodyPoint a, BodyPoint b, double length)
    : DistanceConstraint(DistanceConstraintSettings{.a = a, .b = b, .length = length}) {}

DistanceConstraint::DistanceConstraint(BodyPoint a, Eigen::VectorXd anchor, double length)
    : DistanceConstraint(DistanceConstraintSettings{.a = a, .anchor = std::move(anchor), .length = length}) {}

DistanceConstraint::DistanceConstraint(DistanceConstraintSettings settings)
    : settings_(std::move(settings)), points_{settings_.a, settings_.b.value_or(BodyPoint{})} {
  if (!settings_.b) anchor3d_ = padTo3d(settings_.anchor);
}

std::span<const BodyPoint> DistanceConstraint::points() const {
  return {points_.data(), settings_.b ? 2u : 1u};
}

// Rows in order: the rod or spring (if a length is set), the minimum, the maximum.
int DistanceConstraint::rows() const {
  return (settings_.length ? 1 : 0) + (settings_.minLength > 0.0 ? 1 : 0) + (std::isfinite(settings_.maxLength) ? 1 : 0);
}

RowKind DistanceConstraint::rowKind(int row) const {
  if (settings_.length && row == 0) return settings_.spring ? RowKind::Spring : RowKind::Equality;
  return RowKind::Inequality;
}

void DistanceConstraint::validate(int dimension) const {
  if (!settings_.b) detail::requireDimension(settings_.anchor, dimension, "rod anchor");
  if (settings_.b && points_[0] == points_[1]) throw std::invalid_argument("a rod cannot join a point to itself");
  if (rows() == 0) throw std::invalid_argument("a distance joint needs a length, a minimum or a maximum");
  if (settings_.length) detail::requirePositive(*settings_.length, "rod length");
  detail::requireNonNegative(settings_.minLength, "minimum length");
  if (std::isnan(settings_.maxLength) || settings_.maxLength <= 0.0) {
    throw std::invalid_argument("maximum length must be positive");
  }
  if (settings_.minLength >= settings_.maxLength) throw std::invalid_argument("minimum length must be below the maximum");
  if (settings_.length && !settings_.spring && rows() > 1) {
    throw std::invalid_argument("a rigid rod cannot also have a minimum or maximum length; give it a spring");
  }
  if (settings_.spring) {
    if (!settings_.length) throw std::invalid_argument("a distance spring needs a rest length");
    detail::requirePositive(settings_.spring->frequency, "spring frequency");
    detail::requireNonNegative(settings_.spring->dampingRatio, "spring damping ratio");
  }
}

// One distance ℓ = |x_a − x_b| (distance_part.hpp) serves every row; each is C = ±ℓ − offset.
void DistanceConstraint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const bool twoPoints = settings_.b.has_value();
  const Eigen::Vector3d& xb = twoPoints ? input.positions[1] : anchor3d_;
  const Eigen::Vector3d vb = twoPoints ? input.velocities[1] : Eigen::Vector3d::Zero();
  const detail::DistanceRow l = detail::evaluateDistance(input.positions[0], input.velocities[0], xb, vb, 0.0);
  int row = 0;
  if (settings_.length) {
    detail::writeDistanceRow(output, row, l, 1.0, *settings_.length, twoPoints);
    if (settings_.spring) {
      output.setParameters(row, {.frequency = settings_.spring->frequency,
                                 .dampingRatio = settings_.spring->dampingRatio});
    }
    ++row;
  }
  if (settings_.minLength > 0.0) detail::writeDistanceRow(output, row++, l, 1.0, settings_.minLength, twoPoints);
  if (std::isfinite(settings_.maxLength)) detail::writeDistanceRow(output, row, l, -1.0, -settings_.maxLength, twoPoints);
}

}  // namespace tinkertoy
