// ContactFinder: the contacts of a model at a state: which pairs of rigid bodies touch, or are
// within the speculative distance of touching, and their manifolds (collision/manifold.hpp).
//
// Built once per layout (build): each rigid body's outline as a collision shape in its frame
// (collision/convex.hpp), and the pairs that never collide:
//   - two bodies that nothing moves (static or kinematic: neither answers a contact);
//   - two bodies joined by an enabled constraint (a hinge's bodies overlap at the hinge by design),
//     as Box2D's joints do unless asked otherwise.
// Each find (find) then bounds every shape at the state, grown by half the speculative distance,
// takes the pairs whose boxes overlap (collision/broadphase.hpp), and collides them. The result
// is sorted by body pair (dense indices), so it depends on the state alone, not on the order or
// history of earlier finds: a resumed run finds what an uninterrupted one did. The speculative
// distance should cover what two bodies can close within the step (their relative speed times
// the step), or a fast one may pass into another between two finds.
//
//   ContactFinder finder;
//   finder.build(model);
//   for (const BodyContact& c : finder.find(model.state(), 0.02)) use(c.a, c.b, c.manifold);
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "tinkertoy/collision/broadphase.hpp"
#include "tinkertoy/collision/collide.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

// The manifold of two bodies, a before b in the model's dense order; its normal points from a to b.
struct BodyContact {
  std::size_t a = 0, b = 0;  // dense body indices
  Manifold manifold;
};

class ContactFinder {
 public:
  // The colliding bodies of `model` and the pairs that never collide. Call again when the
  // model's structure changes.
  void build(const Model& model);
  // The manifolds with at least one point at `state` (q of the model laid out at build), for a
  // speculative distance ≥ 0 (m), sorted by (a, b). Valid until the next find.
  std::span<const BodyContact> find(const StateView& state, double speculative);

  // How many bodies collide (have a shape and a frame).
  [[nodiscard]] std::size_t colliderCount() const { return colliders_.size(); }

 private:
  struct Collider {
    std::size_t body = 0;    // dense index
    Eigen::Index offset = 0;  // of (x, y, θ) in q
    bool driven = false;      // static or kinematic
    Convex shape;
  };
  [[nodiscard]] bool excluded(std::size_t i, std::size_t j) const;

  Broadphase broadphase_{0.1};
  std::vector<Collider> colliders_;
  std::vector<std::pair<std::size_t, std::size_t>> joined_;  // body pairs (a < b) that never collide, sorted
  std::vector<Aabb> boxes_;
  std::vector<BodyContact> contacts_;
};

}  // namespace tinkertoy
