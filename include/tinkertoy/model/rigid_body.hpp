// RigidBody: a 2D rigid body in coordinates (x, y, θ): the position of its center of mass and
// its angle (as in dyn4j). Its mass matrix is diag(m, m, I), constant.
//
// A point fixed in the body at offset r (body frame) is at x_p = c + R(θ) r. With
// r_w = R(θ) r and r_w⊥ = (−r_w,y, r_w,x) = ∂(R r)/∂θ:
//
//   x_p = c + r_w            ẋ_p = v + ω r_w⊥
//   J_p = [ I₂ | r_w⊥ ]      J̇_p = [ 0 | −ω r_w ]       (3 columns: x, y, θ)
//   φ = θ,  J_φ = [0 0 1],  J̇_φ = 0                      (the frame angle of every point)
//
// A force f at the point adds J_pᵀ f = (f, r_w × f) to Q: the force and its torque about the
// center of mass. A static body never moves; a kinematic one keeps the velocity it was given.
// Both ignore forces and constraints (W = 0), which makes them the "world" that joints hang on.
//
//   auto rod = model.addBody(std::make_unique<tinkertoy::RigidBody>(1.0, plank.inertia(1.0), plank),
//                            Eigen::Vector3d(0.5, 0, 0));            // x, y, θ
//   tinkertoy::BodyPoint tip{rod, Eigen::Vector2d(0.5, 0)};         // the right end of the plank
//   auto disc = model.addBody(std::make_unique<tinkertoy::RigidBody>(2.0, tinkertoy::Shape::circle(0.1)),
//                             Eigen::Vector3d(0, 1, 0));            // I = ½ m r², from the shape
#pragma once

#include "tinkertoy/core/body.hpp"
#include "tinkertoy/core/shape.hpp"

namespace tinkertoy {

class RigidBody final : public Body {
 public:
  using Motion = RigidBodyMotion;

  // mass > 0 in kg; inertia > 0 in kg·m² about the center of mass.
  RigidBody(double mass, double inertia, Shape shape, Motion motion = Motion::Dynamic);
  // A uniform body: its inertia is the shape's for this mass (Shape::inertia).
  RigidBody(double mass, Shape shape, Motion motion = Motion::Dynamic);
  // The inertia the settings give, or the shape's for the mass.
  explicit RigidBody(const RigidBodySettings& s);

  [[nodiscard]] std::string_view type() const override { return RigidBodySettings::type; }
  // The inertia only if it is not the shape's for the mass, so that an edit of the mass or the
  // shape carries a derived inertia along.
  [[nodiscard]] BodySettings settings() const override;
  [[nodiscard]] int coordinateCount() const override { return 3; }
  [[nodiscard]] int pointCount() const override { return 1; }
  [[nodiscard]] double pointMass(int /*point*/) const override { return mass_; }
  [[nodiscard]] bool hasFrame() const override { return true; }
  void validate(int dimension) const override;
  void validateVelocities(BodyCoordinates v) const override;
  void pointKinematics(const Site& site, BodyCoordinates q, BodyCoordinates v,
                       PointKinematics& out) const override;

  [[nodiscard]] bool hasDiagonalMass() const override { return true; }
  [[nodiscard]] bool isDriven() const override { return motion_ != Motion::Dynamic; }
  void massMatrix(BodyCoordinates q, Eigen::Ref<Eigen::MatrixXd> M) const override;
  void addInertialForce(BodyCoordinates /*q*/, BodyCoordinates /*v*/,
                        Eigen::Ref<Eigen::VectorXd> /*Q*/) const override {}
  void addWeight(const Eigen::Vector3d& g, BodyCoordinates q, Eigen::Ref<Eigen::VectorXd> Q) const override;
  void addPointForce(const Site& site, const Eigen::Vector3d& f, BodyCoordinates q,
                     Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] Eigen::Vector3d massMoment(BodyCoordinates q) const override;
  [[nodiscard]] double kineticEnergy(BodyCoordinates q, BodyCoordinates v) const override;

  [[nodiscard]] double mass() const { return mass_; }
  [[nodiscard]] double inertia() const { return inertia_; }
  [[nodiscard]] const Shape& shape() const { return shape_; }
  [[nodiscard]] Motion motion() const { return motion_; }

 private:
  double mass_;
  double inertia_;
  Shape shape_;
  Motion motion_;
  Collider collider_;
};

}  // namespace tinkertoy
