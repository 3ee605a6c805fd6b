#include "tinkertoy/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tinkertoy {

namespace {

// Moves element `from` of a dense array into `to` and drops the last element, mirroring
// HandleTable::erase (the last element moves into the hole).
template <class T>
void eraseSwapLast(std::vector<T>& items, std::size_t hole) {
  items[hole] = std::move(items.back());
  items.pop_back();
}

bool namesParticle(std::span<const ParticleId> particles, ParticleId id) {
  return std::find(particles.begin(), particles.end(), id) != particles.end();
}

}  // namespace

Model::Model(int dimension) : dimension_(dimension) {
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

void Model::requireParticles(std::span<const ParticleId> ids, std::string_view owner) const {
  for (ParticleId id : ids) {
    if (!contains(id)) {
      throw std::invalid_argument(std::string(owner) + " names a particle that is not in the model");
    }
  }
}

void Model::resizeState(std::size_t particles) {
  const auto n = static_cast<Eigen::Index>(particles) * dimension_;
  q_.conservativeResize(n);
  v_.conservativeResize(n);
  inverseMass_.conservativeResize(n);
}

ParticleId Model::addParticle(double mass, const Eigen::VectorXd& position,
                              const Eigen::VectorXd& velocity, std::string name) {
  if (!(mass > 0.0) || !std::isfinite(mass)) {
    throw std::invalid_argument("particle mass must be positive and finite");
  }
  requireVector(position, "particle position");
  const Eigen::VectorXd v = velocity.size() == 0 ? Eigen::VectorXd::Zero(dimension_) : velocity;
  requireVector(v, "particle velocity");

  const ParticleId id = particles_.insert();
  masses_.push_back(mass);
  particleNames_.push_back(std::move(name));
  resizeState(particles_.size());
  const auto offset = static_cast<Eigen::Index>(offsetOf(id));
  q_.segment(offset, dimension_) = position;
  v_.segment(offset, dimension_) = v;
  inverseMass_.segment(offset, dimension_).setConstant(1.0 / mass);
  ++structureVersion_;
  return id;
}

void Model::removeParticle(ParticleId id) {
  if (!contains(id)) throw std::invalid_argument("removeParticle: stale or unknown particle id");
  for (std::size_t i = forces_.size(); i-- > 0;) {
    if (namesParticle(forces_[i]->particles(), id)) removeForce(forceIds_.idAt(i));
  }
  for (std::size_t i = constraints_.size(); i-- > 0;) {
    if (namesParticle(constraints_[i]->particles(), id)) removeConstraint(constraintIds_.idAt(i));
  }
  const std::size_t last = particles_.size() - 1;
  const std::size_t hole = particles_.erase(id);
  const auto d = static_cast<Eigen::Index>(dimension_);
  const auto to = static_cast<Eigen::Index>(hole) * d;
  const auto from = static_cast<Eigen::Index>(last) * d;
  q_.segment(to, d) = q_.segment(from, d).eval();
  v_.segment(to, d) = v_.segment(from, d).eval();
  inverseMass_.segment(to, d) = inverseMass_.segment(from, d).eval();
  eraseSwapLast(masses_, hole);
  eraseSwapLast(particleNames_, hole);
  resizeState(particles_.size());
  ++structureVersion_;
}

std::optional<ParticleId> Model::findParticle(std::string_view name) const {
  for (std::size_t i = 0; i < particleNames_.size(); ++i) {
    if (particleNames_[i] == name) return particles_.idAt(i);
  }
  return std::nullopt;
}

void Model::setMass(ParticleId id, double mass) {
  if (!(mass > 0.0) || !std::isfinite(mass)) {
    throw std::invalid_argument("particle mass must be positive and finite");
  }
  masses_[indexOf(id)] = mass;
  inverseMass_.segment(static_cast<Eigen::Index>(offsetOf(id)), dimension_).setConstant(1.0 / mass);
}

Eigen::VectorXd Model::position(ParticleId id) const {
  return q_.segment(static_cast<Eigen::Index>(offsetOf(id)), dimension_);
}

Eigen::VectorXd Model::velocity(ParticleId id) const {
  return v_.segment(static_cast<Eigen::Index>(offsetOf(id)), dimension_);
}

void Model::setPosition(ParticleId id, const Eigen::VectorXd& position) {
  requireVector(position, "particle position");
  q_.segment(static_cast<Eigen::Index>(offsetOf(id)), dimension_) = position;
}

void Model::setVelocity(ParticleId id, const Eigen::VectorXd& velocity) {
  requireVector(velocity, "particle velocity");
  v_.segment(static_cast<Eigen::Index>(offsetOf(id)), dimension_) = velocity;
}

std::string Model::describe(ParticleId id) const {
  const std::size_t index = indexOf(id);
  if (!particleNames_[index].empty()) return "particle '" + particleNames_[index] + "'";
  return "particle #" + std::to_string(index);
}

ForceId Model::addForce(std::unique_ptr<Force> force) {
  if (!force) throw std::invalid_argument("addForce: null force");
  force->validate(dimension_);
  requireParticles(force->particles(), std::string(force->type()) + " force");
  const ForceId id = forceIds_.insert();
  forces_.push_back(std::move(force));
  return id;
}

void Model::removeForce(ForceId id) {
  eraseSwapLast(forces_, forceIds_.erase(id));
}

ConstraintId Model::addConstraint(std::unique_ptr<Constraint> constraint, std::string name) {
  if (!constraint) throw std::invalid_argument("addConstraint: null constraint");
  constraint->validate(dimension_);
  const std::string owner = std::string(constraint->type()) + " constraint";
  if (constraint->particles().empty() || constraint->particles().size() > kMaxConstraintParticles) {
    throw std::invalid_argument(owner + " must touch between 1 and " +
                                std::to_string(kMaxConstraintParticles) + " particles");
  }
  requireParticles(constraint->particles(), owner);
  const ConstraintId id = constraintIds_.insert();
  constraints_.push_back(std::move(constraint));
  constraintNames_.push_back(std::move(name));
  ++structureVersion_;
  return id;
}

void Model::removeConstraint(ConstraintId id) {
  const std::size_t hole = constraintIds_.erase(id);
  eraseSwapLast(constraints_, hole);
  eraseSwapLast(constraintNames_, hole);
  ++structureVersion_;
}

std::string Model::describe(ConstraintId id) const {
  const std::size_t index = indexOf(id);
  if (!constraintNames_[index].empty()) return constraintNames_[index];
  return std::string(constraints_[index]->type()) + " constraint #" + std::to_string(index);
}

}  // namespace tinkertoy
