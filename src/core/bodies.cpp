#include "tinkertoy/core/bodies.hpp"

#include <algorithm>
#include <stdexcept>

namespace tinkertoy {

BodyId Bodies::add(std::unique_ptr<Body> body, std::string name) {
  const BodyId id = ids_.insert();
  if (offsets_.empty()) offsets_.push_back(0);
  coordinates_ += static_cast<std::size_t>(body->coordinateCount());
  offsets_.push_back(coordinates_);
  bodies_.push_back(std::move(body));
  names_.push_back(std::move(name));
  if (!names_.back().empty()) byName_.try_emplace(names_.back(), id);
  return id;
}

std::size_t Bodies::remove(BodyId id) {
  const std::size_t hole = ids_.erase(id);
  const std::string name = std::move(names_[hole]);
  eraseSwapLast(bodies_, hole);
  eraseSwapLast(names_, hole);
  if (!name.empty()) forgetName(id, name);
  offsets_.assign(bodies_.empty() ? 0 : bodies_.size() + 1, 0);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    offsets_[i + 1] = offsets_[i] + static_cast<std::size_t>(bodies_[i]->coordinateCount());
  }
  coordinates_ = bodies_.empty() ? 0 : offsets_.back();
  return hole;
}

std::optional<BodyId> Bodies::find(std::string_view name) const {
  const auto found = byName_.find(name);
  if (found == byName_.end()) return std::nullopt;
  return found->second;
}

void Bodies::forgetName(BodyId id, const std::string& name) {
  const auto found = byName_.find(name);
  if (found == byName_.end() || found->second != id) return;
  byName_.erase(found);
  // Another body may share the name: it takes the entry (a linear scan, as removal is).
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name && ids_.idAt(i) != id) {
      byName_.emplace(name, ids_.idAt(i));
      return;
    }
  }
}

std::string Bodies::describe(BodyId id) const {
  const std::size_t index = indexOf(id);
  const std::string type(bodies_[index]->type());
  if (!names_[index].empty()) return type + " '" + names_[index] + "'";
  return type + " #" + std::to_string(index);
}

std::string Bodies::describe(const BodyPoint& point) const {
  if (body(point.body).pointCount() == 1) return describe(point.body);
  return describe(point.body) + " point " + std::to_string(point.site.index);
}

bool Bodies::movesAny(std::span<const BodyPoint> points) const {
  return std::any_of(points.begin(), points.end(), [&](const BodyPoint& p) { return !body(p.body).isDriven(); });
}

Eigen::Ref<const Eigen::VectorXd> Bodies::slice(const Eigen::VectorXd& x, std::size_t index) const {
  return x.segment(static_cast<Eigen::Index>(offsets_[index]),
                   static_cast<Eigen::Index>(offsets_[index + 1] - offsets_[index]));
}

void Bodies::requirePoints(std::span<const BodyPoint> points, std::string_view owner) const {
  for (const BodyPoint& p : points) {
    if (!contains(p.body)) {
      throw std::invalid_argument(std::string(owner) + " names a body that is not in the model");
    }
    requirePointIndex(p, indexOf(p.body), owner);
  }
}

void Bodies::requirePointIndex(const BodyPoint& point, std::size_t index, std::string_view owner) const {
  const Body& body = *bodies_[index];
  const int count = body.pointCount();
  if (point.site.index < 0 || point.site.index >= count) {
    throw std::invalid_argument(std::string(owner) + " names point " + std::to_string(point.site.index) +
                                " of " + describe(point.body) + ", which has " + std::to_string(count) +
                                (count == 1 ? " point" : " points"));
  }
  if (!body.hasFrame() && point.site.local != Eigen::Vector2d::Zero()) {
    throw std::invalid_argument(std::string(owner) + " gives an offset on " + describe(point.body) +
                                ", which has no frame; only rigid bodies take local offsets");
  }
  if (!point.site.local.allFinite()) {
    throw std::invalid_argument(std::string(owner) + " gives a non-finite offset on " + describe(point.body));
  }
}

void Bodies::requireFrames(std::span<const BodyPoint> points, const std::function<bool(std::size_t)>& usesAngle,
                           std::string_view owner) const {
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (usesAngle(k) && !body(points[k].body).hasFrame()) {
      throw std::invalid_argument(std::string(owner) + " acts on the orientation of " + describe(points[k]) +
                                  ", which has none; only rigid bodies have one");
    }
  }
}

void Bodies::pointKinematics(const BodyPoint& point, const StateView& state, PointKinematics& out) const {
  const std::size_t index = indexOf(point.body);
  requirePointIndex(point, index, "pointKinematics");
  bodies_[index]->pointKinematics(point.site, slice(state.q, index), slice(state.v, index), out);
}

void Bodies::addPointForce(const BodyPoint& point, const StateView& state, const Eigen::Vector3d& f,
                           Eigen::Ref<Eigen::VectorXd> Q) const {
  const std::size_t index = indexOf(point.body);
  requirePointIndex(point, index, "addPointForce");
  const auto offset = static_cast<Eigen::Index>(offsets_[index]);
  const auto n = static_cast<Eigen::Index>(offsets_[index + 1]) - offset;
  bodies_[index]->addPointForce(point.site, f, slice(state.q, index), Q.segment(offset, n));
}

void Bodies::addPointTorque(const BodyPoint& point, const StateView& state, double torque,
                            Eigen::Ref<Eigen::VectorXd> Q) const {
  const std::size_t index = indexOf(point.body);
  requirePointIndex(point, index, "addPointTorque");
  PointKinematics k;
  bodies_[index]->pointKinematics(point.site, slice(state.q, index), slice(state.v, index), k);
  const auto offset = static_cast<Eigen::Index>(offsets_[index]);
  Q.segment(offset, k.angleJacobian.size()) += torque * k.angleJacobian.transpose();
}

double Bodies::kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  double T = 0.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) T += bodies_[b]->kineticEnergy(slice(q, b), slice(v, b));
  return T;
}

}  // namespace tinkertoy
