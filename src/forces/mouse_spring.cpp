#include "tinkertoy/forces/mouse_spring.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/core/bodies.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

MouseSpring::MouseSpring(BodyPoint point, Eigen::VectorXd target, double stiffness,
                         double damping)
    : point_(point), target_(std::move(target)), stiffness_(stiffness), damping_(damping) {}

void MouseSpring::validate(int dimension) const {
  detail::requireDimension(target_, dimension, "mouse spring target");
  detail::requireNonNegative(stiffness_, "mouse spring stiffness");
  detail::requireNonNegative(damping_, "mouse spring damping");
}

void MouseSpring::setTarget(Eigen::VectorXd target) {
  detail::requireDimension(target, static_cast<int>(target_.size()), "mouse spring target");
  target_ = std::move(target);
}

// f = k (target − x) − c v.
Eigen::Vector3d MouseSpring::forceAt(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  bodies.pointKinematics(point_, state, k);
  return stiffness_ * (padTo3d(target_) - k.position) - damping_ * k.velocity;
}

void MouseSpring::accumulate(const Bodies& bodies, const StateView& state,
                             Eigen::Ref<Eigen::VectorXd> Q) const {
  bodies.addPointForce(point_, state, forceAt(bodies, state), Q);
}

double MouseSpring::power(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  bodies.pointKinematics(point_, state, k);
  return -damping_ * k.velocity.squaredNorm();
}

double MouseSpring::externalEnergy(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  bodies.pointKinematics(point_, state, k);
  return 0.5 * stiffness_ * (k.position - padTo3d(target_)).squaredNorm();
}

}  // namespace tinkertoy
