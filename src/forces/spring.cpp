#include "tinkertoy/forces/spring.hpp"

#include "common/vector_checks.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

// Positions and velocities of both ends, and where to scatter the force.
struct Spring::Ends {
  Eigen::Vector3d xa, va, xb, vb;
  std::size_t offsetA;
  std::optional<std::size_t> offsetB;
};

Spring::Spring(ParticleId a, ParticleId b, SpringSettings settings)
    : particles_{a, b}, particleCount_(2), settings_(settings) {}

Spring::Spring(ParticleId a, Eigen::VectorXd anchor, SpringSettings settings)
    : particles_{a, ParticleId{}}, particleCount_(1), anchor_(std::move(anchor)),
      settings_(settings) {}

std::span<const ParticleId> Spring::particles() const {
  return {particles_.data(), static_cast<std::size_t>(particleCount_)};
}

namespace {

void validateSettings(const SpringSettings& settings) {
  detail::requireNonNegative(settings.stiffness, "spring stiffness");
  detail::requireNonNegative(settings.damping, "spring damping");
  detail::requireNonNegative(settings.rest_length, "spring rest length");
}

}  // namespace

void Spring::validate(int dimension) const {
  validateSettings(settings_);
  if (anchor_) detail::requireDimension(*anchor_, dimension, "spring anchor");
  if (particleCount_ == 2 && particles_[0] == particles_[1]) {
    throw std::invalid_argument("a spring cannot join a particle to itself");
  }
}

void Spring::setSettings(const SpringSettings& settings) {
  validateSettings(settings);
  settings_ = settings;
}

Spring::Ends Spring::ends(const Model& model, const StateView& state) const {
  const int d = model.dimension();
  Ends e;
  e.offsetA = model.offsetOf(particles_[0]);
  e.xa = readPoint(state.q, e.offsetA, d);
  e.va = readPoint(state.v, e.offsetA, d);
  if (anchor_) {
    e.xb = padTo3d(*anchor_);
    e.vb.setZero();
  } else {
    e.offsetB = model.offsetOf(particles_[1]);
    e.xb = readPoint(state.q, *e.offsetB, d);
    e.vb = readPoint(state.v, *e.offsetB, d);
  }
  return e;
}

// f_a = −[k (ℓ − r) + c (ḋ·n)] n with d = x_a − x_b, ℓ = |d|, n = d/ℓ; f_b = −f_a.
void Spring::accumulate(const Model& model, const StateView& state,
                        Eigen::Ref<Eigen::VectorXd> Q) const {
  const Ends e = ends(model, state);
  const Eigen::Vector3d d = e.xa - e.xb;
  const double length = d.norm();
  if (length == 0.0) return;  // direction undefined: no force
  const Eigen::Vector3d n = d / length;
  const double magnitude =
      settings_.stiffness * (length - settings_.rest_length) + settings_.damping * n.dot(e.va - e.vb);
  const Eigen::Vector3d fa = -magnitude * n;
  const int dim = model.dimension();
  addToPoint(Q, e.offsetA, dim, fa);
  if (e.offsetB) addToPoint(Q, *e.offsetB, dim, -fa);
}

// V = ½ k (ℓ − r)².
double Spring::potentialEnergy(const Model& model, const StateView& state) const {
  const Ends e = ends(model, state);
  const double stretch = (e.xa - e.xb).norm() - settings_.rest_length;
  return 0.5 * settings_.stiffness * stretch * stretch;
}

}  // namespace tinkertoy
