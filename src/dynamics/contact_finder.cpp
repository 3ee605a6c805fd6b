#include "tinkertoy/dynamics/contact_finder.hpp"

#include <algorithm>
#include <variant>

namespace tinkertoy {

void ContactFinder::build(const Model& model) {
  colliders_.clear();
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const BodySettings settings = model.body(id).settings();
    if (const auto* rigid = std::get_if<RigidBodySettings>(&settings)) {
      colliders_.push_back({.body = i,
                            .offset = static_cast<Eigen::Index>(model.offsetOf(id)),
                            .driven = rigid->motion != RigidBodyMotion::Dynamic,
                            .shape = convexOf(rigid->shape)});
    }
  }
  joined_.clear();
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const ConstraintId id = model.constraintAt(k);
    if (!model.isEnabled(id)) continue;
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
  contacts_.reserve(4 * colliders_.size());
}

bool ContactFinder::excluded(std::size_t i, std::size_t j) const {
  const Collider &a = colliders_[i], &b = colliders_[j];
  if (a.driven && b.driven) return true;
  return std::binary_search(joined_.begin(), joined_.end(), std::pair{std::min(a.body, b.body), std::max(a.body, b.body)});
}

std::span<const BodyContact> ContactFinder::find(const StateView& state, double speculative) {
  const auto placement = [&](const Collider& c) {
    return Placement::of(state.q[c.offset], state.q[c.offset + 1], state.q[c.offset + 2]);
  };
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    boxes_[i] = boundsOf(colliders_[i].shape, placement(colliders_[i])).grown(0.5 * speculative);
  }
  broadphase_.update(boxes_);
  contacts_.clear();
  for (const auto& [i, j] : broadphase_.pairs()) {
    const auto first = static_cast<std::size_t>(i), second = static_cast<std::size_t>(j);
    if (excluded(first, second)) continue;
    // Colliders are in dense body order, so i < j is a before b.
    const Collider &a = colliders_[first], &b = colliders_[second];
    const Manifold m = collide(a.shape, placement(a), b.shape, placement(b), speculative);
    if (m.count > 0) contacts_.push_back({.a = a.body, .b = b.body, .manifold = m});
  }
  return contacts_;
}

}  // namespace tinkertoy
