// Path: a prescribed trajectory p(t) for a driven point, with its first two derivatives.
//
// A DrivenPointConstraint needs ṗ and p̈ as well as p, because they enter Ċ and C̈ through
// ∂C/∂t and ∂²C/∂t² (Witkin, Gleicher and Welch, "Interactive Dynamics"). Implement Path for your own trajectories; CurvePath moves
// along any Curve at a constant parameter rate, e.g. a crank pin on a circle.
//
//   auto wheel = std::make_shared<tinkertoy::CircleCurve>(Eigen::Vector2d(0, 0), 0.5);
//   auto crank = std::make_shared<tinkertoy::CurvePath>(wheel, 2 * M_PI);   // one turn per second
//   model.addConstraint(std::make_unique<tinkertoy::DrivenPointConstraint>(pin, crank));
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string_view>
#include <variant>

#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy {

// p(t), ṗ(t) and p̈(t); in 2D the z components are zero.
struct PathSample {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d acceleration = Eigen::Vector3d::Zero();
};

// A curve traversed at a constant parameter rate (CurvePath below), as plain data.
struct CurvePathSettings {
  std::shared_ptr<const Curve> curve;
  double speed = 0.0;  // ω = du/dt
  double phase = 0.0;  // φ, u at t = 0
};

// std::monostate: a path defined outside the library (it cannot be written to a scene).
using PathSettings = std::variant<std::monostate, CurvePathSettings>;

class Path {
 public:
  virtual ~Path() = default;
  // The path as plain data; none (std::monostate) for a path defined outside the library.
  [[nodiscard]] virtual PathSettings settings() const { return std::monostate{}; }
  // 2 or 3: the size of the points the path describes.
  [[nodiscard]] virtual int dimension() const = 0;
  // Throws std::invalid_argument if a parameter is invalid.
  virtual void validate() const = 0;
  [[nodiscard]] virtual PathSample sample(double time) const = 0;
};

// A curve traversed at a constant parameter rate ω (du/dt; rad/s for a circle, counter-
// clockwise for ω > 0), starting at parameter φ:
//
//   p(t) = c(u),  ṗ(t) = c'(u) ω,  p̈(t) = c''(u) ω²,    u = φ + ω t
class CurvePath final : public Path {
 public:
  CurvePath(std::shared_ptr<const Curve> curve, double speed, double phase = 0.0);

  [[nodiscard]] PathSettings settings() const override {
    return CurvePathSettings{.curve = curve_, .speed = speed_, .phase = phase_};
  }

  [[nodiscard]] int dimension() const override { return curve_->dimension(); }
  void validate() const override;
  [[nodiscard]] PathSample sample(double time) const override;

  [[nodiscard]] const Curve& curve() const { return *curve_; }
  [[nodiscard]] double speed() const { return speed_; }
  [[nodiscard]] double phase() const { return phase_; }

 private:
  std::shared_ptr<const Curve> curve_;
  double speed_;
  double phase_;
};

}  // namespace tinkertoy
