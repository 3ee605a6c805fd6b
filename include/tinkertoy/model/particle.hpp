// Particle: a point mass whose coordinates are its position (Witkin, "Constrained Dynamics", §3).
//
//   q_b = x [d],  v_b = ẋ [d],  one point (index 0) at x,  M = m I,  J = ∂x/∂q_b = I
//
// The model's addParticle() creates one; particles are the common case, so every derived
// quantity is overridden with its closed form instead of the point-mass sums.
//
//   BodyId bob = model.addParticle(1.0, Eigen::Vector2d(1, 0));
//   double m = model.body(bob).totalMass();
#pragma once

#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

class Particle final : public Body {
 public:
  // dimension: 2 or 3; mass > 0 in kg.
  Particle(int dimension, double mass) : dimension_(dimension), mass_(mass) {}
  // With a radius (2D only), the particle collides as a disc when the model's bodies collide.
  explicit Particle(const ParticleSettings& s)
      : dimension_(s.dimension), mass_(s.mass), radius_(s.radius), collider_(s.collider) {}

  [[nodiscard]] std::string_view type() const override { return ParticleSettings::type; }
  [[nodiscard]] BodySettings settings() const override {
    return ParticleSettings{.dimension = dimension_, .mass = mass_, .radius = radius_, .collider = collider_};
  }
  [[nodiscard]] bool coordinatesArePosition() const override { return true; }
  [[nodiscard]] int coordinateCount() const override { return dimension_; }
  [[nodiscard]] int pointCount() const override { return 1; }
  [[nodiscard]] double pointMass(int /*point*/) const override { return mass_; }
  void validate(int dimension) const override;
  void pointKinematics(const Site& site, BodyCoordinates q, BodyCoordinates v,
                       PointKinematics& out) const override;

  [[nodiscard]] double mass() const { return mass_; }
  void setMass(double mass);

  [[nodiscard]] bool hasDiagonalMass() const override { return true; }
  void massMatrix(BodyCoordinates q, Eigen::Ref<Eigen::MatrixXd> M) const override;
  void addInertialForce(BodyCoordinates /*q*/, BodyCoordinates /*v*/,
                        Eigen::Ref<Eigen::VectorXd> /*Q*/) const override {}
  void addWeight(const Eigen::Vector3d& g, BodyCoordinates q, Eigen::Ref<Eigen::VectorXd> Q) const override;
  void addPointForce(const Site& site, const Eigen::Vector3d& f, BodyCoordinates q,
                     Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] Eigen::Vector3d massMoment(BodyCoordinates q) const override;
  [[nodiscard]] double kineticEnergy(BodyCoordinates q, BodyCoordinates v) const override;

 private:
  int dimension_;
  double mass_;
  double radius_ = 0.0;
  Collider collider_;
};

}  // namespace tinkertoy
