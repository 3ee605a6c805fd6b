#include "tinkertoy/forces/torque.hpp"

#include <stdexcept>

#include "common/vector_checks.hpp"
#include "tinkertoy/core/bodies.hpp"

namespace tinkertoy {

Torque::Torque(BodyId body, double torque) : point_(body), torque_(torque) {}

void Torque::validate(int dimension) const {
  if (dimension != 2) throw std::invalid_argument("a torque needs a 2D model (planar rigid bodies)");
  detail::requireFinite(torque_, "torque");
}

void Torque::accumulate(const Bodies& bodies, const StateView& state, Eigen::Ref<Eigen::VectorXd> Q) const {
  bodies.addPointTorque(point_, state, torque_, Q);
}

// V = −τ φ, so that the generalized force −∂V/∂q = τ J_φᵀ.
double Torque::potentialEnergy(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  bodies.pointKinematics(point_, state, k);
  return -torque_ * k.angle;
}

}  // namespace tinkertoy
