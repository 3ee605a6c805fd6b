// Gravity: a uniform field g acting on every point mass, f_i = m_i g.
//
// Potential energy V = -Σ m_i g·x_i (zero at the origin).
//
//   model.addForce(std::make_unique<tinkertoy::Gravity>(Eigen::Vector2d(0, -9.81)));
#pragma once

#include "tinkertoy/forces/force.hpp"

namespace tinkertoy {

class Gravity final : public Force {
 public:
  // g: acceleration [dimension], in m/s².
  explicit Gravity(Eigen::VectorXd g);
  explicit Gravity(const GravitySettings& s) : Gravity(s.acceleration) {}

  [[nodiscard]] std::string_view type() const override { return GravitySettings::type; }
  [[nodiscard]] ForceSettings settings() const override { return GravitySettings{.acceleration = g_}; }
  void validate(int dimension) const override;
  void accumulate(const Bodies& bodies, const StateView& state,
                  Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] double potentialEnergy(const Bodies& bodies, const StateView& state) const override;

  [[nodiscard]] const Eigen::VectorXd& acceleration() const { return g_; }

 private:
  Eigen::VectorXd g_;
};

}  // namespace tinkertoy
