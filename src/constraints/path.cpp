#include "tinkertoy/constraints/path.hpp"

#include <cmath>

#include "common/vector_checks.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

CircularPath::CircularPath(Eigen::VectorXd center, double radius, double angularSpeed, double phase)
    : center_(std::move(center)), radius_(radius), angularSpeed_(angularSpeed), phase_(phase) {}

void CircularPath::validate() const {
  if (center_.size() != 2 && center_.size() != 3) {
    throw std::invalid_argument("path center must have 2 or 3 components");
  }
  if (!center_.allFinite()) throw std::invalid_argument("path center must be finite");
  detail::requirePositive(radius_, "path radius");
  detail::requireFinite(angularSpeed_, "path angular speed");
  detail::requireFinite(phase_, "path phase");
}

PathSample CircularPath::sample(double time) const {
  const double theta = phase_ + angularSpeed_ * time;
  const Eigen::Vector3d radial(std::cos(theta), std::sin(theta), 0.0);
  const Eigen::Vector3d tangent(-std::sin(theta), std::cos(theta), 0.0);
  PathSample s;
  s.position = padTo3d(center_) + radius_ * radial;
  s.velocity = radius_ * angularSpeed_ * tangent;
  s.acceleration = -radius_ * angularSpeed_ * angularSpeed_ * radial;
  return s;
}

}  // namespace tinkertoy
