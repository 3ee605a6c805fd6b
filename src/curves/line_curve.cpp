#include "tinkertoy/curves/line_curve.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

LineCurve::LineCurve(Eigen::VectorXd origin, Eigen::VectorXd direction)
    : origin_(std::move(origin)), direction_(std::move(direction)), unit_(padTo3d(direction_).stableNormalized()) {}

void LineCurve::validate() const {
  if (origin_.size() != 2 && origin_.size() != 3) {
    throw std::invalid_argument("line origin must have 2 or 3 components");
  }
  detail::requireDimension(origin_, static_cast<int>(origin_.size()), "line origin");
  detail::requireDimension(direction_, static_cast<int>(origin_.size()), "line direction");
  if (direction_.isZero(0.0)) throw std::invalid_argument("line direction must be non-zero");
}

CurvePoint LineCurve::evaluate(double u) const {
  return {padTo3d(origin_) + u * unit_, unit_, Eigen::Vector3d::Zero()};
}

}  // namespace tinkertoy
