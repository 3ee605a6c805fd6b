#include "tinkertoy/forces/drag.hpp"

#include "common/vector_checks.hpp"

namespace tinkertoy {

Drag::Drag(double coefficient) : coefficient_(coefficient) {}

void Drag::validate(int /*dimension*/) const {
  detail::requireNonNegative(coefficient_, "drag coefficient");
}

// f_i = −c v_i for every particle.
void Drag::accumulate(const Model& /*model*/, const StateView& state,
                      Eigen::Ref<Eigen::VectorXd> Q) const {
  Q -= coefficient_ * state.v;
}

}  // namespace tinkertoy
