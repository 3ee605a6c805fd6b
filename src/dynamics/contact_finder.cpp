#include "tinkertoy/dynamics/contact_finder.hpp"

#include "common/fnv1a.hpp"
#include "common/parallel_loop.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <type_traits>
#include <variant>

namespace tinkertoy {

namespace {

// Above the narrowphase's feature bits (collide_polygons.cpp's ids reach bit 17).
constexpr int kPartShift = 18;
static_assert(((Shape::kMaxChainPoints - 1) << kPartShift) <= 0xFFFFFFFFU, "a link index fits above the features");

// The fewest shapes worth a thread's share of placing them (a sine and cosine and a box each),
// and the fewest pairs worth a thread's share of the narrowphase (a polygon clipping each).
constexpr std::size_t kMinimumPlacingShare = 256;
constexpr std::size_t kMinimumPairShare = 64;

}  // namespace

void ContactFinder::useThreads(ParallelLoop* loop) {
  parallel_ = loop;
  threadFarthest_.assign(loop ? static_cast<std::size_t>(loop->threads()) : 1, 0.0);
}

template <class Body>
void ContactFinder::shared(std::size_t n, std::size_t minimumShare, Body&& body) const {
  if (parallel_ == nullptr) {
    body(std::size_t{0}, n, 0);
  } else {
    parallel_->run(n, body, minimumShare);
  }
}

void ContactFinder::build(const Model& model) {
  colliders_.clear();
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const Body& body = model.body(id);
    Proxy proxy{.body = i, .offset = static_cast<Eigen::Index>(model.offsetOf(id)), .driven = body.isDriven()};
    const BodySettings settings = body.settings();
    std::vector<Convex> parts;
    const Shape* chain = nullptr;  // a chain's links know their neighbours
    if (const auto* rigid = std::get_if<RigidBodySettings>(&settings)) {
      proxy.turns = true;
      parts = convexParts(rigid->shape);
      proxy.filter = rigid->collider;
      if (rigid->shape.type() == Shape::Type::Chain) chain = &rigid->shape;
    } else if (const auto* particle = std::get_if<ParticleSettings>(&settings);
               particle && particle->radius > 0.0 && particle->dimension == 2) {
      parts = {convexCircle(Eigen::Vector2d::Zero(), particle->radius)};
      proxy.filter = particle->collider;
    }
    for (std::size_t k = 0; k < parts.size(); ++k) {
      proxy.shape = parts[k];
      if (chain) {
        proxy.link = true;
        proxy.hasPrevious = k > 0 || chain->loop();
        proxy.hasNext = k + 1 < parts.size() || chain->loop();
        const Convex& next = parts[(k + 1) % parts.size()];
        proxy.nextDirection = (next.vertices[1] - next.vertices[0]).normalized();
      }
      proxy.part = static_cast<std::uint32_t>(k) << kPartShift;
      proxy.firstOfBody = k == 0;
      proxy.reach = 0.0;
      for (int v = 0; v < proxy.shape.count; ++v) {
        proxy.reach = std::max(proxy.reach, proxy.shape.vertices[v].norm() + proxy.shape.radius);
      }
      colliders_.push_back(proxy);
    }
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
  reaches_.assign(model.bodyCount(), 0.0);
  for (const Proxy& c : colliders_) reaches_[c.body] = std::max(reaches_[c.body], c.reach);
  boxes_.resize(colliders_.size());
  margins_.resize(colliders_.size());
  placements_.resize(colliders_.size());
  searchedAt_.assign(3 * model.bodyCount(), 0.0);
  movedAtSearch_.assign(2 * model.bodyCount(), 0.0);
  still_.assign(colliders_.size(), 0);
  frozen_.assign(colliders_.size(), 0);
  contacts_.reserve(4 * colliders_.size());
  pairManifolds_.reserve(8 * colliders_.size());
  collidersHash_ = hashOf(colliders_, joined_);
}

std::uint64_t ContactFinder::hashOf(const std::vector<Proxy>& colliders,
                                    const std::vector<std::pair<std::size_t, std::size_t>>& joined) {
  std::uint64_t hash = detail::kFnv1aStart;
  const auto mix = [&hash]<class T>(const T& x) {
    static_assert(std::is_arithmetic_v<T>);  // no padding to hash
    hash = detail::fnv1a(std::string_view(reinterpret_cast<const char*>(&x), sizeof x), hash);
  };
  mix(static_cast<std::uint64_t>(colliders.size()));  // size_t is 32 bits in the browser build
  for (const Proxy& c : colliders) {
    mix(static_cast<std::uint64_t>(c.body));
    mix(c.turns);
    mix(c.driven);
    mix(c.shape.count);
    mix(c.shape.radius);
    for (int k = 0; k < c.shape.count; ++k) {
      mix(c.shape.vertices[static_cast<std::size_t>(k)].x());
      mix(c.shape.vertices[static_cast<std::size_t>(k)].y());
    }
    mix(c.filter.category);
    mix(c.filter.mask);
    mix(c.filter.group);
    mix(c.link);
    mix(c.hasPrevious);
    mix(c.hasNext);
  }
  mix(static_cast<std::uint64_t>(joined.size()));
  for (const auto& [a, b] : joined) {
    mix(static_cast<std::uint64_t>(a));
    mix(static_cast<std::uint64_t>(b));
  }
  return hash;
}

bool ContactFinder::excluded(std::size_t i, std::size_t j) const {
  const Proxy &a = colliders_[i], &b = colliders_[j];
  if (a.driven && b.driven) return true;
  if (!filtersCollide(a.filter, b.filter)) return true;
  return std::binary_search(joined_.begin(), joined_.end(), std::pair{std::min(a.body, b.body), std::max(a.body, b.body)});
}

void ContactFinder::dropGhosts(const Proxy& link, const Placement& at, bool linkIsA, Manifold& m) {
  if (m.count == 0) return;
  const Eigen::Vector2d n = linkIsA ? m.normal : Eigen::Vector2d(-m.normal);  // from the link to the body
  const Eigen::Vector2d e = at.rotate(link.shape.vertices[1] - link.shape.vertices[0]).normalized();
  const double across = std::abs(n.x() * e.y() - n.y() * e.x());  // |n · face normal|
  if (across >= 1.0 - 1e-9) return;                                // a face contact
  const double along = n.dot(e);
  const bool ghost = along < 0.0 ? link.hasPrevious : link.hasNext && n.dot(at.rotate(link.nextDirection)) > -1e-12;
  if (ghost) m.count = 0;  // both points share the normal, so both are the corner's
}

Placement ContactFinder::placement(const Proxy& p, const StateView& state) const {
  return Placement::of(state.q[p.offset], state.q[p.offset + 1], p.turns ? state.q[p.offset + 2] : 0.0);
}

Manifold ContactFinder::collidePair(std::size_t i, std::size_t j, const Placement& xi, const Placement& xj,
                                    double speculative) const {
  const Proxy &a = colliders_[i], &b = colliders_[j];
  Manifold m = collide(a.shape, xi, b.shape, xj, speculative);
  if (a.link) dropGhosts(a, xi, true, m);
  if (b.link) dropGhosts(b, xj, false, m);
  for (int k = 0; k < m.count; ++k) m.points[k].id |= a.part | b.part;
  return m;
}

bool ContactFinder::withinLeeway(const StateView& state, double h, double slop) const {
  for (const Proxy& c : colliders_) {
    const double* at = &searchedAt_[3 * c.body];
    const double* then = &movedAtSearch_[2 * c.body];
    const double turned = c.turns ? std::abs(state.q[c.offset + 2] - at[2]) : 0.0;
    const double spin = c.turns ? std::abs(state.v[c.offset + 2]) : 0.0;
    const double moved = std::hypot(state.q[c.offset] - at[0], state.q[c.offset + 1] - at[1]);
    const double drift = moved + turned * c.reach + h * (state.v.segment<2>(c.offset).norm() + spin * c.reach);
    if (drift > std::min(2.0 * slop, slop + then[0] + then[1] * c.reach)) return false;
  }
  return true;
}

bool ContactFinder::serialize(StateArchive& archive) {
  std::int64_t colliders = static_cast<std::int64_t>(collidersHash_);
  archive.integer(colliders);
  archive.numbers(searchedAt_, searchedAt_.size());
  archive.numbers(movedAtSearch_, movedAtSearch_.size());
  if (archive.reading() && !std::all_of(searchedAt_.begin(), searchedAt_.end(), [](double x) { return std::isfinite(x); })) {
    throw StateError("the state file holds a place of a body at its last contact search that is not finite");
  }
  if (archive.reading() &&
      !std::all_of(movedAtSearch_.begin(), movedAtSearch_.end(), [](double x) { return std::isfinite(x) && x >= 0.0; })) {
    throw StateError("the state file holds a move of a body at its last contact search that is negative or not finite");
  }
  return static_cast<std::uint64_t>(colliders) == collidersHash_;
}

Manifold ContactFinder::collideAgain(const BodyContact& contact, const StateView& state, double speculative) const {
  return collidePair(contact.shapeA, contact.shapeB, placement(colliders_[contact.shapeA], state),
                     placement(colliders_[contact.shapeB], state), speculative);
}

std::span<const BodyContact> ContactFinder::find(const StateView& state, double h, double slop,
                                                std::span<const char> asleep) {
  std::fill(threadFarthest_.begin(), threadFarthest_.end(), 0.0);
  shared(colliders_.size(), kMinimumPlacingShare, [&](std::size_t begin, std::size_t end, int thread) {
    double& farthest = threadFarthest_[static_cast<std::size_t>(thread)];
    for (std::size_t i = begin; i < end; ++i) {
      const Proxy& c = colliders_[i];
      const bool sleeps = !asleep.empty() && asleep[c.body];
      if (sleeps && frozen_[i]) continue;  // a sleeping body does not move: its box is as it was made
      frozen_[i] = sleeps;
      const double spin = c.turns ? std::abs(state.v[c.offset + 2]) : 0.0;
      const double glide = h * state.v.segment<2>(c.offset).norm();
      const double move = glide + h * spin * c.reach;
      still_[i] = sleeps || (c.driven && move == 0.0);
      farthest = std::max(farthest, move);
      margins_[i] = 2.0 * slop + move;
      placements_[i] = placement(c, state);
      if (c.firstOfBody) {  // (a body's other shapes, a chain's links, would write the same numbers)
        double* at = &searchedAt_[3 * c.body];
        at[0] = state.q[c.offset];
        at[1] = state.q[c.offset + 1];
        at[2] = c.turns ? state.q[c.offset + 2] : 0.0;
        movedAtSearch_[2 * c.body] = glide;
        movedAtSearch_[2 * c.body + 1] = h * spin;
      }
      boxes_[i] = boundsOf(c.shape, placements_[i]).grown(margins_[i]);
    }
  });
  farthest_ = *std::max_element(threadFarthest_.begin(), threadFarthest_.end());
  broadphase_.update(boxes_);
  // Each pair's manifold on the threads, then the touching ones in the pairs' order.
  const std::vector<std::pair<int, int>>& pairs = broadphase_.pairs();
  pairManifolds_.resize(pairs.size());
  shared(pairs.size(), kMinimumPairShare, [&](std::size_t begin, std::size_t end, int /*thread*/) {
    for (std::size_t k = begin; k < end; ++k) {
      const auto first = static_cast<std::size_t>(pairs[k].first), second = static_cast<std::size_t>(pairs[k].second);
      Manifold& m = pairManifolds_[k];
      m.count = 0;
      // Two shapes at rest, one of them asleep: nothing can change between them.
      if (!asleep.empty() && (frozen_[first] || frozen_[second]) && still_[first] && still_[second]) continue;
      if (excluded(first, second)) continue;
      m = collidePair(first, second, placements_[first], placements_[second], margins_[first] + margins_[second]);
    }
  });
  contacts_.clear();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (pairManifolds_[k].count == 0) continue;
    // Colliders are in dense body order, so i < j is a before b.
    const auto first = static_cast<std::size_t>(pairs[k].first), second = static_cast<std::size_t>(pairs[k].second);
    contacts_.push_back({.a = colliders_[first].body, .b = colliders_[second].body, .manifold = pairManifolds_[k],
                         .shapeA = first, .shapeB = second});
  }
  return contacts_;
}

}  // namespace tinkertoy
