// Bead: a point mass that can only slide along a wire, in its one parametric coordinate
// (the SIGGRAPH 2001 course slides, "parametric bead on a wire"; the lecture slides "Constraint Particles", "parametric constraints").
//
// Instead of adding a constraint force that keeps a free particle on the wire (the implicit
// way, PointOnCircleConstraint), the legal positions are parametrized, x = c(u), and Lagrange's
// equation is solved for u itself. With J = ∂x/∂u = c'(u) (a 3 × 1 column):
//
//   ẋ  = c'(u) u̇                 J̇ = c''(u) u̇          ẍ = c' ü + c'' u̇²
//   M  = Jᵀ m J = m |c'(u)|²     (the 1 × 1 reduced mass)
//   M ü = c'·f − m (c'·c'') u̇²   (Witkin, "Constrained Dynamics", eq. 13: Jᵀ Q − Jᵀ M J̇ u̇)
//
// so the bead satisfies its wire exactly, by construction, whatever the step size. The curve
// must have non-zero speed, c'(u) ≠ 0, wherever the bead goes; the simulator reports a
// singular mass otherwise.
//
//   auto wire = std::make_shared<tinkertoy::CircleCurve>(Eigen::Vector2d(0, 0), 1.0);
//   BodyId bead = model.addBody(std::make_unique<tinkertoy::Bead>(wire, 1.0),
//                               Eigen::VectorXd::Constant(1, 0.0));   // u = 0
#pragma once

#include <memory>

#include "tinkertoy/curves/curve.hpp"
#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

class Bead final : public Body {
 public:
  // mass > 0 in kg.
  Bead(std::shared_ptr<const Curve> curve, double mass);
  explicit Bead(const BeadSettings& s) : Bead(s.curve, s.mass) {}

  [[nodiscard]] std::string_view type() const override { return BeadSettings::type; }
  [[nodiscard]] BodySettings settings() const override { return BeadSettings{.curve = curve_, .mass = mass_}; }
  [[nodiscard]] int coordinateCount() const override { return 1; }
  [[nodiscard]] int pointCount() const override { return 1; }
  [[nodiscard]] double pointMass(int /*point*/) const override { return mass_; }
  void validate(int dimension) const override;
  void pointKinematics(const Site& site, BodyCoordinates q, BodyCoordinates v,
                       PointKinematics& out) const override;
  void massMatrix(BodyCoordinates q, Eigen::Ref<Eigen::MatrixXd> M) const override;
  void addInertialForce(BodyCoordinates q, BodyCoordinates v, Eigen::Ref<Eigen::VectorXd> Q) const override;

  [[nodiscard]] const Curve& curve() const { return *curve_; }
  [[nodiscard]] double mass() const { return mass_; }

 private:
  std::shared_ptr<const Curve> curve_;
  double mass_;
};

}  // namespace tinkertoy
