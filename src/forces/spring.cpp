#include "tinkertoy/forces/spring.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/core/bodies.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

// Positions and velocities of both ends.
struct Spring::Ends {
  Eigen::Vector3d xa, va, xb, vb;
};

Spring::Spring(BodyPoint a, BodyPoint b, SpringParameters parameters)
    : points_{a, b}, pointCount_(2), parameters_(parameters) {}

Spring::Spring(BodyPoint a, Eigen::VectorXd anchor, SpringParameters parameters)
    : points_{a, BodyPoint{}}, pointCount_(1), anchor_(std::move(anchor)), parameters_(parameters) {}

Spring::Spring(const SpringSettings& s)
    : points_{s.a, s.b.value_or(BodyPoint{})},
      pointCount_(s.b ? 2 : 1),
      anchor_(s.b ? std::nullopt : std::optional<Eigen::VectorXd>(s.anchor)),
      parameters_(s.parameters) {}

ForceSettings Spring::settings() const {
  return SpringSettings{.a = points_[0],
                        .b = anchor_ ? std::nullopt : std::optional<BodyPoint>(points_[1]),
                        .anchor = anchor_.value_or(Eigen::VectorXd()),
                        .parameters = parameters_};
}

std::span<const BodyPoint> Spring::points() const {
  return {points_.data(), static_cast<std::size_t>(pointCount_)};
}

namespace {

void validateParameters(const SpringParameters& parameters) {
  detail::requireNonNegative(parameters.stiffness, "spring stiffness");
  detail::requireNonNegative(parameters.damping, "spring damping");
  detail::requireNonNegative(parameters.rest_length, "spring rest length");
}

}  // namespace

void Spring::validate(int dimension) const {
  validateParameters(parameters_);
  if (anchor_) detail::requireDimension(*anchor_, dimension, "spring anchor");
  if (pointCount_ == 2 && points_[0] == points_[1]) {
    throw std::invalid_argument("a spring cannot join a point to itself");
  }
}

Spring::Ends Spring::ends(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  Ends e;
  bodies.pointKinematics(points_[0], state, k);
  e.xa = k.position;
  e.va = k.velocity;
  if (anchor_) {
    e.xb = padTo3d(*anchor_);
    e.vb.setZero();
  } else {
    bodies.pointKinematics(points_[1], state, k);
    e.xb = k.position;
    e.vb = k.velocity;
  }
  return e;
}

// f_a = −[k (ℓ − r) + c (ḋ·n)] n with d = x_a − x_b, ℓ = |d|, n = d/ℓ; f_b = −f_a.
void Spring::accumulate(const Bodies& bodies, const StateView& state,
                        Eigen::Ref<Eigen::VectorXd> Q) const {
  const Ends e = ends(bodies, state);
  const Eigen::Vector3d d = e.xa - e.xb;
  const double length = d.norm();
  if (length == 0.0) return;  // direction undefined: no force
  const Eigen::Vector3d n = d / length;
  const double magnitude =
      parameters_.stiffness * (length - parameters_.rest_length) + parameters_.damping * n.dot(e.va - e.vb);
  const Eigen::Vector3d fa = -magnitude * n;
  bodies.addPointForce(points_[0], state, fa, Q);
  if (!anchor_) bodies.addPointForce(points_[1], state, -fa, Q);
}

double Spring::stretch(const Bodies& bodies, const StateView& state) const {
  const Ends e = ends(bodies, state);
  return (e.xa - e.xb).norm() - parameters_.rest_length;
}

// V = ½ k (ℓ − r)².
double Spring::potentialEnergy(const Bodies& bodies, const StateView& state) const {
  const double s = stretch(bodies, state);
  return 0.5 * parameters_.stiffness * s * s;
}

// The damping force −c (ḋ·n) n on a and its opposite on b do work at the rate
// −c (ḋ·n) n·(ẋ_a − ẋ_b) = −c (ḋ·n)².
double Spring::power(const Bodies& bodies, const StateView& state) const {
  if (parameters_.damping == 0.0) return 0.0;
  const Ends e = ends(bodies, state);
  const Eigen::Vector3d d = e.xa - e.xb;
  const double length = d.norm();
  if (length == 0.0) return 0.0;
  const double rate = d.dot(e.va - e.vb) / length;
  return -parameters_.damping * rate * rate;
}

}  // namespace tinkertoy
