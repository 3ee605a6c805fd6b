// ConstantForce: a fixed force F on one point. It is conservative, V = −F·x.
//
//   model.addForce(std::make_unique<tinkertoy::ConstantForce>(p, Eigen::Vector2d(1, 0)));
#pragma once

#include "tinkertoy/forces/force.hpp"

namespace tinkertoy {

class ConstantForce final : public Force {
 public:
  // force: F [dimension], in newtons.
  ConstantForce(BodyPoint point, Eigen::VectorXd force);
  explicit ConstantForce(const ConstantForceSettings& s) : ConstantForce(s.point, s.force) {}

  [[nodiscard]] std::string_view type() const override { return ConstantForceSettings::type; }
  [[nodiscard]] ForceSettings settings() const override { return ConstantForceSettings{.point = point_, .force = force_}; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void accumulate(const Bodies& bodies, const StateView& state,
                  Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] double potentialEnergy(const Bodies& bodies, const StateView& state) const override;

  [[nodiscard]] const Eigen::VectorXd& force() const { return force_; }

 private:
  BodyPoint point_;
  Eigen::VectorXd force_;
};

}  // namespace tinkertoy
