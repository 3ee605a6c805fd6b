#include "tinkertoy/core/body.hpp"

#include <stdexcept>
#include <string>

namespace tinkertoy {

void Body::validateCoordinates(BodyCoordinates q) const {
  if (q.size() != coordinateCount()) {
    throw std::invalid_argument(std::string(type()) + " needs " + std::to_string(coordinateCount()) +
                                " coordinates, got " + std::to_string(q.size()));
  }
  if (!q.allFinite()) throw std::invalid_argument(std::string(type()) + " coordinates must be finite");
}

void Body::validateVelocities(BodyCoordinates v) const {
  if (v.size() != coordinateCount() || !v.allFinite()) {
    throw std::invalid_argument(std::string(type()) + " velocities must be " + std::to_string(coordinateCount()) +
                                " finite numbers");
  }
}

// M = Σ m_i J_iᵀ J_i: the kinetic energy ½ Σ m_i |J_i q̇|² written as ½ q̇ᵀ M q̇.
void Body::massMatrix(BodyCoordinates q, Eigen::Ref<Eigen::MatrixXd> M) const {
  const BodyVector zero = BodyVector::Zero(q.size());
  PointKinematics k;
  M.setZero();
  for (int i = 0; i < pointCount(); ++i) {
    pointKinematics(i, q, zero, k);
    M.noalias() += pointMass(i) * k.jacobian.transpose() * k.jacobian;
  }
}

// ẍ_i = J_i q̈ + J̇_i q̇, so the inertia of point i contributes m_i J_iᵀ J̇_i q̇ to the left of
// eq. 13; moved to the right it is a generalized force.
void Body::addInertialForce(BodyCoordinates q, BodyCoordinates v,
                            Eigen::Ref<Eigen::VectorXd> Q) const {
  PointKinematics k;
  for (int i = 0; i < pointCount(); ++i) {
    pointKinematics(i, q, v, k);
    Q.noalias() -= pointMass(i) * k.jacobian.transpose() * (k.jacobianDot * v);
  }
}

void Body::addWeight(const Eigen::Vector3d& g, BodyCoordinates q,
                     Eigen::Ref<Eigen::VectorXd> Q) const {
  for (int i = 0; i < pointCount(); ++i) addPointForce(i, pointMass(i) * g, q, Q);
}

// Virtual work: f · δx_i = f · J_i δq_b = (J_iᵀ f) · δq_b.
void Body::addPointForce(const Site& site, const Eigen::Vector3d& f, BodyCoordinates q,
                         Eigen::Ref<Eigen::VectorXd> Q) const {
  const BodyVector zero = BodyVector::Zero(q.size());
  PointKinematics k;
  pointKinematics(site, q, zero, k);
  Q.noalias() += k.jacobian.transpose() * f;
}

Eigen::Vector3d Body::massMoment(BodyCoordinates q) const {
  const BodyVector zero = BodyVector::Zero(q.size());
  PointKinematics k;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (int i = 0; i < pointCount(); ++i) {
    pointKinematics(i, q, zero, k);
    moment += pointMass(i) * k.position;
  }
  return moment;
}

double Body::kineticEnergy(BodyCoordinates q, BodyCoordinates v) const {
  PointKinematics k;
  double T = 0.0;
  for (int i = 0; i < pointCount(); ++i) {
    pointKinematics(i, q, v, k);
    T += 0.5 * pointMass(i) * k.velocity.squaredNorm();
  }
  return T;
}

double Body::totalMass() const {
  double m = 0.0;
  for (int i = 0; i < pointCount(); ++i) m += pointMass(i);
  return m;
}

}  // namespace tinkertoy
