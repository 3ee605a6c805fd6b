// Torque: a constant torque τ on the frame of a rigid body. It is conservative, V = −τ φ.
//
// The generalized force is Q = J_φᵀ τ, where J_φ = ∂φ/∂q_b is the row that maps the body's
// velocities to its frame's angular velocity (for a planar rigid body (x, y, θ) it is
// (0, 0, 1), so Q_θ = τ). Positive τ turns counter-clockwise.
//
//   model.addForce(std::make_unique<tinkertoy::Torque>(crank, 0.033));
#pragma once

#include "tinkertoy/forces/force.hpp"

namespace tinkertoy {

class Torque final : public Force {
 public:
  // body: a body with a frame (a rigid body); torque: τ, N·m.
  Torque(BodyId body, double torque);
  explicit Torque(const TorqueSettings& s) : Torque(s.body, s.torque) {}

  [[nodiscard]] std::string_view type() const override { return TorqueSettings::type; }
  [[nodiscard]] ForceSettings settings() const override { return TorqueSettings{.body = point_.body, .torque = torque_}; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  [[nodiscard]] bool usesAngle(std::size_t /*point*/) const override { return true; }
  void validate(int dimension) const override;
  void accumulate(const Bodies& bodies, const StateView& state, Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] double potentialEnergy(const Bodies& bodies, const StateView& state) const override;

  [[nodiscard]] double torque() const { return torque_; }

 private:
  BodyPoint point_;
  double torque_;
};

}  // namespace tinkertoy
