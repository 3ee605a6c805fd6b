#include "tinkertoy/dynamics/contact_solver.hpp"

#include <algorithm>
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
    if (!rigid || body.isDriven()) continue;  // only rigid bodies collide; a driven one answers nothing
    bodies_[i].inverseMass = 1.0 / rigid->mass;
    bodies_[i].inverseInertia = 1.0 / rigid->inertia.value_or(rigid->shape.inertia(rigid->mass));
  }
  points_.clear();
  previous_.clear();
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
  for (const BodyContact& contact : contacts) {
    const BodyMass &a = bodies_[contact.a], &b = bodies_[contact.b];
    const Eigen::Vector2d centerA = state.q.segment<2>(a.offset), centerB = state.q.segment<2>(b.offset);
    const Eigen::Vector2d n = contact.manifold.normal, t(n.y(), -n.x());
    for (int k = 0; k < contact.manifold.count; ++k) {
      const ContactPoint& c = contact.manifold.points[k];
      Point p{.a = contact.a, .b = contact.b, .id = c.id, .normal = n, .rA = c.point - centerA, .rB = c.point - centerB};
      const auto effective = [&](const Eigen::Vector2d& d) {
        const double ra = cross(p.rA, d), rb = cross(p.rB, d);
        const double sum = a.inverseMass + b.inverseMass + a.inverseInertia * ra * ra + b.inverseInertia * rb * rb;
        return sum > 0.0 ? 1.0 / sum : 0.0;
      };
      p.normalMass = effective(n);
      p.tangentMass = effective(t);
      p.target = c.separation > 0.0 ? -c.separation / h
                                    : material.baumgarte * std::max(-c.separation - material.slop, 0.0) / h;
      p.approach = n.dot(relativeVelocity(p, v));
      p.friction = material.friction;
      p.restitution = material.restitution;
      p.threshold = material.restitutionThreshold;
      const auto same = std::lower_bound(previous_.begin(), previous_.end(), key(p.a, p.b, p.id),
                                         [](const Point& x, const auto& wanted) { return key(x.a, x.b, x.id) < wanted; });
      if (same != previous_.end() && key(same->a, same->b, same->id) == key(p.a, p.b, p.id)) {
        p.normalImpulse = same->normalImpulse;
        p.tangentImpulse = same->tangentImpulse;
        apply(p, p.normalImpulse * n + p.tangentImpulse * t, v);
      }
      points_.push_back(p);
    }
  }
}

void ContactSolver::pushToward(Point& p, double target, Eigen::VectorXd& v) const {
  const double vn = p.normal.dot(relativeVelocity(p, v));
  const double old = p.normalImpulse;
  p.normalImpulse = std::max(old - p.normalMass * (vn - target), 0.0);
  apply(p, (p.normalImpulse - old) * p.normal, v);
}

void ContactSolver::solve(Eigen::VectorXd& v) {
  for (Point& p : points_) {
    const Eigen::Vector2d t(p.normal.y(), -p.normal.x());
    const double vt = t.dot(relativeVelocity(p, v));
    const double old = p.tangentImpulse, bound = p.friction * p.normalImpulse;
    p.tangentImpulse = std::clamp(old - p.tangentMass * vt, -bound, bound);
    apply(p, (p.tangentImpulse - old) * t, v);
    pushToward(p, p.target, v);
  }
}

void ContactSolver::restitute(Eigen::VectorXd& v) {
  for (Point& p : points_) {
    if (p.restitution == 0.0 || p.approach >= -p.threshold || p.normalImpulse == 0.0) continue;
    pushToward(p, -p.restitution * p.approach, v);
  }
}

std::vector<ContactSolver::PointImpulse> ContactSolver::impulses() const {
  std::vector<PointImpulse> out;
  out.reserve(points_.size());
  for (const Point& p : points_) out.push_back({p.normalImpulse, p.tangentImpulse});
  return out;
}

}  // namespace tinkertoy
