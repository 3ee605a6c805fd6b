// ContactFinder: the contacts of a model at a state: which pairs of rigid bodies touch, or are
// within the speculative distance of touching, and their manifolds (collision/manifold.hpp).
//
// Built once per layout and again at each edit (build): each rigid body's outline as a collision
// shape in its frame (collision/convex.hpp; a chain as one per link, whose index goes into its
// points' ids above bit 18), a 2D particle with a radius as a disc, and the pairs
// that never collide (core/collider.hpp):
//   - two bodies that nothing moves (static or kinematic: neither answers a contact);
//   - two bodies whose filters keep them apart;
//   - two bodies joined by an enabled constraint (a hinge's bodies overlap at the hinge by design),
//     as Box2D's joints do, unless the constraint lets them collide (Model::collideConnected).
// Each find (find) then bounds every shape at the state, grown by its margin, takes the pairs whose
// boxes overlap (collision/broadphase.hpp), and collides them within the sum of their margins. A
// body's margin is twice the slop plus what its farthest point can move within the substep,
//
//   m_i = 2 slop + h (|v_i| + |ω_i| reach_i),
//
// so that two bodies find each other while they are within the distance they can close in the
// substep (a speculative contact: no tunnelling at ordinary speeds), and a fast body elsewhere
// does not widen the search for the resting ones. With sleeping bodies (dynamics/sleeping_islands.hpp,
// the `asleep` flags of find), a pair of which one sleeps and the other sleeps too or stays still
// (static, or kinematic without velocity) is not collided, and a sleeping shape's box, which
// cannot change while it sleeps, is made once. The result is sorted by body pair (dense
// indices), so it depends on the state alone, not on the order or history of earlier finds: a
// resumed run finds what an uninterrupted one did.
//
// A chain's links meet at its points, where a body sliding over them would also touch the end of
// the link it leaves or enters, with a normal tilted from the surface: a ghost contact that
// bumps it, even where the links are in line. As Box2D's chain shapes do, a link keeps only its
// face contacts and those at the corner it shares with the next link when the corner bends away
// from the body (a hilltop), and not when the next link's face holds the body (n · e_next > 0); a
// corner contact at the start of a link belongs to the link before it.
//
//   ContactFinder finder;
//   finder.build(model);
//   for (const BodyContact& c : finder.find(model.state(), h, 0.005)) use(c.a, c.b, c.manifold);
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/collision/broadphase.hpp"
#include "tinkertoy/collision/collide.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

class ParallelLoop;

// The manifold of two bodies, a before b in the model's dense order; its normal points from a to b.
struct BodyContact {
  std::size_t a = 0, b = 0;  // dense body indices
  Manifold manifold;
  std::size_t shapeA = 0, shapeB = 0;  // the collision shapes that met (ContactFinder::collideAgain)
};

class ContactFinder {
 public:
  // The colliding bodies of `model` and the pairs that never collide. Call again when the
  // model changes (a shape, a filter or a constraint's collideConnected is an edit, not a change
  // of structure).
  void build(const Model& model);
  // Lets `loop`'s threads share each find's placing of the shapes and its narrowphase (null: the
  // caller's thread only), to the same contacts in the same order as on one thread.
  void useThreads(ParallelLoop* loop);
  // The manifolds with at least one point at `state` (q and v of the model laid out at build),
  // within the margins (above) for a substep of h and a slop (m), sorted by (a, b). Valid until
  // the next find. `asleep`, by dense body index (or empty): the sleeping bodies (above).
  std::span<const BodyContact> find(const StateView& state, double h, double slop, std::span<const char> asleep = {});
  // Forgets the sleeping shapes' boxes made before (the state was put back: a sleeper may now
  // sleep elsewhere), so that the next find makes them again.
  void thaw() { std::fill(frozen_.begin(), frozen_.end(), 0); }
  // What the last find found.
  [[nodiscard]] std::span<const BodyContact> found() const { return contacts_; }
  // The farthest any point of a collider moves within the last find's h at its velocities then, m.
  [[nodiscard]] double farthestMove() const { return farthest_; }
  // Whether every shape is still within its leeway of where its body was at the last find: its
  // drift, how far it has moved since plus what it can move within h at its velocities at
  // `state`, |x − x₀| + reach |θ − θ₀| + h (|v| + |ω| reach) (x₀, θ₀ its body's at the find), at
  // most min(2 slop, slop + m₀), where m₀ = h₀ (|v₀| + |ω₀| reach) is what it could move in the
  // find's h₀ at its velocities then, and its margin there 2 slop + m₀. Right after a find, at its
  // state and h, each drift is its m₀: within, unless the shape moves more than 2 slop a step.
  [[nodiscard]] bool withinLeeway(const StateView& state, double h, double slop) const;
  // Each body's (x, y, θ) at the last find that placed its shapes (θ = 0 for a particle; 0s for
  // a body without a shape), by dense index: what withinLeeway measures from.
  [[nodiscard]] std::span<const double> searchedAt() const { return searchedAt_; }
  // searchedAt(), each body's move at the find (withinLeeway's m₀) and hashOf the shapes, in
  // either direction (a state file: a run that carries its contacts on resumes bit for bit).
  // Returns whether the state was saved with the shapes this finder was built with:
  // when not (a state saved before an edit of the shapes), its contacts must not be carried on.
  [[nodiscard]] bool serialize(StateArchive& archive);
  // The manifold of `contact`'s two shapes at another state, within `speculative` (m), with the
  // ids find gives: for a solver that moves the bodies and measures the gaps again (the exact
  // mode's projection, dynamics/contact_rows.hpp).
  [[nodiscard]] Manifold collideAgain(const BodyContact& contact, const StateView& state, double speculative) const;

  // How many collision shapes there are: one for each rigid body and each 2D particle with a
  // radius, one for each link of a chain.
  [[nodiscard]] std::size_t colliderCount() const { return colliders_.size(); }
  // The farthest point of a body's shapes from its center (0 for a body without one), m.
  [[nodiscard]] double reachOf(std::size_t body) const { return body < reaches_.size() ? reaches_[body] : 0.0; }

 private:
  struct Proxy {
    std::size_t body = 0;     // dense index
    Eigen::Index offset = 0;  // of (x, y, θ), or a particle's (x, y), in q
    bool turns = false;       // has an angle θ at offset + 2
    bool driven = false;      // static or kinematic
    Convex shape;
    double reach = 0.0;  // the farthest point of the shape from the body's center, m
    std::uint32_t part = 0;  // a chain's link, shifted into the ids' high bits
    bool firstOfBody = false;  // its body's first shape
    Collider filter;
    // A chain's link: whether links come before and after it, and the next one's direction.
    bool link = false, hasPrevious = false, hasNext = false;
    Eigen::Vector2d nextDirection = Eigen::Vector2d::Zero();  // body frame, unit
  };
  // Drops a chain link's ghost points (above) from `m`, where `link` is a (linkIsA) or b.
  static void dropGhosts(const Proxy& link, const Placement& at, bool linkIsA, Manifold& m);
  [[nodiscard]] Placement placement(const Proxy& p, const StateView& state) const;
  // The manifold of shapes i < j placed at xi and xj within `speculative`, without a chain's
  // ghosts, the links' indices in the ids.
  [[nodiscard]] Manifold collidePair(std::size_t i, std::size_t j, const Placement& xi, const Placement& xj,
                                     double speculative) const;
  [[nodiscard]] bool excluded(std::size_t i, std::size_t j) const;
  // What the contacts found depend on besides the state: FNV-1a over the shapes' bodies,
  // geometry, filters and chain links, and over the pairs that never collide (not the surfaces,
  // which a carried point takes from its bodies when it is read).
  [[nodiscard]] static std::uint64_t hashOf(const std::vector<Proxy>& colliders,
                                            const std::vector<std::pair<std::size_t, std::size_t>>& joined);
  // body(begin, end, thread) over [0, n), shared among the threads by n alone, for loops whose
  // iterations cost at least `minimumShare`'s worth a thread.
  template <class Body>
  void shared(std::size_t n, std::size_t minimumShare, Body&& body) const;

  Broadphase broadphase_{0.1};
  std::vector<Proxy> colliders_;
  std::vector<std::pair<std::size_t, std::size_t>> joined_;  // body pairs (a < b) that never collide, sorted
  std::vector<Aabb> boxes_;
  std::vector<double> margins_;
  std::vector<Placement> placements_;  // each shape's at the last find (one sine and cosine a shape)
  std::vector<double> searchedAt_;     // [3 × bodies] searchedAt()
  std::vector<double> movedAtSearch_;  // [2 × bodies] h |v| and h |ω| at the last find that placed its shapes
  std::uint64_t collidersHash_ = 0;    // hashOf the colliders built
  std::vector<char> still_;            // a shape that sleeps, or that nothing moves and has no velocity
  std::vector<char> frozen_;           // a sleeping shape whose box and placement are made
  std::vector<double> reaches_;        // reachOf, by dense body
  std::vector<Manifold> pairManifolds_;  // the narrowphase's, by broadphase pair (count 0: none)
  std::vector<BodyContact> contacts_;
  double farthest_ = 0.0;  // farthestMove()
  ParallelLoop* parallel_ = nullptr;
  std::vector<double> threadFarthest_{0.0};  // [threads] each share's farthest move
};

}  // namespace tinkertoy
