#include "tinkertoy/model/particle.hpp"

#include <stdexcept>

#include "common/vector_checks.hpp"

namespace tinkertoy {

void Particle::validate(int dimension) const {
  if (dimension != dimension_) {
    throw std::invalid_argument("a " + std::to_string(dimension_) + "D particle cannot live in a " +
                                std::to_string(dimension) + "D model");
  }
  detail::requireMass(mass_, "particle mass");
  detail::requireNonNegative(radius_, "particle radius");
  if (radius_ > 0.0 && dimension_ != 2) throw std::invalid_argument("only 2D particles have a radius (they collide as discs)");
  collider_.validate();
}

void Particle::setMass(double mass) {
  detail::requireMass(mass, "particle mass");
  mass_ = mass;
}

void Particle::pointKinematics(const Site& /*site*/, BodyCoordinates q, BodyCoordinates v,
                               PointKinematics& out) const {
  out.position.setZero();
  out.velocity.setZero();
  out.position.head(dimension_) = q;
  out.velocity.head(dimension_) = v;
  out.jacobian.setIdentity(3, dimension_);
  out.jacobianDot.setZero(3, dimension_);
}

void Particle::massMatrix(BodyCoordinates /*q*/, Eigen::Ref<Eigen::MatrixXd> M) const {
  M.setIdentity();
  M *= mass_;
}

void Particle::addWeight(const Eigen::Vector3d& g, BodyCoordinates /*q*/,
                         Eigen::Ref<Eigen::VectorXd> Q) const {
  Q += mass_ * g.head(dimension_);
}

void Particle::addPointForce(const Site& /*site*/, const Eigen::Vector3d& f, BodyCoordinates /*q*/,
                             Eigen::Ref<Eigen::VectorXd> Q) const {
  Q += f.head(dimension_);
}

Eigen::Vector3d Particle::massMoment(BodyCoordinates q) const {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  x.head(dimension_) = q;
  return mass_ * x;
}

double Particle::kineticEnergy(BodyCoordinates /*q*/, BodyCoordinates v) const {
  return 0.5 * mass_ * v.squaredNorm();
}

}  // namespace tinkertoy
