// PointOnLineConstraint: the particle slides on a straight line through `point` along
// `direction`. One row in 2D, two rows in 3D.
//
//   C_i = n_i·(x − p) for the line's normals n_i   (affine rows, J constant)
//
//   model.addConstraint(std::make_unique<PointOnLineConstraint>(p, Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0)));
#pragma once

#include <array>

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class PointOnLineConstraint final : public Constraint {
 public:
  // point, direction [dimension]; direction must be non-zero (it need not be unit length).
  PointOnLineConstraint(ParticleId particle, Eigen::VectorXd point, Eigen::VectorXd direction);

  [[nodiscard]] std::string_view type() const override { return "line"; }
  [[nodiscard]] int rows() const override { return static_cast<int>(point_.size()) - 1; }
  [[nodiscard]] std::span<const ParticleId> particles() const override { return {&particle_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;

  [[nodiscard]] const Eigen::VectorXd& point() const { return point_; }
  [[nodiscard]] const Eigen::VectorXd& direction() const { return direction_; }

 private:
  ParticleId particle_;
  Eigen::VectorXd point_;
  Eigen::VectorXd direction_;
  std::array<Eigen::Vector3d, 2> normals_;
};

}  // namespace tinkertoy
