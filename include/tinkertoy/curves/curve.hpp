// Curve: a parametric wire c(u) for beads and driven points (the SIGGRAPH 2001 course slides,
// "parametric bead on a wire"; the lecture slides "Constraint Particles", "parametric
// constraints").
//
// A curve gives, at parameter u, its point and first two derivatives:
//
//   position   c(u)                                         [3], z = 0 in 2D
//   tangent    c'(u) = dc/du
//   curvature  c''(u) = d²c/du²
//
// which is all a bead needs: x = c(u), J = ∂x/∂u = c'(u), J̇ u̇ = c''(u) u̇² (model/bead.hpp).
// To add a curve, implement these three functions; derive them in the file's comment and the
// finite-difference tests check them (tests/curves/curves_test.cpp).
//
//   auto wire = std::make_shared<tinkertoy::CircleCurve>(Eigen::Vector2d(0, 0), 1.0);
//   tinkertoy::CurvePoint p = wire->evaluate(0.5);   // p.position, p.tangent, p.curvature
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string_view>

#include "tinkertoy/curves/curve_settings.hpp"

namespace tinkertoy {

struct CurvePoint {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();   // c(u)
  Eigen::Vector3d tangent = Eigen::Vector3d::Zero();    // c'(u)
  Eigen::Vector3d curvature = Eigen::Vector3d::Zero();  // c''(u)
};

class Curve {
 public:
  virtual ~Curve() = default;
  // The scene-file type name, e.g. "circle".
  [[nodiscard]] virtual std::string_view type() const = 0;
  // Every parameter, as plain data (curves/curve_settings.hpp): makeCurve(settings()) builds an
  // equal curve. A curve defined outside the library, or a formula curve written in C++, has none
  // (std::monostate).
  [[nodiscard]] virtual CurveSettings settings() const { return std::monostate{}; }
  // 2 or 3: the dimension of the model the curve lives in.
  [[nodiscard]] virtual int dimension() const = 0;
  // Throws std::invalid_argument naming the bad parameter.
  virtual void validate() const = 0;
  [[nodiscard]] virtual CurvePoint evaluate(double u) const = 0;

  // The interval of u over which the curve runs once, if it is bounded: [0, P) of a closed curve
  // of period P (c(u + P) = c(u)), or an open spline's [0, length]. None for a line, a helix or an
  // open formula curve, which go on.
  struct Domain {
    double from = 0.0, to = 0.0;
    bool closed = false;
  };
  [[nodiscard]] virtual std::optional<Domain> domain() const { return std::nullopt; }
};

}  // namespace tinkertoy
