#include "tinkertoy/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "common/article.hpp"
#include "common/utf8.hpp"
#include "common/vector_checks.hpp"
#include "tinkertoy/constraints/make_constraint.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

namespace {

// Moves the last element of a dense array into `hole` and drops the last element, mirroring
// HandleTable::erase.
template <class T>
void eraseSwapLast(std::vector<T>& items, std::size_t hole) {
  items[hole] = std::move(items.back());
  items.pop_back();
}

bool namesBody(std::span<const BodyPoint> points, BodyId id) {
  return std::any_of(points.begin(), points.end(), [id](const BodyPoint& p) { return p.body == id; });
}

}  // namespace

Model::Model(int dimension) : dimension_(dimension), offsets_{0} {
  if (dimension != 2 && dimension != 3) {
    throw std::invalid_argument("model dimension must be 2 or 3, got " + std::to_string(dimension));
  }
}

void Model::requireVector(const Eigen::VectorXd& x, std::string_view what) const {
  if (x.size() != dimension_) {
    throw std::invalid_argument(std::string(what) + " must have " + std::to_string(dimension_) +
                                " components, got " + std::to_string(x.size()));
  }
  if (!x.allFinite()) throw std::invalid_argument(std::string(what) + " must be finite");
}

void Model::requirePoints(std::span<const BodyPoint> points, std::string_view owner) const {
  for (const BodyPoint& p : points) {
    if (!contains(p.body)) {
      throw std::invalid_argument(std::string(owner) + " names a body that is not in the model");
    }
    requirePointIndex(p, indexOf(p.body), owner);
  }
}

void Model::requirePointIndex(const BodyPoint& point, std::size_t index, std::string_view owner) const {
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

void Model::layOutState() {
  offsets_.assign(bodies_.size() + 1, 0);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    offsets_[i + 1] = offsets_[i] + static_cast<std::size_t>(bodies_[i]->coordinateCount());
  }
}

Eigen::Ref<const Eigen::VectorXd> Model::slice(const Eigen::VectorXd& x, std::size_t index) const {
  return x.segment(static_cast<Eigen::Index>(offsets_[index]),
                   static_cast<Eigen::Index>(offsets_[index + 1] - offsets_[index]));
}

BodyId Model::addParticle(double mass, const Eigen::VectorXd& position,
                          const Eigen::VectorXd& velocity, std::string name) {
  detail::requireMass(mass, "particle mass");
  requireVector(position, "particle position");
  if (velocity.size() != 0) requireVector(velocity, "particle velocity");
  return addBody(std::make_unique<Particle>(dimension_, mass), position, velocity, std::move(name));
}

namespace {

void requireName(const std::string& name, std::string_view owner) {
  if (const std::string problem = detail::nameProblem(name); !problem.empty()) {
    throw std::invalid_argument(std::string(owner) + " name '" + detail::printableUtf8(name) + "' " + problem);
  }
}

}  // namespace

BodyId Model::addBody(std::unique_ptr<Body> body, const Eigen::VectorXd& coordinates,
                      const Eigen::VectorXd& velocities, std::string name) {
  if (!body) throw std::invalid_argument("addBody: null body");
  requireName(name, "a body's");
  body->validate(dimension_);
  const int n = body->coordinateCount();
  if (n < 1 || n > kMaxBodyCoordinates) {
    throw std::invalid_argument(std::string(body->type()) + " has " + std::to_string(n) +
                                " coordinates; a body has between 1 and " +
                                std::to_string(kMaxBodyCoordinates));
  }
  body->validateCoordinates(coordinates);
  const Eigen::VectorXd v = velocities.size() == 0 ? Eigen::VectorXd::Zero(n) : velocities;
  body->validateVelocities(v);

  const BodyId id = bodyIds_.insert();
  bodies_.push_back(std::move(body));
  bodyNames_.push_back(std::move(name));
  const auto offset = static_cast<Eigen::Index>(offsets_.back());
  offsets_.push_back(offsets_.back() + static_cast<std::size_t>(n));
  if (!bodyNames_.back().empty()) bodyByName_.try_emplace(bodyNames_.back(), id);
  q_.conservativeResize(offset + n);
  v_.conservativeResize(offset + n);
  q_.tail(n) = coordinates;
  v_.tail(n) = v;
  ++structureVersion_;
  touch();
  return id;
}

void Model::removeBody(BodyId id) {
  if (!contains(id)) throw std::invalid_argument("removeBody: stale or unknown body id");
  for (std::size_t i = forces_.size(); i-- > 0;) {
    if (namesBody(forces_[i]->points(), id)) removeForce(forceIds_.idAt(i));
  }
  for (std::size_t i = constraints_.size(); i-- > 0;) {
    if (namesBody(constraints_[i]->points(), id)) removeConstraint(constraintIds_.idAt(i));
  }
  // The last body moves into the hole; rebuild q and v in the new dense order.
  const std::vector<std::size_t> oldOffsets = offsets_;
  const std::size_t last = bodies_.size() - 1;
  const std::size_t hole = bodyIds_.erase(id);
  const std::string name = std::move(bodyNames_[hole]);
  eraseSwapLast(bodies_, hole);
  eraseSwapLast(bodyNames_, hole);
  if (!name.empty()) forgetName(id, name);
  layOutState();
  Eigen::VectorXd q(static_cast<Eigen::Index>(offsets_.back()));
  Eigen::VectorXd v(q.size());
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const std::size_t from = i == hole ? last : i;
    const auto n = static_cast<Eigen::Index>(offsets_[i + 1] - offsets_[i]);
    const auto src = static_cast<Eigen::Index>(oldOffsets[from]);
    const auto dst = static_cast<Eigen::Index>(offsets_[i]);
    q.segment(dst, n) = q_.segment(src, n);
    v.segment(dst, n) = v_.segment(src, n);
  }
  q_.swap(q);
  v_.swap(v);
  ++structureVersion_;
  touch();
}

bool Model::movesAny(std::span<const BodyPoint> points) const {
  return std::any_of(points.begin(), points.end(), [&](const BodyPoint& p) { return !body(p.body).isDriven(); });
}

std::optional<BodyId> Model::findBody(std::string_view name) const {
  const auto found = bodyByName_.find(name);
  if (found == bodyByName_.end()) return std::nullopt;
  return found->second;
}

void Model::forgetName(BodyId id, const std::string& name) {
  const auto found = bodyByName_.find(name);
  if (found == bodyByName_.end() || found->second != id) return;
  bodyByName_.erase(found);
  // Another body may share the name: it takes the entry (a linear scan, as removal is).
  for (std::size_t i = 0; i < bodyNames_.size(); ++i) {
    if (bodyNames_[i] == name && bodyIds_.idAt(i) != id) {
      bodyByName_.emplace(name, bodyIds_.idAt(i));
      return;
    }
  }
}

std::string Model::describe(BodyId id) const {
  const std::size_t index = indexOf(id);
  const std::string type(bodies_[index]->type());
  if (!bodyNames_[index].empty()) return type + " '" + bodyNames_[index] + "'";
  return type + " #" + std::to_string(index);
}

std::string Model::describe(const BodyPoint& point) const {
  if (body(point.body).pointCount() == 1) return describe(point.body);
  return describe(point.body) + " point " + std::to_string(point.site.index);
}

Eigen::VectorXd Model::coordinates(BodyId id) const { return slice(q_, indexOf(id)); }

Eigen::VectorXd Model::velocities(BodyId id) const { return slice(v_, indexOf(id)); }

void Model::setCoordinates(BodyId id, const Eigen::VectorXd& coordinates) {
  touch();
  const Body& b = body(id);
  b.validateCoordinates(coordinates);
  q_.segment(static_cast<Eigen::Index>(offsetOf(id)), b.coordinateCount()) = coordinates;
}

void Model::setVelocities(BodyId id, const Eigen::VectorXd& velocities) {
  touch();
  const Body& b = body(id);
  b.validateVelocities(velocities);
  v_.segment(static_cast<Eigen::Index>(offsetOf(id)), b.coordinateCount()) = velocities;
}

Particle& Model::particle(BodyId id, std::string_view operation) {
  touch();
  Body& b = *bodies_[indexOf(id)];
  if (b.type() != "particle") {
    throw std::invalid_argument(std::string(operation) + ": " + describe(id) +
                                " is not a particle; set its coordinates instead");
  }
  return static_cast<Particle&>(b);
}

Eigen::VectorXd Model::position(const BodyPoint& point) const {
  PointKinematics k;
  pointKinematics(point, {time_, q_, v_}, k);
  return truncateTo(k.position, dimension_);
}

Eigen::VectorXd Model::velocity(const BodyPoint& point) const {
  PointKinematics k;
  pointKinematics(point, {time_, q_, v_}, k);
  return truncateTo(k.velocity, dimension_);
}

void Model::setPosition(BodyId id, const Eigen::VectorXd& position) {
  particle(id, "setPosition");
  requireVector(position, "particle position");
  setCoordinates(id, position);
}

void Model::setVelocity(BodyId id, const Eigen::VectorXd& velocity) {
  particle(id, "setVelocity");
  requireVector(velocity, "particle velocity");
  setVelocities(id, velocity);
}

void Model::setMass(BodyId id, double mass) { particle(id, "setMass").setMass(mass); }

double Model::kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  double T = 0.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) T += bodies_[b]->kineticEnergy(slice(q, b), slice(v, b));
  return T;
}

void Model::pointKinematics(const BodyPoint& point, const StateView& state,
                            PointKinematics& out) const {
  const std::size_t index = indexOf(point.body);
  requirePointIndex(point, index, "pointKinematics");
  bodies_[index]->pointKinematics(point.site, slice(state.q, index), slice(state.v, index), out);
}

void Model::addPointForce(const BodyPoint& point, const StateView& state, const Eigen::Vector3d& f,
                          Eigen::Ref<Eigen::VectorXd> Q) const {
  const std::size_t index = indexOf(point.body);
  requirePointIndex(point, index, "addPointForce");
  const auto offset = static_cast<Eigen::Index>(offsets_[index]);
  const auto n = static_cast<Eigen::Index>(offsets_[index + 1]) - offset;
  bodies_[index]->addPointForce(point.site, f, slice(state.q, index), Q.segment(offset, n));
}

void Model::addPointTorque(const BodyPoint& point, const StateView& state, double torque,
                           Eigen::Ref<Eigen::VectorXd> Q) const {
  const std::size_t index = indexOf(point.body);
  requirePointIndex(point, index, "addPointTorque");
  PointKinematics k;
  bodies_[index]->pointKinematics(point.site, slice(state.q, index), slice(state.v, index), k);
  const auto offset = static_cast<Eigen::Index>(offsets_[index]);
  Q.segment(offset, k.angleJacobian.size()) += torque * k.angleJacobian.transpose();
}

void Model::requireFrames(std::span<const BodyPoint> points, const std::function<bool(std::size_t)>& usesAngle,
                          std::string_view owner) const {
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (usesAngle(k) && !body(points[k].body).hasFrame()) {
      throw std::invalid_argument(std::string(owner) + " acts on the orientation of " + describe(points[k]) +
                                  ", which has none; only rigid bodies have one");
    }
  }
}

ForceId Model::addForce(std::unique_ptr<Force> force) {
  touch();
  if (!force) throw std::invalid_argument("addForce: null force");
  force->validate(dimension_);
  const std::string owner = std::string(force->type()) + " force";
  requirePoints(force->points(), owner);
  requireFrames(force->points(), [&](std::size_t k) { return force->usesAngle(k); }, owner);
  const ForceId id = forceIds_.insert();
  forces_.push_back(std::move(force));
  return id;
}

void Model::removeForce(ForceId id) {
  touch();
  eraseSwapLast(forces_, forceIds_.erase(id));
}

void Model::requireFits(const Constraint& constraint) const {
  constraint.validate(dimension_);
  const std::string owner = std::string(constraint.type()) + " constraint";
  if (constraint.points().empty() || constraint.points().size() > kMaxConstraintPoints) {
    throw std::invalid_argument(owner + " must touch between 1 and " +
                                std::to_string(kMaxConstraintPoints) + " points");
  }
  requirePoints(constraint.points(), owner);
  requireFrames(constraint.points(), [&](std::size_t k) { return constraint.usesAngle(k); }, owner);
}

ConstraintId Model::addConstraint(std::unique_ptr<Constraint> constraint, std::string name) {
  if (!constraint) throw std::invalid_argument("addConstraint: null constraint");
  requireName(name, "a constraint's");
  requireFits(*constraint);
  const ConstraintId id = constraintIds_.insert();
  constraints_.push_back(std::move(constraint));
  constraintNames_.push_back(std::move(name));
  enabled_.push_back(true);
  breakForces_.push_back(std::numeric_limits<double>::infinity());
  ++structureVersion_;
  touch();
  return id;
}

void Model::setEnabled(ConstraintId id, bool enabled) {
  const std::size_t index = indexOf(id);
  if (enabled_[index] == enabled) return;
  enabled_[index] = enabled;
  ++structureVersion_;
  touch();
}

void Model::setBreakForce(ConstraintId id, double force) {
  if (!(force > 0.0)) throw std::invalid_argument("a break force must be positive (infinity never breaks)");
  double& stored = breakForces_[indexOf(id)];
  if (std::isfinite(stored)) --breakable_;
  if (std::isfinite(force)) ++breakable_;
  stored = force;
  touch();
}

void Model::setTime(double time) {
  detail::requireFinite(time, "the model's time");
  touch();
  time_ = time;
}

void Model::throwWrongConstraintType(ConstraintId id, std::string_view wanted) const {
  throw std::invalid_argument(describe(id) + " is " + detail::withArticle(constraint(id).type()) + " constraint, not " +
                              detail::withArticle(wanted) + " one");
}

void Model::setConstraintSettings(ConstraintId id, const ConstraintSettings& settings) {
  const std::size_t index = indexOf(id);
  std::unique_ptr<Constraint> replacement = makeConstraint(settings);
  requireFits(*replacement);
  constraints_[index] = std::move(replacement);
  ++structureVersion_;
  touch();
}

void Model::removeConstraint(ConstraintId id) {
  const std::size_t hole = constraintIds_.erase(id);
  eraseSwapLast(constraints_, hole);
  eraseSwapLast(constraintNames_, hole);
  enabled_[hole] = enabled_.back();
  enabled_.pop_back();
  if (std::isfinite(breakForces_[hole])) --breakable_;
  eraseSwapLast(breakForces_, hole);
  ++structureVersion_;
  touch();
}

std::string Model::describe(ConstraintId id) const {
  const std::size_t index = indexOf(id);
  if (!constraintNames_[index].empty()) return constraintNames_[index];
  return std::string(constraints_[index]->type()) + " constraint #" + std::to_string(index);
}

std::array<Eigen::Vector3d, 2> Model::boundingBox() const {
  Eigen::Vector3d low = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()), high = -low;
  for (std::size_t b = 0; b < bodyCount(); ++b) {
    const BodyId id = bodyAt(b);
    for (int i = 0; i < body(id).pointCount(); ++i) {
      const Eigen::Vector3d x = padTo3d(position({id, i}));  // z = 0 in 2D
      low = low.cwiseMin(x);
      high = high.cwiseMax(x);
    }
  }
  return {low, high};
}

double Model::size() const {
  const auto [low, high] = boundingBox();
  return bodyCount() > 0 ? std::max(1.0, (high - low).norm()) : 1.0;
}

}  // namespace tinkertoy
