// Path: a prescribed trajectory p(t) for a driven point, with its first two derivatives.
//
// A DrivenPointConstraint needs ṗ and p̈ as well as p, because they enter Ċ and C̈ through
// ∂C/∂t and ∂²C/∂t² (seed 001). Implement Path for your own trajectories; CircularPath is
// the crank used by scenes/crank.json.
//
//   auto crank = std::make_shared<tinkertoy::CircularPath>(Eigen::Vector2d(0, 0), 0.5, 2 * M_PI);
//   model.addConstraint(std::make_unique<tinkertoy::DrivenPointConstraint>(pin, crank));
#pragma once

#include <Eigen/Core>
#include <string_view>

namespace tinkertoy {

// p(t), ṗ(t) and p̈(t); in 2D the z components are zero.
struct PathSample {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d acceleration = Eigen::Vector3d::Zero();
};

class Path {
 public:
  virtual ~Path() = default;
  [[nodiscard]] virtual std::string_view type() const = 0;
  // 2 or 3: the size of the points the path describes.
  [[nodiscard]] virtual int dimension() const = 0;
  // Throws std::invalid_argument if a parameter is invalid.
  virtual void validate() const = 0;
  [[nodiscard]] virtual PathSample sample(double time) const = 0;
};

// A circle in the x–y plane traversed at constant angular speed ω (rad/s, counter-clockwise
// for ω > 0), starting at angle φ (rad) from +x:
//
//   p(t) = c + r (cos θ, sin θ),  θ = φ + ω t
//   ṗ(t) = r ω (−sin θ, cos θ)
//   p̈(t) = −r ω² (cos θ, sin θ)
class CircularPath final : public Path {
 public:
  // center [dimension]; radius > 0 in metres.
  CircularPath(Eigen::VectorXd center, double radius, double angularSpeed, double phase = 0.0);

  [[nodiscard]] std::string_view type() const override { return "circle"; }
  [[nodiscard]] int dimension() const override { return static_cast<int>(center_.size()); }
  void validate() const override;
  [[nodiscard]] PathSample sample(double time) const override;

  [[nodiscard]] const Eigen::VectorXd& center() const { return center_; }
  [[nodiscard]] double radius() const { return radius_; }
  [[nodiscard]] double angularSpeed() const { return angularSpeed_; }
  [[nodiscard]] double phase() const { return phase_; }

 private:
  Eigen::VectorXd center_;
  double radius_;
  double angularSpeed_;
  double phase_;
};

}  // namespace tinkertoy
