#include "tinkertoy/forces/constant_force.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

ConstantForce::ConstantForce(ParticleId particle, Eigen::VectorXd force)
    : particle_(particle), force_(std::move(force)) {}

void ConstantForce::validate(int dimension) const {
  detail::requireDimension(force_, dimension, "constant force");
}

void ConstantForce::accumulate(const Model& model, const StateView& /*state*/,
                               Eigen::Ref<Eigen::VectorXd> Q) const {
  addToPoint(Q, model.offsetOf(particle_), model.dimension(), padTo3d(force_));
}

// V = −F·x, so that f = −∂V/∂x = F.
double ConstantForce::potentialEnergy(const Model& model, const StateView& state) const {
  return -padTo3d(force_).dot(readPoint(state.q, model.offsetOf(particle_), model.dimension()));
}

}  // namespace tinkertoy
