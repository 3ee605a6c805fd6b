#include "tinkertoy/dynamics/contact_solver.hpp"

#include "common/parallel_loop.hpp"
#include "dynamics/contact_lanes.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <iterator>
#include <limits>
#include <utility>

namespace tinkertoy {

namespace {

using lanes::both;
using lanes::select;
using Wide = lanes::AllLanes;

// A point's pair of bodies: with its feature id, what a point keeps from step to step.
auto pairOf(const ContactSolver::Point& p) { return std::pair{p.a, p.b}; }

// A manifold's two bodies' velocities, read from v once for all its rows and written back after
// them (the passes' rows then work in registers, not through v); ω is 0 for a body that does not
// turn.
template <class Real>
struct PairVelocity {
  Real ax, ay, wA, bx, by, wB;
};

// (Each lane's ω is read from spinA, spinB: ω's entry of a body that turns, else any entry of its
// own, which the mask then sets to 0.)
template <class Bundle, class Lane>
[[gnu::always_inline]] inline PairVelocity<typename Lane::Real> read(const Bundle& m, const Eigen::VectorXd& v,
                                                                     Lane lane) {
  const double* x = v.data();
  const typename Lane::Real zero = Lane::broadcast(0.0);
  return {lane.gather([&](int l) { return x[m.offsetA[l]]; }), lane.gather([&](int l) { return x[m.offsetA[l] + 1]; }),
          select(lane.loadMask(m.turningA), lane.gather([&](int l) { return x[m.spinA[l]]; }), zero),
          lane.gather([&](int l) { return x[m.offsetB[l]]; }), lane.gather([&](int l) { return x[m.offsetB[l] + 1]; }),
          select(lane.loadMask(m.turningB), lane.gather([&](int l) { return x[m.spinB[l]]; }), zero)};
}

// Only the bodies something moves are written: the manifolds of one colour may share a static or
// kinematic one, and run on different threads.
template <class Bundle, class Lane>
[[gnu::always_inline]] inline void write(const Bundle& m, const PairVelocity<typename Lane::Real>& u, Eigen::VectorXd& v, Lane lane) {
  for (int l = lane.first(); l < lane.last(); ++l) {
    if (m.movesA[l] != 0) {
      v[m.offsetA[l]] = Lane::lane(u.ax, l);
      v[m.offsetA[l] + 1] = Lane::lane(u.ay, l);
      if (m.turningA[l] != 0) v[m.offsetA[l] + 2] = Lane::lane(u.wA, l);
    }
    if (m.movesB[l] != 0) {
      v[m.offsetB[l]] = Lane::lane(u.bx, l);
      v[m.offsetB[l] + 1] = Lane::lane(u.by, l);
      if (m.turningB[l] != 0) v[m.offsetB[l] + 2] = Lane::lane(u.wB, l);
    }
  }
}

// A point's arms, as the rows read them.
template <class Real>
struct Arms {
  Real rAx, rAy, rBx, rBy;
};

template <class Slot, class Lane>
[[gnu::always_inline]] inline Arms<typename Lane::Real> armsOf(const Slot& p, Lane lane) {
  return {lane.load(p.rAx), lane.load(p.rAy), lane.load(p.rBx), lane.load(p.rBy)};
}

// v_rel at a point, along (dx, dy).
template <class Real>
[[gnu::always_inline]] inline Real relativeVelocityAlong(const Arms<Real>& r, const PairVelocity<Real>& u, Real dx, Real dy) {
  const Real x = u.bx - u.wB * r.rBy - u.ax + u.wA * r.rAy;
  const Real y = u.by + u.wB * r.rBx - u.ay - u.wA * r.rAx;
  return dx * x + dy * y;
}

// The masses and turning of a manifold's bodies, as the rows read them; `row`: the lanes where
// the row exists (a lane whose manifold lacks the point changes nothing).
template <class Lane>
struct Movers {
  typename Lane::Real inverseMassA, inverseInertiaA, inverseMassB, inverseInertiaB;
  typename Lane::Mask movesA, movesB, turnsA, turnsB;
};

template <class Bundle, class Lane>
[[gnu::always_inline]] inline Movers<Lane> moversOf(const Bundle& m, Lane lane) {
  return {lane.load(m.inverseMassA), lane.load(m.inverseInertiaA), lane.load(m.inverseMassB),
          lane.load(m.inverseInertiaB), lane.loadMask(m.movesA), lane.loadMask(m.movesB),
          lane.loadMask(m.turningA), lane.loadMask(m.turningB)};
}

// v_a −= m_a⁻¹ P, ω_a −= I_a⁻¹ r_a × P, and the opposite on b, for P = (px, py), in the lanes of
// `row`.
template <class Lane, class Real = typename Lane::Real, class Mask = typename Lane::Mask>
[[gnu::always_inline]] inline void apply(const Movers<Lane>& m, const Arms<Real>& r, Mask row, Real px, Real py, PairVelocity<Real>& u) {
  const Mask a = both(row, m.movesA), b = both(row, m.movesB);
  u.ax = select(a, u.ax - m.inverseMassA * px, u.ax);
  u.ay = select(a, u.ay - m.inverseMassA * py, u.ay);
  u.wA = select(both(a, m.turnsA), u.wA - m.inverseInertiaA * (r.rAx * py - r.rAy * px), u.wA);
  u.bx = select(b, u.bx + m.inverseMassB * px, u.bx);
  u.by = select(b, u.by + m.inverseMassB * py, u.by);
  u.wB = select(both(b, m.turnsB), u.wB + m.inverseInertiaB * (r.rBx * py - r.rBy * px), u.wB);
}

// The normal row's update toward `target`, accumulated in `impulse` and clamped at 0.
template <class Lane, class Real = typename Lane::Real, class Mask = typename Lane::Mask>
[[gnu::always_inline]] inline void pushToward(const Movers<Lane>& m, const Arms<Real>& r, Mask row, Real nx, Real ny, Real normalMass, Real target,
                Real& impulse, PairVelocity<Real>& u) {
  const Real vn = relativeVelocityAlong(r, u, nx, ny);
  const Real old = impulse;
  impulse = select(row, lanes::maximum(old - normalMass * (vn - target), Lane::broadcast(0.0)), old);
  const Real change = impulse - old;
  apply(m, r, row, change * nx, change * ny, u);
}

// A point's work (ContactSolver::bookWork): what its impulse P = λ_n n + λ_t t did over the
// substep, P · (v_rel(v0) + v_rel(v1)) / 2; and what the motion of each of its bodies put in, were
// nothing to move it (m⁻¹ = 0: it keeps its velocity whatever the impulse; none for a static
// body, at rest), P · v̄_a at the point for a, and P · v̄_b for b, which the caller books for the
// bodies that are so.
template <class Real>
struct PointWork {
  Real impulses, drivenA, drivenB;
};

template <class Real>
[[gnu::always_inline]] inline PointWork<Real> pointWork(Real nx, Real ny, const Arms<Real>& r, Real normalImpulse,
                                                        Real tangentImpulse, const PairVelocity<Real>& u0,
                                                        const PairVelocity<Real>& u1) {
  const Real ix = normalImpulse * nx + tangentImpulse * ny, iy = normalImpulse * ny + tangentImpulse * -nx;
  const Real half = 0.5 + Real{};
  // P · (x, y) of the summed velocities at the two ends of the substep.
  const Real rx = (u0.bx - u0.wB * r.rBy - u0.ax + u0.wA * r.rAy) + (u1.bx - u1.wB * r.rBy - u1.ax + u1.wA * r.rAy);
  const Real ry = (u0.by + u0.wB * r.rBx - u0.ay - u0.wA * r.rAx) + (u1.by + u1.wB * r.rBx - u1.ay - u1.wA * r.rAx);
  const Real ax = (u0.ax - u0.wA * r.rAy) + (u1.ax - u1.wA * r.rAy), ay = (u0.ay + u0.wA * r.rAx) + (u1.ay + u1.wA * r.rAx);
  const Real bx = (u0.bx - u0.wB * r.rBy) + (u1.bx - u1.wB * r.rBy), by = (u0.by + u0.wB * r.rBx) + (u1.by + u1.wB * r.rBx);
  return {half * (ix * rx + iy * ry), half * (ix * ax + iy * ay), half * (ix * bx + iy * by)};
}

// A point's target for its gap s, and for a penetration its push and spring
// (ContactSolver's header), for a substep of h; `anchored`: one of its bodies nothing moves,
// whose springs are `anchoredSoft`, the others' `soft`.
template <class Real>
struct Aim {
  Real gapTarget, push, massScale, impulseScale;
};

template <class Lane, class Real = typename Lane::Real, class Mask = typename Lane::Mask>
[[gnu::always_inline]] inline Aim<Real> aim(const ContactMaterial& material, const Softness& soft,
                                            const Softness& anchoredSoft, Real s, Mask anchored, double h) {
  const Real zero = Lane::broadcast(0.0), step = Lane::broadcast(h);
  Aim<Real> row{-lanes::maximum(s, zero) / step, zero, Lane::broadcast(1.0), zero};
  if (material.push == ContactPush::Velocity) {
    const Real biasRate = select(anchored, Lane::broadcast(anchoredSoft.biasRate), Lane::broadcast(soft.biasRate));
    const Real massScale = select(anchored, Lane::broadcast(anchoredSoft.massScale), Lane::broadcast(soft.massScale));
    const Real impulseScale =
        select(anchored, Lane::broadcast(anchoredSoft.impulseScale), Lane::broadcast(soft.impulseScale));
    const auto penetrating = s <= zero;
    row.push = select(penetrating, lanes::minimum(biasRate * -s, Lane::broadcast(material.maxPushSpeed)), zero);
    row.massScale = select(penetrating, massScale, row.massScale);
    row.impulseScale = select(penetrating, impulseScale, zero);
  } else if (material.push == ContactPush::Position) {
    row.push = lanes::minimum(Lane::broadcast(material.baumgarte) *
                                  lanes::maximum(-s - Lane::broadcast(material.slop), zero) / step,
                              Lane::broadcast(material.maxPushSpeed));
  }
  return row;
}

// The velocities of bodies a and b in v.
PairVelocity<double> pairVelocity(const ContactSolver::BodyMass& a, const ContactSolver::BodyMass& b,
                                  const Eigen::VectorXd& v) {
  return {v[a.offset], v[a.offset + 1], a.turns ? v[a.offset + 2] : 0.0,
          v[b.offset], v[b.offset + 1], b.turns ? v[b.offset + 2] : 0.0};
}

}  // namespace

template <class Body>
void ContactSolver::shared(std::size_t n, Body&& body, std::size_t minimumShare) const {
  if (parallel_ == nullptr) {
    body(std::size_t{0}, n, 0);
  } else {
    parallel_->run(n, body, minimumShare);
  }
}

template <class Disjoint, class InOrder>
void ContactSolver::inColours(bool backward, Disjoint&& disjoint, InOrder&& inOrder) {
  const std::size_t colours = colourBundles_.size();
  for (std::size_t i = 0; i < colours; ++i) {
    const ColourBundles& colour = colourBundles_[backward ? colours - 1 - i : i];
    Bundle* first = bundles_.data() + colour.first;
    if (colour.disjoint) {  // the order within is free
      shared(
          colour.count,
          [&](std::size_t begin, std::size_t end, int /*thread*/) { disjoint(first + begin, end - begin); },
          kMinimumShare / kLanes);
      continue;
    }
    // One after another, both ways in turn too.
    for (std::size_t j = 0; j < colour.count; ++j) {
      Bundle& m = first[backward ? colour.count - 1 - j : j];
      for (int k = 0; k < kLanes; ++k) {
        const int l = backward ? kLanes - 1 - k : k;
        if (m.count[l] > 0) inOrder(m, lanes::OneLane{l});
      }
    }
  }
}

void ContactSolver::useThreads(ParallelLoop* loop) {
  parallel_ = loop;
  threadDeepest_.assign(loop ? static_cast<std::size_t>(loop->threads()) : 1, 0.0);
}

void ContactSolver::prepare(std::span<const BodyContact> contacts, const StateView& state, Eigen::VectorXd& v,
                            double h) {
  const ContactMaterial& material = material_;
  writeBack();  // the warm start below reads the impulses the passes left
  alternate();
  std::swap(points_, previous_);
  // The warm start's match: the last points by pair of bodies, in the order the finder made them
  // (its pairs come sorted, so this sorts nothing as a rule; a body of several shapes, a chain,
  // can interleave them), then each new point's pair found by a cursor that moves forward with
  // the finder's order, and its feature id among the pair's few points (unique within a pair).
  const auto byPair = [](const Point& x, const Point& y) { return pairOf(x) < pairOf(y); };
  if (!std::is_sorted(previous_.begin(), previous_.end(), byPair)) std::sort(previous_.begin(), previous_.end(), byPair);
  springsFor(h);
  // Where each contact's points go, and the bodies its colouring sees.
  touches_.resize(contacts.size());
  std::size_t pointTotal = 0;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    touches_[k] = touchOf(contacts[k].a, contacts[k].b, pointTotal, static_cast<std::size_t>(contacts[k].manifold.count));
    pointTotal += touches_[k].count;
  }
  points_.resize(pointTotal);
  std::fill(threadDeepest_.begin(), threadDeepest_.end(), 0.0);
  shared(contacts.size(), [&](std::size_t begin, std::size_t end, int thread) {
    if (begin == end) return;
    auto cursor = std::lower_bound(previous_.begin(), previous_.end(), std::pair{contacts[begin].a, contacts[begin].b},
                                   [](const Point& x, const auto& key) { return pairOf(x) < key; });
    for (std::size_t k = begin; k < end; ++k) {
      const BodyContact& contact = contacts[k];
      const auto pair = std::pair{contact.a, contact.b};
      if (cursor != previous_.begin() && pairOf(*std::prev(cursor)) >= pair) {  // the finder went back
        cursor = std::lower_bound(previous_.begin(), previous_.end(), pair,
                                  [](const Point& x, const auto& key) { return pairOf(x) < key; });
      }
      while (cursor != previous_.end() && pairOf(*cursor) < pair) ++cursor;
      preparePoints(contact, state, v, h, cursor, &points_[touches_[k].first], threadDeepest_[static_cast<std::size_t>(thread)]);
    }
  });
  deepest_ = *std::max_element(threadDeepest_.begin(), threadDeepest_.end());
  colour(velocityCount_);
  if (!material.solvedAsRows) {
    pack();
    warmStart(v);
    carriable_ = true;
  }
}

void ContactSolver::springsFor(double h) {
  // The soft step's contact springs: between two moving bodies, and against one nothing moves.
  const double hertz = std::min(material_.contactHertz, 0.25 / h);
  softness_ = tinkertoy::soften(hertz, material_.contactDampingRatio, h);
  anchoredSoftness_ = tinkertoy::soften(2.0 * hertz, material_.contactDampingRatio, h);
}

ContactSolver::Touch ContactSolver::touchOf(std::size_t a, std::size_t b, std::size_t first, std::size_t count) const {
  Touch touch{.first = first, .count = count};
  for (const std::size_t body : {a, b}) {
    if (bodies_[body].inverseMass > 0.0) touch.movers[touch.moverCount++] = bodies_[body].offset;
  }
  return touch;
}

void ContactSolver::colour(std::size_t velocities) {
  // Colours where two threads can share one (below, one colour in the finder's order: a
  // symmetric Gauss–Seidel along the pile, which holds a small stack better than colours do).
  const bool coloured = touches_.size() >= 2 * kMinimumShare;
  colouring_.build(touches_.size(), velocities, [&](std::size_t k) {
    return std::span<const Eigen::Index>(touches_[k].movers.data(), coloured ? touches_[k].moverCount : 0);
  });
}

void ContactSolver::forgetLayout() {
  bundles_.clear();
  colourBundles_.clear();
  touches_.clear();
  colour(velocityCount_);  // of no manifolds
  carriable_ = false;
}

void ContactSolver::preparePoints(const BodyContact& contact, const StateView& state, const Eigen::VectorXd& v, double h,
                                  std::vector<Point>::const_iterator same, Point* out, double& deepest) const {
  const BodyMass &a = bodies_[contact.a], &b = bodies_[contact.b];
  const Eigen::Vector2d centerA = state.q.segment<2>(a.offset), centerB = state.q.segment<2>(b.offset);
  const Eigen::Vector2d n = contact.manifold.normal;
  const auto velocityAt = [&](const BodyMass& body, const Eigen::Vector2d& r) {
    const double w = body.turns ? v[body.offset + 2] : 0.0;
    return Eigen::Vector2d(v[body.offset] - w * r.y(), v[body.offset + 1] + w * r.x());
  };
  for (int k = 0; k < contact.manifold.count; ++k) {
    const ContactPoint& c = contact.manifold.points[k];
    Point& p = out[k];
    p = {.a = contact.a,
         .b = contact.b,
         .id = c.id,
         .normal = n,
         .rA = c.point - centerA,
         .rB = c.point - centerB,
         .position = c.point,
         .separation = c.separation};
    weigh(p);
    deepest = std::max(deepest, -c.separation);
    const Aim<double> target = aim<lanes::OneLane>(material_, softness_, anchoredSoftness_, c.separation,
                                                   a.inverseMass == 0.0 || b.inverseMass == 0.0, h);
    p.gapTarget = target.gapTarget;
    p.push = target.push;
    p.massScale = target.massScale;
    p.impulseScale = target.impulseScale;
    p.approach = n.dot(velocityAt(b, p.rB) - velocityAt(a, p.rA));  // before any warm start
    for (auto match = same; material_.warmStart && match != previous_.end() && pairOf(*match) == pairOf(p); ++match) {
      if (match->id != p.id) continue;
      p.normalImpulse = match->normalImpulse;
      p.tangentImpulse = match->tangentImpulse;
      break;
    }
  }
}

// (prepare warm-starts after, once every point's approach is measured, so that whether a point
// bounces does not depend on the order of the points.)
void ContactSolver::pack() {
  static_assert(kLanes == lanes::kWidth, "a bundle holds as many manifolds as the passes update at once");
  // Each colour from a new bundle, so that a bundle's lanes move disjoint bodies.
  const bool coloured = touches_.size() >= 2 * kMinimumShare;  // as colour() made it
  colourBundles_.resize(colouring_.count());
  std::size_t bundles = 0;
  for (std::size_t c = 0; c < colouring_.count(); ++c) {
    const std::size_t members = colouring_.members(c).size();
    colourBundles_[c] = {.first = bundles, .count = (members + kLanes - 1) / kLanes,
                         .disjoint = coloured && !colouring_.isOverflow(c)};
    bundles += colourBundles_[c].count;
  }
  bundles_.resize(bundles);
  shared(bundles_.size(), [&](std::size_t begin, std::size_t end, int /*thread*/) {
    if (begin == end) return;
    // The colour of the share's first bundle, then each bundle's in turn.
    std::size_t c = static_cast<std::size_t>(
        std::upper_bound(colourBundles_.begin(), colourBundles_.end(), begin,
                         [](std::size_t i, const ColourBundles& colour) { return i < colour.first; }) -
        colourBundles_.begin() - 1);
    for (std::size_t i = begin; i < end; ++i) {
      while (i >= colourBundles_[c].first + colourBundles_[c].count) ++c;
      const std::span<const std::size_t> members = colouring_.members(c);
      const std::size_t j = i - colourBundles_[c].first;
      // Zeros first: a lane without a manifold, or a manifold's lane without a second point, has no
      // body it moves and no point present, which the passes compute on and discard.
      Bundle& m = bundles_[i];
      static_assert(std::is_trivially_copyable_v<Bundle>);
      std::memset(static_cast<void*>(&m), 0, sizeof m);
      for (int l = 0; l < kLanes; ++l) {
        const std::size_t member = j * kLanes + static_cast<std::size_t>(l);
        if (member >= members.size()) break;
        const Touch& touch = touches_[members[member]];
        const Point& first = points_[touch.first];
        const BodyMass &a = bodies_[first.a], &b = bodies_[first.b];
        m.offsetA[l] = a.offset;
        m.offsetB[l] = b.offset;
        m.spinA[l] = a.turns ? a.offset + 2 : a.offset;
        m.spinB[l] = b.turns ? b.offset + 2 : b.offset;
        m.inverseMassA[l] = a.inverseMass;
        m.inverseInertiaA[l] = a.inverseInertia;
        m.inverseMassB[l] = b.inverseMass;
        m.inverseInertiaB[l] = b.inverseInertia;
        m.normalX[l] = first.normal.x();
        m.normalY[l] = first.normal.y();
        m.friction[l] = first.friction;
        m.restitution[l] = first.restitution;
        m.movesA[l] = a.inverseMass > 0.0 ? lanes::kYes : 0;
        m.movesB[l] = b.inverseMass > 0.0 ? lanes::kYes : 0;
        m.turningA[l] = a.turns ? lanes::kYes : 0;
        m.turningB[l] = b.turns ? lanes::kYes : 0;
        m.anchored[l] = a.inverseMass == 0.0 || b.inverseMass == 0.0 ? lanes::kYes : 0;
        m.count[l] = static_cast<int>(touch.count);
        for (std::size_t k = 0; k < touch.count; ++k) {
          const Point& p = points_[touch.first + k];
          SlotLanes& slot = m.slots[k];
          slot.rAx[l] = p.rA.x();
          slot.rAy[l] = p.rA.y();
          slot.rBx[l] = p.rB.x();
          slot.rBy[l] = p.rB.y();
          slot.normalMass[l] = p.normalMass;
          slot.tangentMass[l] = p.tangentMass;
          slot.push[l] = p.push;
          slot.gapTarget[l] = p.gapTarget;
          slot.massScale[l] = p.massScale;
          slot.impulseScale[l] = p.impulseScale;
          slot.approach[l] = p.approach;
          slot.separation[l] = p.separation;
          slot.normalImpulse[l] = p.normalImpulse;
          slot.tangentImpulse[l] = p.tangentImpulse;
          slot.present[l] = lanes::kYes;
          slot.source[l] = touch.first + k;
        }
      }
    }
  });
}

template <class Lane>
void ContactSolver::warmBundle(const Bundle& m, Eigen::VectorXd& v, Lane lane) const {
  using Real = typename Lane::Real;
  const Real nx = lane.load(m.normalX), ny = lane.load(m.normalY), tx = ny, ty = -nx;
  const Movers<Lane> movers = moversOf(m, lane);
  PairVelocity<Real> u = read(m, v, lane);
  for (const SlotLanes& p : m.slots) {
    const Real normal = lane.load(p.normalImpulse), tangent = lane.load(p.tangentImpulse);
    apply(movers, armsOf(p, lane), lane.loadMask(p.present), normal * nx + tangent * tx, normal * ny + tangent * ty, u);
  }
  write(m, u, v, lane);
}

TINKERTOY_LANES_CLONES void ContactSolver::warmBundles(const Bundle* first, std::size_t count, Eigen::VectorXd& v) const {
  for (std::size_t j = 0; j < count; ++j) warmBundle(first[j], v, Wide{});
}

void ContactSolver::warmStart(Eigen::VectorXd& v) {
  inColours(
      false, [&](const Bundle* first, std::size_t count) { warmBundles(first, count, v); },
      [&](const Bundle& m, lanes::OneLane lane) { warmBundle(m, v, lane); });
}

TINKERTOY_LANES_CLONES void ContactSolver::carryBundles(Bundle* first, std::size_t count, const Eigen::VectorXd& v,
                                                        double h, double& deepest) const {
  const Wide lane;
  for (std::size_t j = 0; j < count; ++j) {
    Bundle& m = first[j];
    const Wide::Real nx = lane.load(m.normalX), ny = lane.load(m.normalY);
    const Wide::Mask anchored = lane.loadMask(m.anchored);
    const PairVelocity<Wide::Real> u = read(m, v, lane);
    for (std::size_t k = 0; k < 2; ++k) {
      // (A lane without the point aims a gap of 0, which nothing reads.)
      SlotLanes& p = m.slots[k];
      const Wide::Real s = lane.load(p.separation);
      const Aim<Wide::Real> target = aim<Wide>(material_, softness_, anchoredSoftness_, s, anchored, h);
      lane.store(p.gapTarget, target.gapTarget);
      lane.store(p.push, target.push);
      lane.store(p.massScale, target.massScale);
      lane.store(p.impulseScale, target.impulseScale);
      lane.store(p.approach, relativeVelocityAlong(armsOf(p, lane), u, nx, ny));
      for (int l = 0; l < kLanes; ++l) {
        if (p.present[l] != 0) deepest = std::max(deepest, -p.separation[l]);
      }
    }
  }
}

void ContactSolver::carry(Eigen::VectorXd& v, double h) {
  alternate();
  springsFor(h);
  std::fill(threadDeepest_.begin(), threadDeepest_.end(), 0.0);
  shared(
      bundles_.size(),
      [&](std::size_t begin, std::size_t end, int thread) {
        carryBundles(bundles_.data() + begin, end - begin, v, h, threadDeepest_[static_cast<std::size_t>(thread)]);
      },
      kMinimumLoopShare / kLanes);
  deepest_ = *std::max_element(threadDeepest_.begin(), threadDeepest_.end());
  warmStart(v);
}

void ContactSolver::writeBack() const {
  if (!packedAhead_) return;
  shared(bundles_.size(), [&](std::size_t begin, std::size_t end, int /*thread*/) {
    for (std::size_t i = begin; i < end; ++i) {
      const Bundle& m = bundles_[i];
      for (int l = 0; l < kLanes; ++l) {
        for (int k = 0; k < m.count[l]; ++k) {
          const SlotLanes& p = m.slots[static_cast<std::size_t>(k)];
          Point& point = points_[p.source[l]];
          point.normalImpulse = p.normalImpulse[l];
          point.tangentImpulse = p.tangentImpulse[l];
          point.separation = p.separation[l];
        }
      }
    }
  }, kMinimumLoopShare / kLanes);
  packedAhead_ = false;
}

void ContactSolver::solve(Eigen::VectorXd& v, ContactPass pass) {
  packedAhead_ = true;
  if (pass == ContactPass::Position) {
    sweep(v, Rows::Push, false);
    return;
  }
  backward_ = !backward_;
  sweep(v, pass == ContactPass::Solve && material_.push == ContactPush::Velocity ? Rows::PushingNormals : Rows::Normals,
        backward_);
  sweep(v, Rows::Friction, backward_);
}

void ContactSolver::sweep(Eigen::VectorXd& v, Rows rows, bool backward) {
  switch (rows) {  // the rows' kind fixed for the whole sweep, so its kernel has no branch on it
    case Rows::Normals:
      return sweep<Rows::Normals>(v, backward);
    case Rows::PushingNormals:
      return sweep<Rows::PushingNormals>(v, backward);
    case Rows::Friction:
      return sweep<Rows::Friction>(v, backward);
    case Rows::Push:
      return sweep<Rows::Push>(v, backward);
  }
}

template <ContactSolver::Rows rows>
void ContactSolver::sweep(Eigen::VectorXd& v, bool backward) {
  inColours(
      backward, [&](Bundle* first, std::size_t count) { solveBundles<rows>(first, count, v, backward); },
      [&](Bundle& m, lanes::OneLane lane) { solveBundle<rows>(m, v, backward, lane); });
}

template <ContactSolver::Rows rows>
TINKERTOY_LANES_CLONES void ContactSolver::solveBundles(Bundle* first, std::size_t count, Eigen::VectorXd& v,
                                                        bool backward) const {
  for (std::size_t j = 0; j < count; ++j) solveBundle<rows>(first[j], v, backward, Wide{});
}

template <ContactSolver::Rows rows, class Lane>
void ContactSolver::solveBundle(Bundle& m, Eigen::VectorXd& v, bool backward, Lane lane) const {
  using Real = typename Lane::Real;
  using Mask = typename Lane::Mask;
  const Real nx = lane.load(m.normalX), ny = lane.load(m.normalY), tx = ny, ty = -nx;
  const Movers<Lane> movers = moversOf(m, lane);
  PairVelocity<Real> u = read(m, v, lane);
  for (int k = 0; k < 2; ++k) {
    SlotLanes& p = m.slots[static_cast<std::size_t>(backward ? 1 - k : k)];
    const Mask row = lane.loadMask(p.present);
    const Arms<Real> r = armsOf(p, lane);
    if constexpr (rows == Rows::Push) {  // the push alone, on the pseudo velocity
      const Real push = lane.load(p.push);
      Real impulse = lane.load(p.pushImpulse);
      pushToward(movers, r, both(row, Lane::broadcast(0.0) < push), nx, ny, lane.load(p.normalMass), push, impulse, u);
      lane.store(p.pushImpulse, impulse);
    } else if constexpr (rows == Rows::Normals) {
      Real impulse = lane.load(p.normalImpulse);
      pushToward(movers, r, row, nx, ny, lane.load(p.normalMass), lane.load(p.gapTarget), impulse, u);
      lane.store(p.normalImpulse, impulse);
    } else if constexpr (rows == Rows::PushingNormals) {
      // Toward the gap's target or the push (one is 0), soft where the soft step made it so
      // (impulse::updated's arithmetic, clamped to [0, ∞)).
      const Real vn = relativeVelocityAlong(r, u, nx, ny);
      const Real old = lane.load(p.normalImpulse);
      const Real error = vn - lane.load(p.gapTarget) - lane.load(p.push);
      const Real unclamped =
          old - lane.load(p.massScale) * lane.load(p.normalMass) * error - lane.load(p.impulseScale) * old;
      const Real impulse = select(row, lanes::clamped(unclamped, Lane::broadcast(0.0),
                                                      Lane::broadcast(std::numeric_limits<double>::infinity())),
                                  old);
      lane.store(p.normalImpulse, impulse);
      const Real change = impulse - old;
      apply(movers, r, row, change * nx, change * ny, u);
    } else {
      const Real vt = relativeVelocityAlong(r, u, tx, ty);
      const Real old = lane.load(p.tangentImpulse), bound = lane.load(m.friction) * lane.load(p.normalImpulse);
      const Real impulse = select(row, lanes::clamped(old - lane.load(p.tangentMass) * vt, -bound, bound), old);
      lane.store(p.tangentImpulse, impulse);
      const Real change = impulse - old;
      apply(movers, r, row, change * tx, change * ty, u);
    }
  }
  write(m, u, v, lane);
}

TINKERTOY_LANES_CLONES void ContactSolver::moveBundles(Bundle* first, std::size_t count, const Eigen::VectorXd& v,
                                                       double h) const {
  const Wide lane;
  const Wide::Real step = Wide::broadcast(h);
  for (std::size_t j = 0; j < count; ++j) {
    Bundle& m = first[j];
    const Wide::Real nx = lane.load(m.normalX), ny = lane.load(m.normalY);
    const PairVelocity<Wide::Real> u = read(m, v, lane);
    for (SlotLanes& p : m.slots) {
      // (A lane without the point moves a gap that nothing reads.)
      const Wide::Real separation = lane.load(p.separation) + step * relativeVelocityAlong(armsOf(p, lane), u, nx, ny);
      lane.store(p.separation, separation);
      lane.store(p.gapTarget, -lanes::maximum(separation, Wide::broadcast(0.0)) / step);
    }
  }
}

void ContactSolver::moved(const Eigen::VectorXd& v, double h) {
  packedAhead_ = true;  // the gaps
  shared(
      bundles_.size(),
      [&](std::size_t begin, std::size_t end, int /*thread*/) { moveBundles(bundles_.data() + begin, end - begin, v, h); },
      kMinimumLoopShare / kLanes);
}

TINKERTOY_LANES_CLONES void ContactSolver::addWork(const Bundle* first, std::size_t count, const Eigen::VectorXd& v0,
                                                   const Eigen::VectorXd& v1, double& impulses, double& driven) const {
  for (std::size_t j = 0; j < count; ++j) addBundleWork(first[j], v0, v1, impulses, driven);
}

void ContactSolver::addBundleWork(const Bundle& m, const Eigen::VectorXd& v0, const Eigen::VectorXd& v1,
                                  double& impulses, double& driven) const {
  const Wide lane;
  const Wide::Real nx = lane.load(m.normalX), ny = lane.load(m.normalY);
  const PairVelocity<Wide::Real> u0 = read(m, v0, lane), u1 = read(m, v1, lane);
  std::array<PointWork<Wide::Real>, 2> work;
  for (std::size_t k = 0; k < 2; ++k) {
    const SlotLanes& p = m.slots[k];
    work[k] = pointWork(nx, ny, armsOf(p, lane), lane.load(p.normalImpulse), lane.load(p.tangentImpulse), u0, u1);
  }
  // Added manifold by manifold, point by point, as one at a time would.
  for (int l = 0; l < kLanes; ++l) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(m.count[l]); ++k) {
      impulses += Wide::lane(work[k].impulses, l);
      if (m.movesA[l] == 0) driven += Wide::lane(work[k].drivenA, l);
      if (m.movesB[l] == 0) driven -= Wide::lane(work[k].drivenB, l);
    }
  }
}

void ContactSolver::bookWork(const Eigen::VectorXd& v0, const Eigen::VectorXd& v1, WorkLedger& ledger) const {
  double impulses = 0.0, driven = 0.0;
  if (!material_.solvedAsRows) {
    // Each block's sums on the threads, then theirs in order: the same bits on any threads.
    blockWork_.resize((bundles_.size() + kWorkBlock - 1) / kWorkBlock);
    shared(
        blockWork_.size(),
        [&](std::size_t begin, std::size_t end, int /*thread*/) {
          for (std::size_t block = begin; block < end; ++block) {
            double blockImpulses = 0.0, blockDriven = 0.0;
            const std::size_t from = block * kWorkBlock;
            addWork(bundles_.data() + from, std::min(kWorkBlock, bundles_.size() - from), v0, v1, blockImpulses, blockDriven);
            blockWork_[block] = {blockImpulses, blockDriven};
          }
        },
        kMinimumLoopShare / (kLanes * kWorkBlock));
    for (const auto& [blockImpulses, blockDriven] : blockWork_) {
      impulses += blockImpulses;
      driven += blockDriven;
    }
  } else {
    // The exact mode's impulses are the points' own (dynamics/contact_rows.hpp).
    for (const Point& p : points_) {
      const BodyMass &a = bodies_[p.a], &b = bodies_[p.b];
      const PointWork<double> work =
          pointWork(p.normal.x(), p.normal.y(), Arms<double>{p.rA.x(), p.rA.y(), p.rB.x(), p.rB.y()}, p.normalImpulse,
                    p.tangentImpulse, pairVelocity(a, b, v0), pairVelocity(a, b, v1));
      impulses += work.impulses;
      if (a.inverseMass == 0.0) driven += work.drivenA;
      if (b.inverseMass == 0.0) driven -= work.drivenB;
    }
  }
  ledger[WorkSource::Impulses] += impulses;
  ledger[WorkSource::Driven] += driven;
}

void ContactSolver::restitute(Eigen::VectorXd& v) {
  packedAhead_ = true;
  const double threshold = material_.restitutionThreshold;
  const auto bounce = [&](Bundle& m, lanes::OneLane lane) {
    const int l = lane.at;
    const auto bounces = [&](const SlotLanes& p) {
      return !(m.restitution[l] == 0.0 || p.approach[l] >= -threshold || p.normalImpulse[l] == 0.0);
    };
    // Most manifolds have no point that bounces: their bodies are not read or written at all.
    if (!bounces(m.slots[0]) && (m.count[l] < 2 || !bounces(m.slots[1]))) return;
    const Movers<lanes::OneLane> movers = moversOf(m, lane);
    PairVelocity<double> u = read(m, v, lane);
    for (int k = 0; k < m.count[l]; ++k) {
      SlotLanes& p = m.slots[static_cast<std::size_t>(k)];
      if (!bounces(p)) continue;
      pushToward(movers, armsOf(p, lane), true, m.normalX[l], m.normalY[l], p.normalMass[l],
                 -m.restitution[l] * p.approach[l], p.normalImpulse[l], u);
    }
    write(m, u, v, lane);
  };
  inColours(
      false,
      [&](Bundle* first, std::size_t count) {
        for (std::size_t j = 0; j < count; ++j) {
          for (int l = 0; l < kLanes; ++l) {
            if (first[j].count[l] > 0) bounce(first[j], lanes::OneLane{l});
          }
        }
      },
      bounce);
}

}  // namespace tinkertoy
