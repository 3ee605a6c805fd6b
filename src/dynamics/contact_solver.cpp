#include "tinkertoy/dynamics/contact_solver.hpp"

#include "common/parallel_loop.hpp"
#include "dynamics/impulse_update.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

namespace tinkertoy {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// A point's pair of bodies: with its feature id, what a point keeps from step to step.
auto pairOf(const ContactSolver::Point& p) { return std::pair{p.a, p.b}; }

}  // namespace

template <class Body>
void ContactSolver::shared(std::size_t n, Body&& body, std::size_t minimumShare) const {
  if (parallel_ == nullptr) {
    body(std::size_t{0}, n, 0);
  } else {
    parallel_->run(n, body, minimumShare);
  }
}

template <class PerManifold>
void ContactSolver::inColours(bool backward, PerManifold&& perManifold) {
  if (parallel_ == nullptr) {  // colour after colour, each in order: the packed order itself
    if (backward) {
      for (auto m = packed_.rbegin(); m != packed_.rend(); ++m) perManifold(*m);
    } else {
      for (Packed& m : packed_) perManifold(m);
    }
    return;
  }
  const std::size_t colours = colouring_.count();
  const std::size_t* order = colouring_.order().data();
  for (std::size_t i = 0; i < colours; ++i) {
    const std::size_t colour = backward ? colours - 1 - i : i;
    const std::span<const std::size_t> members = colouring_.members(colour);
    Packed* first = packed_.data() + (members.data() - order);
    // Within a colour the order is free, but for the overflow colour's, whose manifolds may share
    // bodies: it goes both ways in turn too.
    const auto share = [&](std::size_t begin, std::size_t end, int /*thread*/) {
      for (std::size_t j = begin; j < end; ++j) perManifold(first[backward ? end - 1 - (j - begin) : j]);
    };
    if (colouring_.isOverflow(colour)) {
      share(0, members.size(), 0);
    } else {
      shared(members.size(), share, kMinimumShare);
    }
  }
}

void ContactSolver::useThreads(ParallelLoop* loop) {
  parallel_ = loop;
  threadDeepest_.assign(loop ? static_cast<std::size_t>(loop->threads()) : 1, 0.0);
}

inline ContactSolver::PairVelocity ContactSolver::read(const Packed& m, const Eigen::VectorXd& v) {
  return {.a = v.segment<2>(m.offsetA),
          .b = v.segment<2>(m.offsetB),
          .wA = m.turnsA ? v[m.offsetA + 2] : 0.0,
          .wB = m.turnsB ? v[m.offsetB + 2] : 0.0};
}

inline void ContactSolver::write(const Packed& m, const PairVelocity& u, Eigen::VectorXd& v) {
  if (m.inverseMassA > 0.0) {
    v.segment<2>(m.offsetA) = u.a;
    if (m.turnsA) v[m.offsetA + 2] = u.wA;
  }
  if (m.inverseMassB > 0.0) {
    v.segment<2>(m.offsetB) = u.b;
    if (m.turnsB) v[m.offsetB + 2] = u.wB;
  }
}

inline Eigen::Vector2d ContactSolver::relativeVelocity(const Slot& p, const PairVelocity& u) {
  return Eigen::Vector2d(u.b.x() - u.wB * p.rB.y() - u.a.x() + u.wA * p.rA.y(),
                         u.b.y() + u.wB * p.rB.x() - u.a.y() - u.wA * p.rA.x());
}

inline void ContactSolver::apply(const Packed& m, const Slot& p, const Eigen::Vector2d& impulse, PairVelocity& u) {
  if (m.inverseMassA > 0.0) {
    u.a -= m.inverseMassA * impulse;
    if (m.turnsA) u.wA -= m.inverseInertiaA * cross(p.rA, impulse);
  }
  if (m.inverseMassB > 0.0) {
    u.b += m.inverseMassB * impulse;
    if (m.turnsB) u.wB += m.inverseInertiaB * cross(p.rB, impulse);
  }
}

template <class Row>
void ContactSolver::aim(Row& row, double s, bool anchored, double h) const {
  row.gapTarget = -std::max(s, 0.0) / h;
  row.push = 0.0;
  row.massScale = 1.0;
  row.impulseScale = 0.0;
  if (material_.push == ContactPush::Velocity && s <= 0.0) {
    const Softness& soft = anchored ? anchoredSoftness_ : softness_;
    row.push = std::min(soft.biasRate * -s, material_.maxPushSpeed);
    row.massScale = soft.massScale;
    row.impulseScale = soft.impulseScale;
  } else if (material_.push == ContactPush::Position) {
    row.push = std::min(material_.baumgarte * std::max(-s - material_.slop, 0.0) / h, material_.maxPushSpeed);
  }
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
  packed_.clear();
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
    aim(p, c.separation, a.inverseMass == 0.0 || b.inverseMass == 0.0, h);
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
  packed_.resize(touches_.size());
  const std::span<const std::size_t> order = colouring_.order();
  shared(packed_.size(), [&](std::size_t begin, std::size_t end, int /*thread*/) {
    for (std::size_t i = begin; i < end; ++i) {
      const Touch& touch = touches_[order[i]];
      const Point& first = points_[touch.first];
      const BodyMass &a = bodies_[first.a], &b = bodies_[first.b];
      Packed& m = packed_[i];
      m = {.offsetA = a.offset,
           .offsetB = b.offset,
           .inverseMassA = a.inverseMass,
           .inverseInertiaA = a.inverseInertia,
           .inverseMassB = b.inverseMass,
           .inverseInertiaB = b.inverseInertia,
           .turnsA = a.turns,
           .turnsB = b.turns,
           .anchored = a.inverseMass == 0.0 || b.inverseMass == 0.0,
           .count = static_cast<int>(touch.count),
           .normal = first.normal,
           .friction = first.friction,
           .restitution = first.restitution};
      for (std::size_t k = 0; k < touch.count; ++k) {
        const Point& p = points_[touch.first + k];
        m.slots[k] = {.rA = p.rA,
                      .rB = p.rB,
                      .normalMass = p.normalMass,
                      .tangentMass = p.tangentMass,
                      .push = p.push,
                      .gapTarget = p.gapTarget,
                      .massScale = p.massScale,
                      .impulseScale = p.impulseScale,
                      .approach = p.approach,
                      .separation = p.separation,
                      .normalImpulse = p.normalImpulse,
                      .tangentImpulse = p.tangentImpulse,
                      .source = touch.first + k};
      }
    }
  });
}

void ContactSolver::warmStart(Eigen::VectorXd& v) {
  inColours(false, [&](const Packed& m) {
    const Eigen::Vector2d t(m.normal.y(), -m.normal.x());
    PairVelocity u = read(m, v);
    for (int k = 0; k < m.count; ++k) {
      const Slot& p = m.slots[static_cast<std::size_t>(k)];
      apply(m, p, p.normalImpulse * m.normal + p.tangentImpulse * t, u);
    }
    write(m, u, v);
  });
}

void ContactSolver::carry(Eigen::VectorXd& v, double h) {
  alternate();
  springsFor(h);
  std::fill(threadDeepest_.begin(), threadDeepest_.end(), 0.0);
  shared(packed_.size(), [&](std::size_t begin, std::size_t end, int thread) {
    double& deepest = threadDeepest_[static_cast<std::size_t>(thread)];
    for (std::size_t i = begin; i < end; ++i) {
      Packed& m = packed_[i];
      const PairVelocity u = read(m, v);
      for (int k = 0; k < m.count; ++k) {
        Slot& p = m.slots[static_cast<std::size_t>(k)];
        aim(p, p.separation, m.anchored, h);
        p.approach = m.normal.dot(relativeVelocity(p, u));
        deepest = std::max(deepest, -p.separation);
      }
    }
  });
  deepest_ = *std::max_element(threadDeepest_.begin(), threadDeepest_.end());
  warmStart(v);
}

void ContactSolver::writeBack() const {
  if (!packedAhead_) return;
  shared(packed_.size(), [&](std::size_t begin, std::size_t end, int /*thread*/) {
    for (std::size_t i = begin; i < end; ++i) {
      const Packed& m = packed_[i];
      for (int k = 0; k < m.count; ++k) {
        const Slot& p = m.slots[static_cast<std::size_t>(k)];
        points_[p.source].normalImpulse = p.normalImpulse;
        points_[p.source].tangentImpulse = p.tangentImpulse;
        points_[p.source].separation = p.separation;
      }
    }
  });
  packedAhead_ = false;
}

inline void ContactSolver::pushToward(const Packed& m, const Slot& p, double target, double& impulse,
                                      PairVelocity& u) {
  const double vn = m.normal.dot(relativeVelocity(p, u));
  const double old = impulse;
  impulse = std::max(old - p.normalMass * (vn - target), 0.0);
  apply(m, p, (impulse - old) * m.normal, u);
}

inline void ContactSolver::pushSoftly(const Packed& m, Slot& p, PairVelocity& u) {
  const double vn = m.normal.dot(relativeVelocity(p, u));
  const double old = p.normalImpulse;
  p.normalImpulse = impulse::updated(old, p.normalMass, vn - p.gapTarget - p.push, p.massScale, p.impulseScale, 0.0,
                                     std::numeric_limits<double>::infinity());
  apply(m, p, (p.normalImpulse - old) * m.normal, u);
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
  inColours(backward, [&](Packed& m) { solvePacked<rows>(m, v, backward); });
}

template <ContactSolver::Rows rows>
void ContactSolver::solvePacked(Packed& m, Eigen::VectorXd& v, bool backward) const {
  const Eigen::Vector2d t(m.normal.y(), -m.normal.x());
  PairVelocity u = read(m, v);
  for (int k = 0; k < m.count; ++k) {
    Slot& p = m.slots[static_cast<std::size_t>(backward ? m.count - 1 - k : k)];
    if constexpr (rows == Rows::Push) {  // the push alone, on the pseudo velocity
      if (p.push > 0.0) pushToward(m, p, p.push, p.pushImpulse, u);
    } else if constexpr (rows == Rows::Normals) {
      pushToward(m, p, p.gapTarget, p.normalImpulse, u);
    } else if constexpr (rows == Rows::PushingNormals) {
      pushSoftly(m, p, u);  // toward the gap's target or the push (one is 0)
    } else {
      const double vt = t.dot(relativeVelocity(p, u));
      const double old = p.tangentImpulse, bound = m.friction * p.normalImpulse;
      p.tangentImpulse = std::clamp(old - p.tangentMass * vt, -bound, bound);
      apply(m, p, (p.tangentImpulse - old) * t, u);
    }
  }
  write(m, u, v);
}

void ContactSolver::moved(const Eigen::VectorXd& v, double h) {
  packedAhead_ = true;  // the gaps
  shared(packed_.size(), [&](std::size_t begin, std::size_t end, int /*thread*/) {
    for (std::size_t i = begin; i < end; ++i) {
      Packed& m = packed_[i];
      const PairVelocity u = read(m, v);
      for (int k = 0; k < m.count; ++k) {
        Slot& p = m.slots[static_cast<std::size_t>(k)];
        p.separation += h * m.normal.dot(relativeVelocity(p, u));
        p.gapTarget = -std::max(p.separation, 0.0) / h;
      }
    }
  });
}

inline void ContactSolver::addWork(const Packed& m, const Slot& p, const PairVelocity& u0, const PairVelocity& u1,
                                   double& impulses, double& driven) {
  const Eigen::Vector2d impulse = p.normalImpulse * m.normal + p.tangentImpulse * Eigen::Vector2d(m.normal.y(), -m.normal.x());
  impulses += 0.5 * impulse.dot(relativeVelocity(p, u0) + relativeVelocity(p, u1));
  // A body nothing moves (m⁻¹ = 0) keeps its velocity whatever the impulse: its share is what its
  // driver put in (none for a static body, at rest).
  if (m.inverseMassA == 0.0) driven += 0.5 * impulse.dot(pointVelocity(u0.a, u0.wA, p.rA) + pointVelocity(u1.a, u1.wA, p.rA));
  if (m.inverseMassB == 0.0) driven -= 0.5 * impulse.dot(pointVelocity(u0.b, u0.wB, p.rB) + pointVelocity(u1.b, u1.wB, p.rB));
}

void ContactSolver::bookWork(const Eigen::VectorXd& v0, const Eigen::VectorXd& v1, WorkLedger& ledger) const {
  double impulses = 0.0, driven = 0.0;
  if (!material_.solvedAsRows) {
    // Each block's sums on the threads, then theirs in order: the same bits on any threads.
    blockWork_.resize((packed_.size() + kWorkBlock - 1) / kWorkBlock);
    shared(
        blockWork_.size(),
        [&](std::size_t begin, std::size_t end, int /*thread*/) {
          for (std::size_t block = begin; block < end; ++block) {
            double blockImpulses = 0.0, blockDriven = 0.0;
            for (std::size_t i = block * kWorkBlock; i < std::min((block + 1) * kWorkBlock, packed_.size()); ++i) {
              const Packed& m = packed_[i];
              const PairVelocity u0 = read(m, v0), u1 = read(m, v1);
              for (int k = 0; k < m.count; ++k) addWork(m, m.slots[static_cast<std::size_t>(k)], u0, u1, blockImpulses, blockDriven);
            }
            blockWork_[block] = {blockImpulses, blockDriven};
          }
        },
        kMinimumLoopShare / kWorkBlock);
    for (const auto& [blockImpulses, blockDriven] : blockWork_) {
      impulses += blockImpulses;
      driven += blockDriven;
    }
  } else {
    // The exact mode's impulses are the points' own (dynamics/contact_rows.hpp).
    for (const Point& p : points_) {
      const BodyMass &a = bodies_[p.a], &b = bodies_[p.b];
      const Packed m{.offsetA = a.offset, .offsetB = b.offset, .inverseMassA = a.inverseMass, .inverseMassB = b.inverseMass,
                     .turnsA = a.turns, .turnsB = b.turns, .normal = p.normal};
      addWork(m, {.rA = p.rA, .rB = p.rB, .normalImpulse = p.normalImpulse, .tangentImpulse = p.tangentImpulse}, read(m, v0),
              read(m, v1), impulses, driven);
    }
  }
  ledger[WorkSource::Impulses] += impulses;
  ledger[WorkSource::Driven] += driven;
}

void ContactSolver::restitute(Eigen::VectorXd& v) {
  packedAhead_ = true;
  const auto bounces = [&](const Packed& m, const Slot& p) {
    return !(m.restitution == 0.0 || p.approach >= -material_.restitutionThreshold || p.normalImpulse == 0.0);
  };
  inColours(false, [&](Packed& m) {
    // Most manifolds have no point that bounces: their bodies are not read or written at all.
    if (!bounces(m, m.slots[0]) && (m.count < 2 || !bounces(m, m.slots[1]))) return;
    PairVelocity u = read(m, v);
    for (int k = 0; k < m.count; ++k) {
      Slot& p = m.slots[static_cast<std::size_t>(k)];
      if (bounces(m, p)) pushToward(m, p, -m.restitution * p.approach, p.normalImpulse, u);
    }
    write(m, u, v);
  });
}

}  // namespace tinkertoy
