#include "tinkertoy/dynamics/contact_solver.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <variant>

namespace tinkertoy {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// The key a point keeps from step to step: its bodies and features.
auto key(std::size_t a, std::size_t b, std::uint32_t id) { return std::tuple{a, b, id}; }

}  // namespace

void ContactSolver::build(const Model& model) {
  bodies_.assign(model.bodyCount(), BodyMass{});
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const Body& body = model.body(id);
    bodies_[i].offset = static_cast<Eigen::Index>(model.offsetOf(id));
    const BodySettings settings = body.settings();
    const auto* rigid = std::get_if<RigidBodySettings>(&settings);
    if (!rigid) continue;  // only rigid bodies collide
    const Convex shape = convexOf(rigid->shape);
    for (int k = 0; k < shape.count; ++k) bodies_[i].reach = std::max(bodies_[i].reach, shape.vertices[k].norm() + shape.radius);
    if (body.isDriven()) continue;  // a driven one answers nothing
    bodies_[i].inverseMass = 1.0 / rigid->mass;
    bodies_[i].inverseInertia = 1.0 / rigid->inertia.value_or(rigid->shape.inertia(rigid->mass));
  }
  points_.clear();
  previous_.clear();
  // Room for two points in each of a pile's contacts (a few per body), kept from step to step.
  points_.reserve(8 * bodies_.size());
  previous_.reserve(8 * bodies_.size());
}

Eigen::Vector2d ContactSolver::relativeVelocity(const Point& p, const Eigen::VectorXd& v) const {
  const auto at = [&](std::size_t body, const Eigen::Vector2d& r) {
    const Eigen::Index o = bodies_[body].offset;
    return Eigen::Vector2d(v[o] - v[o + 2] * r.y(), v[o + 1] + v[o + 2] * r.x());
  };
  return at(p.b, p.rB) - at(p.a, p.rA);
}

void ContactSolver::apply(const Point& p, const Eigen::Vector2d& impulse, Eigen::VectorXd& v) const {
  const BodyMass &a = bodies_[p.a], &b = bodies_[p.b];
  v.segment<2>(a.offset) -= a.inverseMass * impulse;
  v[a.offset + 2] -= a.inverseInertia * cross(p.rA, impulse);
  v.segment<2>(b.offset) += b.inverseMass * impulse;
  v[b.offset + 2] += b.inverseInertia * cross(p.rB, impulse);
}

void ContactSolver::prepare(std::span<const BodyContact> contacts, const StateView& state, Eigen::VectorXd& v,
                            double h, const ContactMaterial& material) {
  std::swap(points_, previous_);
  std::sort(previous_.begin(), previous_.end(),
            [](const Point& x, const Point& y) { return key(x.a, x.b, x.id) < key(y.a, y.b, y.id); });
  points_.clear();
  deepest_ = 0.0;
  for (const BodyContact& contact : contacts) {
    const BodyMass &a = bodies_[contact.a], &b = bodies_[contact.b];
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
      p.relaxedTarget = c.separation > 0.0 ? -c.separation / h : 0.0;
      p.target = c.separation > 0.0 ? p.relaxedTarget
                                    : material.baumgarte * std::max(-c.separation - material.slop, 0.0) / h;
      p.approach = n.dot(relativeVelocity(p, v));  // before any warm start (the loop below)
      p.friction = material.friction;
      p.restitution = material.restitution;
      p.threshold = material.restitutionThreshold;
      const auto same = std::lower_bound(previous_.begin(), previous_.end(), key(p.a, p.b, p.id),
                                         [](const Point& x, const auto& wanted) { return key(x.a, x.b, x.id) < wanted; });
      if (same != previous_.end() && key(same->a, same->b, same->id) == key(p.a, p.b, p.id)) {
        p.normalImpulse = same->normalImpulse;
        p.tangentImpulse = same->tangentImpulse;
      }
      points_.push_back(p);
    }
  }
  // The warm start once every point's approach is measured, so that whether a point bounces does
  // not depend on the order of the points.
  for (const Point& p : points_) {
    apply(p, p.normalImpulse * p.normal + p.tangentImpulse * Eigen::Vector2d(p.normal.y(), -p.normal.x()), v);
  }
}

void ContactSolver::pushToward(Point& p, double target, Eigen::VectorXd& v) const {
  const double vn = p.normal.dot(relativeVelocity(p, v));
  const double old = p.normalImpulse;
  p.normalImpulse = std::max(old - p.normalMass * (vn - target), 0.0);
  apply(p, (p.normalImpulse - old) * p.normal, v);
}

void ContactSolver::solve(Eigen::VectorXd& v, bool bias) {
  for (Point& p : points_) {
    const Eigen::Vector2d t(p.normal.y(), -p.normal.x());
    const double vt = t.dot(relativeVelocity(p, v));
    const double old = p.tangentImpulse, bound = p.friction * p.normalImpulse;
    p.tangentImpulse = std::clamp(old - p.tangentMass * vt, -bound, bound);
    apply(p, (p.tangentImpulse - old) * t, v);
    pushToward(p, bias ? p.target : p.relaxedTarget, v);
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

double ContactSolver::fastestPoint(const Eigen::VectorXd& v) const {
  double fastest = 0.0;
  for (const BodyMass& b : bodies_) {
    if (b.reach == 0.0) continue;
    fastest = std::max(fastest, v.segment<2>(b.offset).norm() + std::abs(v[b.offset + 2]) * b.reach);
  }
  return fastest;
}

void ContactSolver::serialize(StateArchive& archive) {
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
    if (archive.reading() && (p.a >= bodies_.size() || p.b >= bodies_.size())) {
      throw StateError("the state file holds a contact of a body this model does not have");
    }
  }
}

void ContactSolver::restitute(Eigen::VectorXd& v) {
  for (Point& p : points_) {
    if (p.restitution == 0.0 || p.approach >= -p.threshold || p.normalImpulse == 0.0) continue;
    pushToward(p, -p.restitution * p.approach, v);
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
