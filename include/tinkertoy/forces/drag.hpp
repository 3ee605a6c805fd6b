// Drag: viscous drag on every point mass, f_i = −c ẋ_i (a particle, a bead, each mass of a
// chain). Dissipative, so no potential.
//
//   model.addForce(std::make_unique<tinkertoy::Drag>(0.1));
#pragma once

#include "tinkertoy/forces/force.hpp"

namespace tinkertoy {

class Drag final : public Force {
 public:
  // coefficient: c ≥ 0, in N·s/m.
  explicit Drag(double coefficient);
  explicit Drag(const DragSettings& s) : Drag(s.coefficient) {}

  [[nodiscard]] std::string_view type() const override { return DragSettings::type; }
  [[nodiscard]] ForceSettings settings() const override { return DragSettings{.coefficient = coefficient_}; }
  void validate(int dimension) const override;
  void accumulate(const Bodies& bodies, const StateView& state,
                  Eigen::Ref<Eigen::VectorXd> Q) const override;
  // P = −c Σ |ẋ_i|².
  [[nodiscard]] double power(const Bodies& bodies, const StateView& state) const override;
  [[nodiscard]] WorkSource workSource() const override { return WorkSource::Drag; }

  [[nodiscard]] double coefficient() const { return coefficient_; }

 private:
  double coefficient_;
};

}  // namespace tinkertoy
