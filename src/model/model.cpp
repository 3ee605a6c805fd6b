#include "tinkertoy/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "common/article.hpp"
#include "common/utf8.hpp"
#include "common/vector_checks.hpp"
#include "tinkertoy/constraints/make_constraint.hpp"
#include "tinkertoy/core/point.hpp"
#include "tinkertoy/forces/make_force.hpp"
#include "tinkertoy/model/make_body.hpp"

namespace tinkertoy {

namespace {

bool namesBody(std::span<const BodyPoint> points, BodyId id) {
  return std::any_of(points.begin(), points.end(), [id](const BodyPoint& p) { return p.body == id; });
}

}  // namespace

Model::Model(int dimension) : dimension_(dimension) {
  if (dimension != 2 && dimension != 3) {
    throw std::invalid_argument("model dimension must be 2 or 3, got " + std::to_string(dimension));
  }
}

Model::Model(Model&& other) noexcept : dimension_(other.dimension_), stamp_(std::move(other.stamp_)) {
  takeContents(other);
}

Model& Model::operator=(Model&& other) noexcept {
  if (this != &other) {
    stamp_ = std::move(other.stamp_);
    takeContents(other);
  }
  return *this;
}

void Model::takeContents(Model& other) noexcept {
  dimension_ = other.dimension_;
  bodies_ = std::exchange(other.bodies_, Bodies());
  state_ = std::exchange(other.state_, State{});
  forceIds_ = std::exchange(other.forceIds_, {});
  forces_ = std::exchange(other.forces_, {});
  constraintIds_ = std::exchange(other.constraintIds_, {});
  constraints_ = std::exchange(other.constraints_, {});
  constraintNames_ = std::exchange(other.constraintNames_, {});
  enabled_ = std::exchange(other.enabled_, {});
  collideConnected_ = std::exchange(other.collideConnected_, {});
  breakForces_ = std::exchange(other.breakForces_, {});
  breakable_ = std::exchange(other.breakable_, 0);
}

void Model::requireVector(const Eigen::VectorXd& x, std::string_view what) const {
  if (x.size() != dimension_) {
    throw std::invalid_argument(std::string(what) + " must have " + std::to_string(dimension_) +
                                " components, got " + std::to_string(x.size()));
  }
  if (!x.allFinite()) throw std::invalid_argument(std::string(what) + " must be finite");
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

  const auto offset = static_cast<Eigen::Index>(bodies_.coordinateCount());
  const BodyId id = bodies_.add(std::move(body), std::move(name));
  state_.q.conservativeResize(offset + n);
  state_.v.conservativeResize(offset + n);
  state_.q.tail(n) = coordinates;
  state_.v.tail(n) = v;
  ++stamp_.structure;
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
  std::vector<std::size_t> oldOffsets(bodies_.count());
  for (std::size_t i = 0; i < oldOffsets.size(); ++i) oldOffsets[i] = bodies_.offset(i);
  const std::size_t last = bodies_.count() - 1;
  const std::size_t hole = bodies_.remove(id);
  Eigen::VectorXd q(static_cast<Eigen::Index>(bodies_.coordinateCount()));
  Eigen::VectorXd v(q.size());
  for (std::size_t i = 0; i < bodies_.count(); ++i) {
    const std::size_t from = i == hole ? last : i;
    const auto n = static_cast<Eigen::Index>(bodies_.offset(i + 1) - bodies_.offset(i));
    const auto src = static_cast<Eigen::Index>(oldOffsets[from]);
    const auto dst = static_cast<Eigen::Index>(bodies_.offset(i));
    q.segment(dst, n) = state_.q.segment(src, n);
    v.segment(dst, n) = state_.v.segment(src, n);
  }
  state_.q.swap(q);
  state_.v.swap(v);
  ++stamp_.structure;
  touch();
}

Eigen::VectorXd Model::coordinates(BodyId id) const { return slice(state_.q, indexOf(id)); }

Eigen::VectorXd Model::velocities(BodyId id) const { return slice(state_.v, indexOf(id)); }

void Model::setCoordinates(BodyId id, const Eigen::VectorXd& coordinates) {
  touch();
  const Body& b = body(id);
  b.validateCoordinates(coordinates);
  state_.q.segment(static_cast<Eigen::Index>(offsetOf(id)), b.coordinateCount()) = coordinates;
}

void Model::setVelocities(BodyId id, const Eigen::VectorXd& velocities) {
  touch();
  const Body& b = body(id);
  b.validateVelocities(velocities);
  state_.v.segment(static_cast<Eigen::Index>(offsetOf(id)), b.coordinateCount()) = velocities;
}

void Model::requireParticle(BodyId id, std::string_view operation) const {
  if (!isParticle(id)) {
    throw std::invalid_argument(std::string(operation) + ": " + describe(id) +
                                " is not a particle; set its coordinates instead");
  }
}

Eigen::VectorXd Model::position(const BodyPoint& point) const {
  PointKinematics k;
  pointKinematics(point, state_, k);
  return truncateTo(k.position, dimension_);
}

Eigen::VectorXd Model::velocity(const BodyPoint& point) const {
  PointKinematics k;
  pointKinematics(point, state_, k);
  return truncateTo(k.velocity, dimension_);
}

void Model::setPosition(BodyId id, const Eigen::VectorXd& position) {
  requireParticle(id, "setPosition");
  requireVector(position, "particle position");
  setCoordinates(id, position);
}

void Model::setVelocity(BodyId id, const Eigen::VectorXd& velocity) {
  requireParticle(id, "setVelocity");
  requireVector(velocity, "particle velocity");
  setVelocities(id, velocity);
}

void Model::setMass(BodyId id, double mass) {
  requireParticle(id, "setMass");
  editBody<ParticleSettings>(id, [mass](ParticleSettings& s) { s.mass = mass; });
}

void Model::setBodySettings(BodyId id, const BodySettings& settings) {
  const Body& old = body(id);
  if (settings.index() != old.settings().index()) {
    throw std::invalid_argument(describe(id) + " is " + detail::withArticle(old.type()) +
                                "; a body keeps its kind: remove it and add another");
  }
  std::unique_ptr<Body> replacement = makeBody(settings);
  replacement->validate(dimension_);
  if (replacement->coordinateCount() != old.coordinateCount() || replacement->pointCount() != old.pointCount()) {
    throw std::invalid_argument(describe(id) + " has " + std::to_string(old.coordinateCount()) +
                                " coordinates; settings that give it " +
                                std::to_string(replacement->coordinateCount()) + " make another body: remove it and add that one");
  }
  replacement->validateCoordinates(coordinates(id));
  replacement->validateVelocities(velocities(id));
  // A body that starts or stops being driven changes the layout (the constraints nothing can
  // move); new values (a mass, a length) keep it and the solver's analysis.
  const bool newLayout = replacement->isDriven() != old.isDriven();
  bodies_.replace(id, std::move(replacement));
  if (newLayout) ++stamp_.structure;
  touch();
}

namespace {

// The collider member of the settings of a kind that collides, or nullptr.
template <class Settings>
auto* colliderOf(Settings& s) {
  using Pointer = std::conditional_t<std::is_const_v<Settings>, const Collider*, Collider*>;
  return std::visit(
      [](auto& kind) -> Pointer {
        if constexpr (requires { kind.collider; }) {
          return &kind.collider;
        } else {
          return nullptr;
        }
      },
      s);
}

}  // namespace

std::optional<Collider> Model::collider(BodyId id) const {
  const BodySettings settings = body(id).settings();
  const Collider* c = colliderOf(settings);
  return c ? std::optional<Collider>(*c) : std::nullopt;
}

void Model::setCollider(BodyId id, const Collider& collider) {
  BodySettings settings = body(id).settings();
  Collider* c = colliderOf(settings);
  if (!c) throw std::invalid_argument(describe(id) + " is " + detail::withArticle(body(id).type()) + ", which never collides");
  collider.validate();
  *c = collider;
  setBodySettings(id, settings);
}

void Model::setForceSettings(ForceId id, const ForceSettings& settings) {
  std::unique_ptr<Force> replacement = makeForce(settings);
  requireFits(*replacement);
  forces_[forceIds_.at(id)] = std::move(replacement);
  touch();
}

void Model::requireFits(const Force& force) const {
  force.validate(dimension_);
  const std::string owner = std::string(force.type()) + " force";
  bodies_.requirePoints(force.points(), owner);
  bodies_.requireFrames(force.points(), [&](std::size_t k) { return force.usesAngle(k); }, owner);
}

ForceId Model::addForce(std::unique_ptr<Force> force) {
  touch();
  if (!force) throw std::invalid_argument("addForce: null force");
  requireFits(*force);
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
  bodies_.requirePoints(constraint.points(), owner);
  bodies_.requireFrames(constraint.points(), [&](std::size_t k) { return constraint.usesAngle(k); }, owner);
}

ConstraintId Model::addConstraint(std::unique_ptr<Constraint> constraint, std::string name) {
  if (!constraint) throw std::invalid_argument("addConstraint: null constraint");
  requireName(name, "a constraint's");
  requireFits(*constraint);
  const ConstraintId id = constraintIds_.insert();
  constraints_.push_back(std::move(constraint));
  constraintNames_.push_back(std::move(name));
  enabled_.push_back(true);
  collideConnected_.push_back(false);
  breakForces_.push_back(std::numeric_limits<double>::infinity());
  ++stamp_.structure;
  touch();
  return id;
}

void Model::setEnabled(ConstraintId id, bool enabled) {
  const std::size_t index = indexOf(id);
  if (enabled_[index] == enabled) return;
  enabled_[index] = enabled;
  ++stamp_.structure;
  touch();
}

void Model::setCollideConnected(ConstraintId id, bool collide) {
  const std::size_t index = indexOf(id);
  if (collideConnected_[index] == collide) return;
  collideConnected_[index] = collide;
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

void Model::setState(double time, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  detail::requireFinite(time, "the model's time");
  for (const auto& [x, what] : {std::pair{&q, "q"}, std::pair{&v, "v"}}) {
    if (x->size() != state_.q.size()) {
      throw std::invalid_argument(std::string("setState: ") + what + " has " + std::to_string(x->size()) +
                                  " entries; the model has " + std::to_string(state_.q.size()) + " coordinates");
    }
    if (!x->allFinite()) throw std::invalid_argument(std::string("setState: ") + what + " must be finite");
  }
  touch();
  state_.time = time;
  state_.q = q;
  state_.v = v;
}

void Model::setTime(double time) {
  detail::requireFinite(time, "the model's time");
  touch();
  state_.time = time;
}

void Model::throwWrongType(const std::string& who, std::string_view type, std::string_view kind,
                           std::string_view wanted) {
  throw std::invalid_argument(who + " is " + detail::withArticle(type) + " " + std::string(kind) + ", not " +
                              detail::withArticle(wanted) + " one");
}

void Model::setConstraintSettings(ConstraintId id, const ConstraintSettings& settings) {
  const std::size_t index = indexOf(id);
  std::unique_ptr<Constraint> replacement = makeConstraint(settings);
  requireFits(*replacement);
  constraints_[index] = std::move(replacement);
  ++stamp_.structure;
  touch();
}

void Model::removeConstraint(ConstraintId id) {
  const std::size_t hole = constraintIds_.erase(id);
  eraseSwapLast(constraints_, hole);
  eraseSwapLast(constraintNames_, hole);
  enabled_[hole] = enabled_.back();
  enabled_.pop_back();
  collideConnected_[hole] = collideConnected_.back();
  collideConnected_.pop_back();
  if (std::isfinite(breakForces_[hole])) --breakable_;
  eraseSwapLast(breakForces_, hole);
  ++stamp_.structure;
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

ModelHold::ModelHold(Model& model) : model_(&model) {
  if (model.stamp_.held) {
    throw std::logic_error("this model already has a simulator stepping it; a second one would keep warm starts and "
                           "diagnostics of a state the first one moves: step with the first, or destroy it first");
  }
  model.stamp_.held = true;
}

}  // namespace tinkertoy
