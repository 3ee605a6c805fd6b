#include "tinkertoy/model/rigid_body.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "common/vector_checks.hpp"

namespace tinkertoy {

RigidBody::RigidBody(double mass, double inertia, Shape shape, Motion motion)
    : mass_(mass), inertia_(inertia), shape_(std::move(shape)), motion_(motion) {}

namespace {

// The shape's inertia for `mass`, or NaN for a mass that has none: validate() then names the mass.
double inertiaOf(const Shape& shape, double mass) {
  return std::isfinite(mass) && mass > 0.0 ? shape.inertia(mass) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

RigidBody::RigidBody(double mass, Shape shape, Motion motion)
    : RigidBody(mass, inertiaOf(shape, mass), shape, motion) {}

BodySettings RigidBody::settings() const {
  const bool derived = inertia_ == inertiaOf(shape_, mass_);
  return RigidBodySettings{.mass = mass_, .inertia = derived ? std::nullopt : std::optional<double>(inertia_),
                           .shape = shape_, .motion = motion_, .collider = collider_};
}

RigidBody::RigidBody(const RigidBodySettings& s)
    : RigidBody(s.mass, s.inertia ? *s.inertia : inertiaOf(s.shape, s.mass), s.shape, s.motion) {
  collider_ = s.collider;
}

void RigidBody::validate(int dimension) const {
  if (dimension != 2) throw std::invalid_argument("rigid bodies live in 2D models only");
  shape_.validate();  // first: an inertia from a bad shape is meaningless
  if (!shape_.hasArea() && motion_ == Motion::Dynamic) {
    throw std::invalid_argument("a " + std::string(shape_.name()) +
                                " has no area, so no mass to move: only a static or kinematic body carries one");
  }
  detail::requireMass(mass_, "rigid body mass");
  detail::requireMass(inertia_, "rigid body inertia");
  collider_.validate();
}

void RigidBody::validateVelocities(BodyCoordinates v) const {
  Body::validateVelocities(v);
  if (motion_ == Motion::Static && v.cwiseAbs().maxCoeff() != 0.0) {
    throw std::invalid_argument("a static rigid body cannot move; make it kinematic to give it a velocity");
  }
}

void RigidBody::pointKinematics(const Site& site, BodyCoordinates q, BodyCoordinates v,
                                PointKinematics& out) const {
  const double theta = q[2], omega = v[2];
  const Eigen::Vector2d r = Eigen::Rotation2Dd(theta) * site.local;  // r_w
  const Eigen::Vector2d perp(-r.y(), r.x());                          // ∂r_w/∂θ
  out.position = Eigen::Vector3d(q[0] + r.x(), q[1] + r.y(), 0.0);
  out.velocity = Eigen::Vector3d(v[0] + omega * perp.x(), v[1] + omega * perp.y(), 0.0);
  out.jacobian.setZero(3, 3);
  out.jacobian(0, 0) = out.jacobian(1, 1) = 1.0;
  out.jacobian.block<2, 1>(0, 2) = perp;
  out.jacobianDot.setZero(3, 3);
  out.jacobianDot.block<2, 1>(0, 2) = -omega * r;
  out.oriented = true;
  out.angle = theta;
  out.angularVelocity = omega;
  out.angleJacobian.setZero(1, 3);
  out.angleJacobian[2] = 1.0;
  out.angleJacobianDot.setZero(1, 3);
}

void RigidBody::massMatrix(BodyCoordinates /*q*/, Eigen::Ref<Eigen::MatrixXd> M) const {
  M.setZero();
  M(0, 0) = M(1, 1) = mass_;
  M(2, 2) = inertia_;
}

void RigidBody::addWeight(const Eigen::Vector3d& g, BodyCoordinates /*q*/, Eigen::Ref<Eigen::VectorXd> Q) const {
  Q[0] += mass_ * g.x();
  Q[1] += mass_ * g.y();
}

void RigidBody::addPointForce(const Site& site, const Eigen::Vector3d& f, BodyCoordinates q,
                              Eigen::Ref<Eigen::VectorXd> Q) const {
  const Eigen::Vector2d r = Eigen::Rotation2Dd(q[2]) * site.local;
  Q[0] += f.x();
  Q[1] += f.y();
  Q[2] += r.x() * f.y() - r.y() * f.x();
}

Eigen::Vector3d RigidBody::massMoment(BodyCoordinates q) const { return mass_ * Eigen::Vector3d(q[0], q[1], 0.0); }

double RigidBody::kineticEnergy(BodyCoordinates /*q*/, BodyCoordinates v) const {
  return 0.5 * mass_ * (v[0] * v[0] + v[1] * v[1]) + 0.5 * inertia_ * v[2] * v[2];
}

}  // namespace tinkertoy
