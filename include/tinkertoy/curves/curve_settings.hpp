// Every built-in curve as plain data. A curve returns its settings (Curve::settings()) and
// makeCurve (curves/make_curve.hpp) builds one from them, so that code handling each kind (the
// scene writer, the sketch) visits the variant instead of asking for types:
//
//   std::visit([](const auto& s) { write(s); }, bead.curve().settings());
//
// `type` is each one's scene-file name.
#pragma once

#include <Eigen/Core>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tinkertoy/formula/formula.hpp"

namespace tinkertoy {

// A circle of `radius` about `center`, in the plane normal to `normal` (3D) (curves/ellipse_curve.hpp).
struct CircleCurveSettings {
  static constexpr std::string_view type = "circle";
  Eigen::VectorXd center;  // [2 or 3]
  double radius = 1.0;     // m, > 0
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
};

// An ellipse with semi-axes a (along the first in-plane axis) and b.
struct EllipseCurveSettings {
  static constexpr std::string_view type = "ellipse";
  Eigen::VectorXd center;  // [2 or 3]
  double semiAxisA = 1.0;  // m, > 0
  double semiAxisB = 1.0;  // m, > 0
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
};

// The line through `origin` along `direction` (non-zero, any length) (curves/line_curve.hpp).
struct LineCurveSettings {
  static constexpr std::string_view type = "line";
  Eigen::VectorXd origin;     // [2 or 3]
  Eigen::VectorXd direction;  // [2 or 3]
};

// A cubic spline through `points`, closed or open (curves/spline_curve.hpp).
struct SplineCurveSettings {
  static constexpr std::string_view type = "spline";
  std::vector<Eigen::VectorXd> points;  // at least 2 (open) or 3 (closed), each [2 or 3]
  bool closed = false;
};

// A helix of `radius` and `pitch` (m per turn) about `axis` through `center` (curves/helix_curve.hpp).
struct HelixCurveSettings {
  static constexpr std::string_view type = "helix";
  Eigen::VectorXd center;  // [3]
  double radius = 1.0;     // m, > 0
  double pitch = 0.0;      // m per turn
  Eigen::Vector3d axis = Eigen::Vector3d::UnitY();
};

// x(u), y(u) (and z(u)) as formulas of u and the parameters (curves/formula_curve.hpp).
struct FormulaCurveSettings {
  static constexpr std::string_view type = "formula";
  std::vector<std::string> coordinates;  // 2 or 3 formulas
  FormulaParameters parameters;
  double period = 0.0;  // 0, or P > 0 for a closed curve
};

// std::monostate: a curve defined outside the library, or a formula curve written in C++, which
// has no settings (it cannot be written to a scene or rebuilt from settings).
using CurveSettings = std::variant<std::monostate, CircleCurveSettings, EllipseCurveSettings, LineCurveSettings,
                                   SplineCurveSettings, HelixCurveSettings, FormulaCurveSettings>;

}  // namespace tinkertoy
