// ContactSolver's points as the rest of the library reads them: the state file, the reports, the
// impulses, and the points a sleeping island sets aside and returns (dynamics/sleeping_islands.hpp).
#include <algorithm>
#include <cmath>

#include "tinkertoy/dynamics/contact_solver.hpp"

namespace tinkertoy {

void ContactSolver::serialize(StateArchive& archive, std::span<const double> searchedAt) {
  writeBack();
  archive.flag(startsBackward_);
  serializePoints(archive, points_, bodies_.size());
  archive.flag(carriable_);
  if (archive.reading() && carriable_ && material_.solvedAsRows) {
    throw StateError("the state file holds contact points carried on, which the exact mode never carries");
  }
  if (!carriable_) {
    if (archive.reading()) forgetLayout();
    return;
  }
  // What carry needs beyond the points: their manifolds (how many points each); each arm is the
  // point's position less its body's place at the search, as prepare made it, and the rest
  // prepare made of them again, with the same arithmetic.
  std::int64_t manifolds = static_cast<std::int64_t>(touches_.size());
  archive.integer(manifolds);
  if (archive.reading() && (manifolds < 0 || static_cast<std::uint64_t>(manifolds) > points_.size())) {
    throw StateError("the state file holds more contact manifolds than contact points");
  }
  if (archive.reading()) touches_.resize(static_cast<std::size_t>(manifolds));
  std::size_t first = 0;
  for (Touch& touch : touches_) {
    std::int64_t count = static_cast<std::int64_t>(touch.count);
    archive.integer(count);
    if (archive.reading()) {
      if (count < 1 || count > 2 || first + static_cast<std::size_t>(count) > points_.size()) {
        throw StateError("the state file holds a contact manifold of no points, of more than two, or past the last point");
      }
      const Point& p = points_[first];
      if (p.a == p.b || std::abs(p.normal.squaredNorm() - 1.0) > 1e-9) {
        throw StateError("the state file holds a contact manifold of a body with itself, or whose normal is not a unit vector");
      }
      touch = touchOf(p.a, p.b, first, static_cast<std::size_t>(count));
      for (std::size_t k = 1; k < touch.count; ++k) {
        const Point& q = points_[first + k];
        if (q.a != p.a || q.b != p.b || q.normal != p.normal) {
          throw StateError("the state file holds a contact manifold whose points differ in bodies or normal");
        }
      }
    }
    first += touch.count;
  }
  if (archive.reading() && first != points_.size()) {
    throw StateError("the state file holds contact points outside its manifolds");
  }
  if (archive.reading()) {
    const auto place = [&](std::size_t body) { return Eigen::Vector2d(searchedAt[3 * body], searchedAt[3 * body + 1]); };
    for (Point& p : points_) {
      p.rA = p.position - place(p.a);
      p.rB = p.position - place(p.b);
      weigh(p);
    }
    colour(velocityCount_);
    pack();
    packedAhead_ = false;
  }
}

void ContactSolver::serializePoints(StateArchive& archive, std::vector<Point>& points, std::size_t bodies) {
  std::int64_t count = static_cast<std::int64_t>(points.size());
  archive.integer(count);
  if (archive.reading()) {
    // Two points at most for each pair of bodies.
    if (count < 0 || static_cast<std::uint64_t>(count) > static_cast<std::uint64_t>(bodies) * bodies) {
      throw StateError("the state file holds more contact points than this model's bodies can have");
    }
    points.assign(static_cast<std::size_t>(count), Point{});
  }
  for (Point& p : points) {
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
    if (archive.reading() && (p.a >= bodies || p.b >= bodies)) {
      throw StateError("the state file holds a contact of a body this model does not have");
    }
  }
}

void ContactSolver::setAside(std::span<const char> asleep, std::vector<Point>& out) {
  writeBack();
  const auto sleeps = [&](const Point& p) { return asleep[p.a] || asleep[p.b]; };
  for (const Point& p : points_) {
    if (sleeps(p)) out.push_back(p);
  }
  std::erase_if(points_, sleeps);
  forgetLayout();  // the next substep prepares
}

void ContactSolver::welcome(std::span<const Point> woken) {
  writeBack();
  points_.insert(points_.end(), woken.begin(), woken.end());  // prepare sorts them by pair for its match
  forgetLayout();
}

std::vector<ContactReport> ContactSolver::reports(const Model& model, std::span<const Point> asleep) const {
  writeBack();
  std::vector<ContactReport> out;
  out.reserve(points_.size() + asleep.size());
  for (const std::span<const Point> points : {std::span<const Point>(points_), asleep}) {
    for (const Point& p : points) {
      out.push_back({.a = model.bodyAt(p.a),
                     .b = model.bodyAt(p.b),
                     .point = p.position,
                     .normal = p.normal,
                     .separation = p.separation,
                     .normalImpulse = p.normalImpulse,
                     .tangentImpulse = p.tangentImpulse});
    }
  }
  return out;
}

std::vector<ContactSolver::PointImpulse> ContactSolver::impulses() const {
  writeBack();
  std::vector<PointImpulse> out;
  out.reserve(points_.size());
  for (const Point& p : points_) out.push_back({p.normalImpulse, p.tangentImpulse});
  return out;
}

}  // namespace tinkertoy
