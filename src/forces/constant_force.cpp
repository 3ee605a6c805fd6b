#include "tinkertoy/forces/constant_force.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/core/bodies.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

ConstantForce::ConstantForce(BodyPoint point, Eigen::VectorXd force)
    : point_(point), force_(std::move(force)) {}

void ConstantForce::validate(int dimension) const {
  detail::requireDimension(force_, dimension, "constant force");
}

void ConstantForce::accumulate(const Bodies& bodies, const StateView& state,
                               Eigen::Ref<Eigen::VectorXd> Q) const {
  bodies.addPointForce(point_, state, padTo3d(force_), Q);
}

// V = −F·x, so that f = −∂V/∂x = F.
double ConstantForce::potentialEnergy(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  bodies.pointKinematics(point_, state, k);
  return -padTo3d(force_).dot(k.position);
}

}  // namespace tinkertoy
