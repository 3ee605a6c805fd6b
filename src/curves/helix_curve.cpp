#include "tinkertoy/curves/helix_curve.hpp"

#include <cmath>
#include <numbers>

#include "common/vector_checks.hpp"
#include "curves/plane_frame.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

HelixCurve::HelixCurve(Eigen::VectorXd center, double radius, double pitch, Eigen::Vector3d axis)
    : center_(std::move(center)), radius_(radius), pitch_(pitch), axis_(axis) {
  if (!axis_.isZero(0.0)) {
    const detail::PlaneFrame frame = detail::planeFrame(axis_);
    e1_ = frame.e1;
    e2_ = frame.e2;
  }
}

void HelixCurve::validate() const {
  detail::requireDimension(center_, 3, "helix center");
  detail::requirePositive(radius_, "helix radius");
  detail::requireFinite(pitch_, "helix pitch");
  if (!axis_.allFinite() || axis_.isZero(0.0)) {
    throw std::invalid_argument("helix axis must be finite and non-zero");
  }
}

CurvePoint HelixCurve::evaluate(double u) const {
  const double c = std::cos(u), s = std::sin(u);
  const double rise = pitch_ / (2.0 * std::numbers::pi);
  const Eigen::Vector3d a = e1_.cross(e2_);  // the unit axis: planeFrame makes e2 = a × e1
  const Eigen::Vector3d radial = radius_ * (c * e1_ + s * e2_);
  return {padTo3d(center_) + radial + rise * u * a, radius_ * (-s * e1_ + c * e2_) + rise * a, -radial};
}

}  // namespace tinkertoy
