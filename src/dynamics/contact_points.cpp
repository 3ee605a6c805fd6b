// ContactSolver's points as the rest of the library reads them: the state file, the reports, the
// impulses, and the points a sleeping island sets aside and returns (dynamics/sleeping_islands.hpp).
#include <algorithm>
#include <cmath>

#include "tinkertoy/dynamics/contact_solver.hpp"

namespace tinkertoy {

void ContactSolver::serialize(StateArchive& archive) {
  writeBack();
  archive.flag(startsBackward_);
  serializePoints(archive, points_, bodies_.size());
  if (archive.reading()) {
    packed_.clear();
    touches_.clear();
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
  packed_.clear();  // the next prepare lays out the points again
  touches_.clear();
}

void ContactSolver::welcome(std::span<const Point> woken) {
  writeBack();
  points_.insert(points_.end(), woken.begin(), woken.end());  // prepare sorts them by pair for its match
  packed_.clear();
  touches_.clear();
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
