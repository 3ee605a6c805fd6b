#include "tinkertoy/dynamics/contact_solver.hpp"

#include "common/parallel_loop.hpp"
#include "dynamics/impulse_update.hpp"
#include "dynamics/softness.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>
#include <variant>

namespace tinkertoy {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// A point's pair of bodies: with its feature id, what a point keeps from step to step.
auto pairOf(const ContactSolver::Point& p) { return std::pair{p.a, p.b}; }

}  // namespace

void ContactSolver::build(const Model& model, const ContactMaterial& material) {
  material_ = material;
  refresh(model);
  points_.clear();
  previous_.clear();
  startsBackward_ = true;  // the first prepare's passes start forward
  // Room for two points in each of a pile's contacts (a few per body), kept from step to step.
  points_.reserve(8 * bodies_.size());
  previous_.reserve(8 * bodies_.size());
  touches_.reserve(4 * bodies_.size());
  colouring_.reserve(4 * bodies_.size(), static_cast<std::size_t>(model.v().size()));
}

void ContactSolver::refresh(const Model& model) {
  bodies_.assign(model.bodyCount(), BodyMass{});
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const Body& body = model.body(id);
    BodyMass& b = bodies_[i];
    b.offset = static_cast<Eigen::Index>(model.offsetOf(id));
    const auto surface = [&](const Collider& c) {
      b.friction = c.friction.value_or(material_.friction);
      b.restitution = c.restitution.value_or(material_.restitution);
    };
    const BodySettings settings = body.settings();
    if (const auto* rigid = std::get_if<RigidBodySettings>(&settings)) {
      surface(rigid->collider);
      b.turns = true;
      if (body.isDriven()) continue;  // a driven one answers nothing
      b.inverseMass = 1.0 / rigid->mass;
      b.inverseInertia = 1.0 / rigid->inertia.value_or(rigid->shape.inertia(rigid->mass));
    } else if (const auto* particle = std::get_if<ParticleSettings>(&settings); particle && particle->radius > 0.0) {
      surface(particle->collider);
      b.inverseMass = 1.0 / particle->mass;
    }
  }
}

inline Eigen::Vector2d ContactSolver::relativeVelocity(const Point& p, const Eigen::VectorXd& v) const {
  const auto at = [&](std::size_t body, const Eigen::Vector2d& r) {
    const BodyMass& m = bodies_[body];
    const Eigen::Index o = m.offset;
    const double w = spin(m, v);
    return Eigen::Vector2d(v[o] - w * r.y(), v[o + 1] + w * r.x());
  };
  return at(p.b, p.rB) - at(p.a, p.rA);
}

// A body nothing moves (static, kinematic) is not written at all: the manifolds of one colour
// may share it, and run on different threads.
inline void ContactSolver::apply(const Point& p, const Eigen::Vector2d& impulse, Eigen::VectorXd& v) const {
  const BodyMass &a = bodies_[p.a], &b = bodies_[p.b];
  if (a.inverseMass > 0.0) {
    v.segment<2>(a.offset) -= a.inverseMass * impulse;
    if (a.turns) v[a.offset + 2] -= a.inverseInertia * cross(p.rA, impulse);
  }
  if (b.inverseMass > 0.0) {
    v.segment<2>(b.offset) += b.inverseMass * impulse;
    if (b.turns) v[b.offset + 2] += b.inverseInertia * cross(p.rB, impulse);
  }
}

void ContactSolver::prepare(std::span<const BodyContact> contacts, const StateView& state, Eigen::VectorXd& v,
                            double h) {
  const ContactMaterial& material = material_;
  // Each prepare's first pass goes the other way from the last prepare's first (below).
  startsBackward_ = !startsBackward_;
  backward_ = !startsBackward_;
  std::swap(points_, previous_);
  // The warm start's match: the last points by pair of bodies, in the order the finder made them
  // (its pairs come sorted, so this sorts nothing as a rule; a body of several shapes, a chain,
  // can interleave them), then each new point's pair found by a cursor that moves forward with
  // the finder's order, and its feature id among the pair's few points (unique within a pair).
  const auto byPair = [](const Point& x, const Point& y) { return pairOf(x) < pairOf(y); };
  if (!std::is_sorted(previous_.begin(), previous_.end(), byPair)) std::sort(previous_.begin(), previous_.end(), byPair);
  auto cursor = previous_.begin();
  // The soft step's contact springs: between two moving bodies, and against one nothing moves.
  const double hertz = std::min(material.contactHertz, 0.25 / h);
  const Softness softness = soften(hertz, material.contactDampingRatio, h);
  const Softness anchoredSoftness = soften(2.0 * hertz, material.contactDampingRatio, h);
  points_.clear();
  touches_.clear();
  deepest_ = 0.0;
  for (const BodyContact& contact : contacts) {
    const BodyMass &a = bodies_[contact.a], &b = bodies_[contact.b];
    Touch touch{.first = points_.size(), .count = static_cast<std::size_t>(contact.manifold.count)};
    for (const BodyMass* body : {&a, &b}) {
      if (body->inverseMass > 0.0) touch.movers[touch.moverCount++] = body->offset;
    }
    touches_.push_back(touch);
    const Eigen::Vector2d centerA = state.q.segment<2>(a.offset), centerB = state.q.segment<2>(b.offset);
    const Eigen::Vector2d n = contact.manifold.normal, t(n.y(), -n.x());
    for (int k = 0; k < contact.manifold.count; ++k) {
      const ContactPoint& c = contact.manifold.points[k];
      Point p{.a = contact.a,
              .b = contact.b,
              .id = c.id,
              .normal = n,
              .rA = c.point - centerA,
              .rB = c.point - centerB,
              .position = c.point,
              .separation = c.separation};
      const auto effective = [&](const Eigen::Vector2d& d) {
        const double ra = cross(p.rA, d), rb = cross(p.rB, d);
        const double sum = a.inverseMass + b.inverseMass + a.inverseInertia * ra * ra + b.inverseInertia * rb * rb;
        return sum > 0.0 ? 1.0 / sum : 0.0;
      };
      p.normalMass = effective(n);
      p.tangentMass = effective(t);
      deepest_ = std::max(deepest_, -c.separation);
      p.gapTarget = -std::max(c.separation, 0.0) / h;
      if (material.push == ContactPush::Velocity && c.separation <= 0.0) {
        const Softness& soft = a.inverseMass == 0.0 || b.inverseMass == 0.0 ? anchoredSoftness : softness;
        p.push = std::min(soft.biasRate * -c.separation, material.maxPushSpeed);
        p.massScale = soft.massScale;
        p.impulseScale = soft.impulseScale;
      } else if (material.push == ContactPush::Position) {
        p.push = std::min(material.baumgarte * std::max(-c.separation - material.slop, 0.0) / h, material.maxPushSpeed);
      }
      p.approach = n.dot(relativeVelocity(p, v));  // before any warm start (the loop below)
      p.friction = mixedFriction(a.friction, b.friction);
      p.restitution = mixedRestitution(a.restitution, b.restitution);
      p.threshold = material.restitutionThreshold;
      if (cursor != previous_.begin() && pairOf(*std::prev(cursor)) >= pairOf(p)) {
        cursor = std::lower_bound(previous_.begin(), previous_.end(), p, byPair);  // the finder went back
      }
      while (cursor != previous_.end() && pairOf(*cursor) < pairOf(p)) ++cursor;
      for (auto same = cursor; material.warmStart && same != previous_.end() && pairOf(*same) == pairOf(p); ++same) {
        if (same->id != p.id) continue;
        p.normalImpulse = same->normalImpulse;
        p.tangentImpulse = same->tangentImpulse;
        break;
      }
      points_.push_back(p);
    }
  }
  // Colours where two threads can share one (below, one colour in the finder's order: a
  // symmetric Gauss–Seidel along the pile, which holds a small stack better than colours do).
  const bool coloured = touches_.size() >= 2 * kMinimumShare;
  colouring_.build(touches_.size(), static_cast<std::size_t>(v.size()), [&](std::size_t k) {
    return std::span<const Eigen::Index>(touches_[k].movers.data(), coloured ? touches_[k].moverCount : 0);
  });
  // The warm start once every point's approach is measured, so that whether a point bounces does
  // not depend on the order of the points.
  if (material.solvedAsRows) return;
  for (const Point& p : points_) {
    apply(p, p.normalImpulse * p.normal + p.tangentImpulse * Eigen::Vector2d(p.normal.y(), -p.normal.x()), v);
  }
}

inline void ContactSolver::pushToward(Point& p, double target, double& impulse, Eigen::VectorXd& v) const {
  const double vn = p.normal.dot(relativeVelocity(p, v));
  const double old = impulse;
  impulse = std::max(old - p.normalMass * (vn - target), 0.0);
  apply(p, (impulse - old) * p.normal, v);
}

inline void ContactSolver::pushSoftly(Point& p, Eigen::VectorXd& v) const {
  const double vn = p.normal.dot(relativeVelocity(p, v));
  const double old = p.normalImpulse;
  p.normalImpulse = impulse::updated(old, p.normalMass, vn - p.gapTarget - p.push, p.massScale, p.impulseScale, 0.0,
                                     std::numeric_limits<double>::infinity());
  apply(p, (p.normalImpulse - old) * p.normal, v);
}

void ContactSolver::solve(Eigen::VectorXd& v, ContactPass pass) {
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
  const std::size_t colours = colouring_.count();
  for (std::size_t i = 0; i < colours; ++i) {
    const std::size_t colour = backward ? colours - 1 - i : i;
    const std::span<const std::size_t> members = colouring_.members(colour);
    // Within a colour the order is free, but for the overflow colour's, whose manifolds may share
    // bodies: it goes both ways in turn too.
    const auto share = [&](std::size_t begin, std::size_t end, int /*thread*/) {
      for (std::size_t j = begin; j < end; ++j) {
        const std::size_t k = backward ? members[end - 1 - (j - begin)] : members[j];
        solveTouch(touches_[k], v, rows, backward);
      }
    };
    if (parallel_ == nullptr || colouring_.isOverflow(colour)) {
      share(0, members.size(), 0);
    } else {
      parallel_->run(members.size(), share, kMinimumShare);
    }
  }
}

void ContactSolver::solveTouch(const Touch& touch, Eigen::VectorXd& v, Rows rows, bool backward) {
  for (std::size_t k = 0; k < touch.count; ++k) {
    Point& p = points_[touch.first + (backward ? touch.count - 1 - k : k)];
    switch (rows) {
      case Rows::Push:  // the push alone, on the pseudo velocity
        if (p.push > 0.0) pushToward(p, p.push, p.pushImpulse, v);
        break;
      case Rows::Normals:
        pushToward(p, p.gapTarget, p.normalImpulse, v);
        break;
      case Rows::PushingNormals:
        pushSoftly(p, v);  // toward the gap's target or the push (one is 0)
        break;
      case Rows::Friction: {
        const Eigen::Vector2d t(p.normal.y(), -p.normal.x());
        const double vt = t.dot(relativeVelocity(p, v));
        const double old = p.tangentImpulse, bound = p.friction * p.normalImpulse;
        p.tangentImpulse = std::clamp(old - p.tangentMass * vt, -bound, bound);
        apply(p, (p.tangentImpulse - old) * t, v);
        break;
      }
    }
  }
}

void ContactSolver::moved(const Eigen::VectorXd& v, double h) {
  for (Point& p : points_) {
    const double separation = p.separation + h * p.normal.dot(relativeVelocity(p, v));
    p.gapTarget = -std::max(separation, 0.0) / h;
  }
}

double ContactSolver::work(const Eigen::VectorXd& v0, const Eigen::VectorXd& v1) const {
  double total = 0.0;
  for (const Point& p : points_) {
    const Eigen::Vector2d impulse = p.normalImpulse * p.normal + p.tangentImpulse * Eigen::Vector2d(p.normal.y(), -p.normal.x());
    total += 0.5 * impulse.dot(relativeVelocity(p, v0) + relativeVelocity(p, v1));
  }
  return total;
}

void ContactSolver::serialize(StateArchive& archive) {
  archive.flag(startsBackward_);
  std::int64_t count = static_cast<std::int64_t>(points_.size());
  archive.integer(count);
  if (archive.reading()) {
    // Two points at most for each pair of bodies.
    if (count < 0 || static_cast<std::uint64_t>(count) > static_cast<std::uint64_t>(bodies_.size()) * bodies_.size()) {
      throw StateError("the state file holds more contact points than this model's bodies can have");
    }
    points_.assign(static_cast<std::size_t>(count), Point{});
  }
  for (Point& p : points_) {
    archive.integer(p.a);
    archive.integer(p.b);
    archive.integer(p.id);
    archive.number(p.normalImpulse);
    archive.number(p.tangentImpulse);
    // For the reports (Simulator::contacts) of a restored run; the next prepare measures afresh.
    archive.number(p.normal.x());
    archive.number(p.normal.y());
    archive.number(p.position.x());
    archive.number(p.position.y());
    archive.number(p.separation);
    if (archive.reading() && !(std::isfinite(p.normalImpulse) && std::isfinite(p.tangentImpulse) &&
                               p.normal.allFinite() && p.position.allFinite() && std::isfinite(p.separation))) {
      throw StateError("the state file holds a contact impulse or point that is not finite");
    }
    if (archive.reading() && (p.a >= bodies_.size() || p.b >= bodies_.size())) {
      throw StateError("the state file holds a contact of a body this model does not have");
    }
  }
}

void ContactSolver::restitute(Eigen::VectorXd& v) {
  for (Point& p : points_) {
    if (p.restitution == 0.0 || p.approach >= -p.threshold || p.normalImpulse == 0.0) continue;
    pushToward(p, -p.restitution * p.approach, p.normalImpulse, v);
  }
}

std::vector<ContactReport> ContactSolver::reports(const Model& model) const {
  std::vector<ContactReport> out;
  out.reserve(points_.size());
  for (const Point& p : points_) {
    out.push_back({.a = model.bodyAt(p.a),
                   .b = model.bodyAt(p.b),
                   .point = p.position,
                   .normal = p.normal,
                   .separation = p.separation,
                   .normalImpulse = p.normalImpulse,
                   .tangentImpulse = p.tangentImpulse});
  }
  return out;
}

std::vector<ContactSolver::PointImpulse> ContactSolver::impulses() const {
  std::vector<PointImpulse> out;
  out.reserve(points_.size());
  for (const Point& p : points_) out.push_back({p.normalImpulse, p.tangentImpulse});
  return out;
}

}  // namespace tinkertoy
