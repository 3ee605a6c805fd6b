// PointOnPlaneConstraint (3D): the particle slides on the plane through `point` with normal
// `normal`. One row: C = n·(x − p) with n the unit normal (affine rows, J constant).
//
//   model.addConstraint(std::make_unique<PointOnPlaneConstraint>(p, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY()));
#pragma once

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class PointOnPlaneConstraint final : public Constraint {
 public:
  // point, normal [3]; normal must be non-zero (it need not be unit length).
  PointOnPlaneConstraint(ParticleId particle, Eigen::VectorXd point, Eigen::VectorXd normal);

  [[nodiscard]] std::string_view type() const override { return "plane"; }
  [[nodiscard]] int rows() const override { return 1; }
  [[nodiscard]] std::span<const ParticleId> particles() const override { return {&particle_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;

  [[nodiscard]] const Eigen::VectorXd& point() const { return point_; }
  [[nodiscard]] const Eigen::VectorXd& normal() const { return normal_; }

 private:
  ParticleId particle_;
  Eigen::VectorXd point_;
  Eigen::VectorXd normal_;
  Eigen::Vector3d unitNormal_;
};

}  // namespace tinkertoy
