#include "tinkertoy/forces/mouse_spring.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

MouseSpring::MouseSpring(ParticleId particle, Eigen::VectorXd target, double stiffness,
                         double damping)
    : particle_(particle), target_(std::move(target)), stiffness_(stiffness), damping_(damping) {}

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
Eigen::Vector3d MouseSpring::forceAt(const Model& model, const StateView& state) const {
  const std::size_t offset = model.offsetOf(particle_);
  const int d = model.dimension();
  return stiffness_ * (padTo3d(target_) - readPoint(state.q, offset, d)) -
         damping_ * readPoint(state.v, offset, d);
}

void MouseSpring::accumulate(const Model& model, const StateView& state,
                             Eigen::Ref<Eigen::VectorXd> Q) const {
  addToPoint(Q, model.offsetOf(particle_), model.dimension(), forceAt(model, state));
}

Eigen::VectorXd MouseSpring::currentForce(const Model& model) const {
  const StateView state{model.time(), model.q(), model.v()};
  return truncateTo(forceAt(model, state), model.dimension());
}

// V = ½ k |x − target|².
double MouseSpring::potentialEnergy(const Model& model, const StateView& state) const {
  const Eigen::Vector3d x = readPoint(state.q, model.offsetOf(particle_), model.dimension());
  return 0.5 * stiffness_ * (x - padTo3d(target_)).squaredNorm();
}

}  // namespace tinkertoy
