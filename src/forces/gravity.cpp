#include "tinkertoy/forces/gravity.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

Gravity::Gravity(Eigen::VectorXd g) : g_(std::move(g)) {}

void Gravity::validate(int dimension) const { detail::requireDimension(g_, dimension, "gravity"); }

void Gravity::setAcceleration(Eigen::VectorXd g) {
  detail::requireDimension(g, static_cast<int>(g_.size()), "gravity");
  g_ = std::move(g);
}

// f_i = m_i g for every particle.
void Gravity::accumulate(const Model& model, const StateView& /*state*/,
                         Eigen::Ref<Eigen::VectorXd> Q) const {
  const int d = model.dimension();
  const Eigen::VectorXd& W = model.inverseMass();
  for (Eigen::Index i = 0; i < Q.size(); ++i) Q[i] += g_[i % d] / W[i];
}

// V = −Σ m_i g·x_i.
double Gravity::potentialEnergy(const Model& model, const StateView& state) const {
  const int d = model.dimension();
  const Eigen::VectorXd& W = model.inverseMass();
  double V = 0.0;
  for (Eigen::Index i = 0; i < state.q.size(); ++i) V -= g_[i % d] * state.q[i] / W[i];
  return V;
}

}  // namespace tinkertoy
