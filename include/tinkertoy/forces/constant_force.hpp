// ConstantForce: a fixed force F on one particle. It is conservative, V = −F·x.
//
//   model.addForce(std::make_unique<tinkertoy::ConstantForce>(p, Eigen::Vector2d(1, 0)));
#pragma once

#include "tinkertoy/forces/force.hpp"

namespace tinkertoy {

class ConstantForce final : public Force {
 public:
  // force: F [dimension], in newtons.
  ConstantForce(ParticleId particle, Eigen::VectorXd force);

  [[nodiscard]] std::string_view type() const override { return "constant"; }
  [[nodiscard]] std::span<const ParticleId> particles() const override { return {&particle_, 1}; }
  void validate(int dimension) const override;
  void accumulate(const Model& model, const StateView& state,
                  Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] double potentialEnergy(const Model& model, const StateView& state) const override;

  [[nodiscard]] const Eigen::VectorXd& force() const { return force_; }

 private:
  ParticleId particle_;
  Eigen::VectorXd force_;
};

}  // namespace tinkertoy
