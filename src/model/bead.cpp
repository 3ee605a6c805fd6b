#include "tinkertoy/model/bead.hpp"

#include <stdexcept>

#include "common/vector_checks.hpp"

namespace tinkertoy {

Bead::Bead(std::shared_ptr<const Curve> curve, double mass) : curve_(std::move(curve)), mass_(mass) {
  if (!curve_) throw std::invalid_argument("a bead needs a curve");
}

void Bead::validate(int dimension) const {
  detail::requireMass(mass_, "bead mass");
  curve_->validate();
  if (curve_->dimension() != dimension) {
    throw std::invalid_argument("the bead's " + std::string(curve_->type()) + " is " +
                                std::to_string(curve_->dimension()) + "D but the model is " +
                                std::to_string(dimension) + "D");
  }
}

void Bead::pointKinematics(const Site& /*site*/, BodyCoordinates q, BodyCoordinates v,
                           PointKinematics& out) const {
  const CurvePoint c = curve_->evaluate(q[0]);
  out.position = c.position;
  out.velocity = c.tangent * v[0];
  out.jacobian = c.tangent;
  out.jacobianDot = c.curvature * v[0];
}

void Bead::massMatrix(BodyCoordinates q, Eigen::Ref<Eigen::MatrixXd> M) const {
  M(0, 0) = mass_ * curve_->evaluate(q[0]).tangent.squaredNorm();
}

void Bead::addInertialForce(BodyCoordinates q, BodyCoordinates v, Eigen::Ref<Eigen::VectorXd> Q) const {
  const CurvePoint c = curve_->evaluate(q[0]);
  Q[0] -= mass_ * c.tangent.dot(c.curvature) * v[0] * v[0];
}

}  // namespace tinkertoy
