#include "tinkertoy/forces/gravity.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/core/bodies.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

Gravity::Gravity(Eigen::VectorXd g) : g_(std::move(g)) {}

void Gravity::validate(int dimension) const { detail::requireDimension(g_, dimension, "gravity"); }


// f_i = m_i g at every point mass, i.e. Q_b += Σ m_i J_iᵀ g for every body.
void Gravity::accumulate(const Bodies& bodies, const StateView& state,
                         Eigen::Ref<Eigen::VectorXd> Q) const {
  const Eigen::Vector3d g = padTo3d(g_);
  for (std::size_t b = 0; b < bodies.count(); ++b) {
    const Body& body = bodies.body(bodies.idAt(b));
    const auto offset = static_cast<Eigen::Index>(bodies.offsetOf(bodies.idAt(b)));
    body.addWeight(g, bodies.slice(state.q, b), Q.segment(offset, body.coordinateCount()));
  }
}

// V = −Σ m_i g·x_i = −g · Σ_b (Σ m_i x_i)_b.
double Gravity::potentialEnergy(const Bodies& bodies, const StateView& state) const {
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (std::size_t b = 0; b < bodies.count(); ++b) {
    moment += bodies.body(bodies.idAt(b)).massMoment(bodies.slice(state.q, b));
  }
  return -padTo3d(g_).dot(moment);
}

}  // namespace tinkertoy
