#include "tinkertoy/constraints/path.hpp"

#include <stdexcept>

#include "common/vector_checks.hpp"

namespace tinkertoy {

CurvePath::CurvePath(std::shared_ptr<const Curve> curve, double speed, double phase)
    : curve_(std::move(curve)), speed_(speed), phase_(phase) {
  if (!curve_) throw std::invalid_argument("a path needs a curve");
}

void CurvePath::validate() const {
  curve_->validate();
  detail::requireFinite(speed_, "path speed");
  detail::requireFinite(phase_, "path phase");
}

PathSample CurvePath::sample(double time) const {
  const CurvePoint c = curve_->evaluate(phase_ + speed_ * time);
  return {c.position, speed_ * c.tangent, speed_ * speed_ * c.curvature};
}

}  // namespace tinkertoy
