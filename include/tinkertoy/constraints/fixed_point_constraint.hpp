// FixedPointConstraint: a nail. The particle stays at a fixed point; d rows.
//
//   C = x − p,  J = I,  J̇ = 0   (affine rows with the coordinate axes as normals)
//
//   model.addConstraint(std::make_unique<FixedPointConstraint>(p, model.position(p)));
#pragma once

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class FixedPointConstraint final : public Constraint {
 public:
  // point [dimension].
  FixedPointConstraint(ParticleId particle, Eigen::VectorXd point);

  [[nodiscard]] std::string_view type() const override { return "fixed"; }
  [[nodiscard]] int rows() const override { return static_cast<int>(point_.size()); }
  [[nodiscard]] std::span<const ParticleId> particles() const override { return {&particle_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;

  [[nodiscard]] const Eigen::VectorXd& point() const { return point_; }

 private:
  ParticleId particle_;
  Eigen::VectorXd point_;
};

}  // namespace tinkertoy
