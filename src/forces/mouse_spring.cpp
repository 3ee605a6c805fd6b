#include "tinkertoy/forces/mouse_spring.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/core/bodies.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

MouseSpring::MouseSpring(BodyPoint point, Eigen::VectorXd target, double stiffness, double damping)
    : MouseSpring(MouseSpringSettings{.point = point, .target = std::move(target), .stiffness = stiffness, .damping = damping}) {}

void MouseSpring::validate(int dimension) const {
  detail::requireDimension(s_.target, dimension, "mouse spring target");
  detail::requireNonNegative(s_.stiffness, "mouse spring stiffness");
  detail::requireNonNegative(s_.damping, "mouse spring damping");
}

// f = k (target − x) − c v.
Eigen::Vector3d mouseSpringForce(const MouseSpringSettings& s, const Bodies& bodies, const StateView& state) {
  PointKinematics k;
  bodies.pointKinematics(s.point, state, k);
  return s.stiffness * (padTo3d(s.target) - k.position) - s.damping * k.velocity;
}

void MouseSpring::accumulate(const Bodies& bodies, const StateView& state,
                             Eigen::Ref<Eigen::VectorXd> Q) const {
  bodies.addPointForce(s_.point, state, mouseSpringForce(s_, bodies, state), Q);
}

double MouseSpring::power(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  bodies.pointKinematics(s_.point, state, k);
  return -s_.damping * k.velocity.squaredNorm();
}

double MouseSpring::externalEnergy(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  bodies.pointKinematics(s_.point, state, k);
  return 0.5 * s_.stiffness * (k.position - padTo3d(s_.target)).squaredNorm();
}

}  // namespace tinkertoy
