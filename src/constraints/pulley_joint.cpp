#include "tinkertoy/constraints/pulley_joint.hpp"

#include <stdexcept>

#include "common/vector_checks.hpp"
#include "constraints/parts/distance_term.hpp"

namespace tinkertoy {

PulleyJoint::PulleyJoint(BodyPoint a, BodyPoint b, const Eigen::Vector2d& groundA, const Eigen::Vector2d& groundB,
                         double ratio, double length)
    : points_{a, b}, groundA_(groundA), groundB_(groundB), ratio_(ratio), length_(length) {}

void PulleyJoint::validate(int dimension) const {
  if (dimension != 2) throw std::invalid_argument("a pulley joint needs a 2D model");
  if (!groundA_.allFinite() || !groundB_.allFinite()) throw std::invalid_argument("pulley ground points must be finite");
  detail::requirePositive(ratio_, "pulley ratio");
  detail::requireRatio(ratio_, "pulley ratio");
  detail::requirePositive(length_, "pulley length");
  if (points_[0] == points_[1]) throw std::invalid_argument("a pulley cannot join a point to itself");
}

void PulleyJoint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const auto ground = [](const Eigen::Vector2d& g) { return detail::worldEnd(Eigen::Vector3d(g.x(), g.y(), 0.0)); };
  detail::ScalarTerm rope = detail::distanceTerm(detail::pointEnd(input, 0), ground(groundA_));
  const detail::ScalarTerm other = detail::distanceTerm(detail::pointEnd(input, 1), ground(groundB_));
  rope.value += ratio_ * other.value;
  rope.rate += ratio_ * other.rate;
  rope.gradient[1] = ratio_ * other.gradient[1];
  rope.gradientDot[1] = ratio_ * other.gradientDot[1];
  detail::writeRow(output, 0, rope, 1.0, length_, 2);
}

}  // namespace tinkertoy
