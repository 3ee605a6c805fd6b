#include "tinkertoy/forces/drag.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/core/bodies.hpp"

namespace tinkertoy {

Drag::Drag(double coefficient) : coefficient_(coefficient) {}

void Drag::validate(int /*dimension*/) const {
  detail::requireNonNegative(coefficient_, "drag coefficient");
}

// f_i = −c ẋ_i at every point of every body, applied as J_iᵀ f_i. For a particle ẋ = v.
void Drag::accumulate(const Bodies& bodies, const StateView& state,
                      Eigen::Ref<Eigen::VectorXd> Q) const {
  PointKinematics k;
  for (std::size_t b = 0; b < bodies.count(); ++b) {
    const BodyId id = bodies.idAt(b);
    for (int i = 0; i < bodies.body(id).pointCount(); ++i) {
      bodies.pointKinematics({id, i}, state, k);
      bodies.addPointForce({id, i}, state, -coefficient_ * k.velocity, Q);
    }
  }
}

double Drag::power(const Bodies& bodies, const StateView& state) const {
  PointKinematics k;
  double speedsSquared = 0.0;
  for (std::size_t b = 0; b < bodies.count(); ++b) {
    const BodyId id = bodies.idAt(b);
    for (int i = 0; i < bodies.body(id).pointCount(); ++i) {
      bodies.pointKinematics({id, i}, state, k);
      speedsSquared += k.velocity.squaredNorm();
    }
  }
  return -coefficient_ * speedsSquared;
}

}  // namespace tinkertoy
