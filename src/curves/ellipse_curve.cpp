#include "tinkertoy/curves/ellipse_curve.hpp"

#include <cmath>

#include "common/vector_checks.hpp"
#include "curves/plane_frame.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

EllipseCurve::EllipseCurve(Eigen::VectorXd center, double semiAxisA, double semiAxisB,
                           Eigen::Vector3d normal)
    : center_(std::move(center)), a_(semiAxisA), b_(semiAxisB), normal_(normal) {
  const detail::PlaneFrame frame = center_.size() == 3 && !normal_.isZero(0.0)
                                       ? detail::planeFrame(normal_)
                                       : detail::PlaneFrame{Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY()};
  e1_ = frame.e1;
  e2_ = frame.e2;
}

void EllipseCurve::validatePlacement() const {
  const std::string what(type());
  if (center_.size() != 2 && center_.size() != 3) {
    throw std::invalid_argument(what + " center must have 2 or 3 components");
  }
  if (!center_.allFinite()) throw std::invalid_argument(what + " center must be finite");
  if (!normal_.allFinite() || normal_.isZero(0.0)) {
    throw std::invalid_argument(what + " normal must be finite and non-zero");
  }
}

void EllipseCurve::validate() const {
  validatePlacement();
  detail::requirePositive(a_, "ellipse semi-axis a");
  detail::requirePositive(b_, "ellipse semi-axis b");
}

void CircleCurve::validate() const {
  validatePlacement();
  detail::requirePositive(radius(), "circle radius");
}

CurvePoint EllipseCurve::evaluate(double u) const {
  const double c = std::cos(u), s = std::sin(u);
  const Eigen::Vector3d radial = a_ * c * e1_ + b_ * s * e2_;
  return {padTo3d(center_) + radial, -a_ * s * e1_ + b_ * c * e2_, -radial};
}

}  // namespace tinkertoy
