// Collider: how a body meets others when the model's bodies collide (settings.collisions): the
// surface it touches with and which bodies it touches at all. Rigid bodies and 2D particles with a
// radius carry one (core/body_settings.hpp).
//
// Surface. Each body may have its own Coulomb friction μ and restitution e; one left out takes the
// settings' value (settings.friction, settings.restitution). A contact between bodies a and b
// uses, as Box2D does,
//
//   μ = √(μ_a μ_b)     (a slippery body is slippery against anything: μ_a = 0 gives μ = 0)
//   e = max(e_a, e_b)  (a bouncy ball bounces on any floor)
//
// Filter (Box2D's): a body belongs to the categories whose bits are set in `category` and collides
// with those set in `mask`. Two bodies collide when each one's category is in the other's mask,
// unless they share a group: a shared positive group always collides, a shared negative group never
// (the parts of one ragdoll, say). Besides the filter, two bodies that nothing moves (static or
// kinematic) never collide, nor two bodies an enabled constraint joins unless the constraint says
// so (Model::setCollideConnected).
//
//   Collider ice{.friction = 0.02};
//   Collider ghost{.category = 0b10, .mask = 0b01};  // meets only bodies of category 1
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

namespace tinkertoy {

struct Collider {
  std::optional<double> friction;     // μ ≥ 0; none: settings.friction
  std::optional<double> restitution;  // e in [0, 1]; none: settings.restitution
  std::uint32_t category = 1;         // the categories the body belongs to, as bits
  std::uint32_t mask = 0xFFFFFFFFu;   // the categories it collides with
  std::int32_t group = 0;             // 0: none; see above

  bool operator==(const Collider&) const = default;

  // Throws std::invalid_argument naming the member when the friction is negative or not finite,
  // or the restitution is outside [0, 1].
  void validate() const;
};

// Whether the filters of two bodies let them collide.
[[nodiscard]] inline bool filtersCollide(const Collider& a, const Collider& b) {
  if (a.group != 0 && a.group == b.group) return a.group > 0;
  return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

// The mixing rules above, for values already resolved against the settings' defaults.
[[nodiscard]] inline double mixedFriction(double a, double b) { return std::sqrt(a * b); }
[[nodiscard]] inline double mixedRestitution(double a, double b) { return a > b ? a : b; }

}  // namespace tinkertoy
