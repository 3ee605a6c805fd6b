#include "tinkertoy/forces/drag.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

Drag::Drag(double coefficient) : coefficient_(coefficient) {}

void Drag::validate(int /*dimension*/) const {
  detail::requireNonNegative(coefficient_, "drag coefficient");
}

// f_i = −c ẋ_i at every point of every body, applied as J_iᵀ f_i. For a particle ẋ = v.
void Drag::accumulate(const Model& model, const StateView& state,
                      Eigen::Ref<Eigen::VectorXd> Q) const {
  PointKinematics k;
  for (std::size_t b = 0; b < model.bodyCount(); ++b) {
    const BodyId id = model.bodyAt(b);
    for (int i = 0; i < model.body(id).pointCount(); ++i) {
      model.pointKinematics({id, i}, state, k);
      model.addPointForce({id, i}, state, -coefficient_ * k.velocity, Q);
    }
  }
}

double Drag::power(const Model& model, const StateView& state) const {
  PointKinematics k;
  double speedsSquared = 0.0;
  for (std::size_t b = 0; b < model.bodyCount(); ++b) {
    const BodyId id = model.bodyAt(b);
    for (int i = 0; i < model.body(id).pointCount(); ++i) {
      model.pointKinematics({id, i}, state, k);
      speedsSquared += k.velocity.squaredNorm();
    }
  }
  return -coefficient_ * speedsSquared;
}

}  // namespace tinkertoy
