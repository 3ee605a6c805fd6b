#include "tinkertoy/dynamics/applied_forces.hpp"

namespace tinkertoy {

void AppliedForces::build(const Model& model) {
  parametric_.clear();
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    if (!model.body(model.bodyAt(i)).hasDiagonalMass()) parametric_.push_back(i);
  }
}

void AppliedForces::evaluate(const Model& model, const StateView& state, Eigen::VectorXd& Q) const {
  Q.setZero(state.q.size());
  for (std::size_t i = 0; i < model.forceCount(); ++i) model.force(model.forceAt(i)).accumulate(model.bodies(), state, Q);
  for (const std::size_t i : parametric_) {
    const BodyId id = model.bodyAt(i);
    const Body& body = model.body(id);
    body.addInertialForce(model.slice(state.q, i), model.slice(state.v, i),
                          Q.segment(static_cast<Eigen::Index>(model.offsetOf(id)), body.coordinateCount()));
  }
}

}  // namespace tinkertoy
