#include "tinkertoy/dynamics/contact_finder.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

namespace tinkertoy {

void ContactFinder::build(const Model& model) {
  colliders_.clear();
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const Body& body = model.body(id);
    Proxy proxy{.body = i, .offset = static_cast<Eigen::Index>(model.offsetOf(id)), .driven = body.isDriven()};
    const BodySettings settings = body.settings();
    if (const auto* rigid = std::get_if<RigidBodySettings>(&settings)) {
      proxy.turns = true;
      proxy.shape = convexOf(rigid->shape);
      proxy.filter = rigid->collider;
    } else if (const auto* particle = std::get_if<ParticleSettings>(&settings);
               particle && particle->radius > 0.0 && particle->dimension == 2) {
      proxy.shape = convexCircle(Eigen::Vector2d::Zero(), particle->radius);
      proxy.filter = particle->collider;
    } else {
      continue;
    }
    for (int k = 0; k < proxy.shape.count; ++k) {
      proxy.reach = std::max(proxy.reach, proxy.shape.vertices[k].norm() + proxy.shape.radius);
    }
    colliders_.push_back(proxy);
  }
  joined_.clear();
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const ConstraintId id = model.constraintAt(k);
    if (!model.isEnabled(id) || model.collideConnected(id)) continue;
    const auto points = model.constraint(id).points();
    for (std::size_t p = 0; p < points.size(); ++p) {
      for (std::size_t r = p + 1; r < points.size(); ++r) {
        const std::size_t a = model.indexOf(points[p].body), b = model.indexOf(points[r].body);
        if (a != b) joined_.emplace_back(std::min(a, b), std::max(a, b));
      }
    }
  }
  std::sort(joined_.begin(), joined_.end());
  joined_.erase(std::unique(joined_.begin(), joined_.end()), joined_.end());
  boxes_.resize(colliders_.size());
  margins_.resize(colliders_.size());
  contacts_.reserve(4 * colliders_.size());
}

bool ContactFinder::excluded(std::size_t i, std::size_t j) const {
  const Proxy &a = colliders_[i], &b = colliders_[j];
  if (a.driven && b.driven) return true;
  if (!filtersCollide(a.filter, b.filter)) return true;
  return std::binary_search(joined_.begin(), joined_.end(), std::pair{std::min(a.body, b.body), std::max(a.body, b.body)});
}

Placement ContactFinder::placement(const Proxy& p, const StateView& state) const {
  return Placement::of(state.q[p.offset], state.q[p.offset + 1], p.turns ? state.q[p.offset + 2] : 0.0);
}

std::span<const BodyContact> ContactFinder::find(const StateView& state, double h, double slop) {
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const Proxy& c = colliders_[i];
    const double spin = c.turns ? std::abs(state.v[c.offset + 2]) : 0.0;
    margins_[i] = 2.0 * slop + h * (state.v.segment<2>(c.offset).norm() + spin * c.reach);
    boxes_[i] = boundsOf(c.shape, placement(c, state)).grown(margins_[i]);
  }
  broadphase_.update(boxes_);
  contacts_.clear();
  for (const auto& [i, j] : broadphase_.pairs()) {
    const auto first = static_cast<std::size_t>(i), second = static_cast<std::size_t>(j);
    if (excluded(first, second)) continue;
    // Colliders are in dense body order, so i < j is a before b.
    const Proxy &a = colliders_[first], &b = colliders_[second];
    const Manifold m =
        collide(a.shape, placement(a, state), b.shape, placement(b, state), margins_[first] + margins_[second]);
    if (m.count > 0) contacts_.push_back({.a = a.body, .b = b.body, .manifold = m});
  }
  return contacts_;
}

}  // namespace tinkertoy
