// Every built-in force as plain data: what it acts on and every parameter it has. A force returns
// its settings (Force::settings()) and makeForce (forces/make_force.hpp) builds one from them, so
//
//   makeForce(f.settings())                                   // an equal force
//   std::visit([](const auto& s) { draw(s); }, model.force(id).settings());
//
// and a running model changes a force through its settings (Model::editForce): a mouse spring's
// target, gravity. `type` is each one's scene-file name.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "tinkertoy/core/body.hpp"
#include "tinkertoy/formula/formula.hpp"
#include "tinkertoy/formula/named_points.hpp"

namespace tinkertoy {

// A uniform field g on every point mass (forces/gravity.hpp).
struct GravitySettings {
  static constexpr std::string_view type = "gravity";
  Eigen::VectorXd acceleration;  // g [dimension], m/s²
};

// Viscous drag −c ẋ on every point mass (forces/drag.hpp).
struct DragSettings {
  static constexpr std::string_view type = "drag";
  double coefficient = 0.0;  // c ≥ 0, N·s/m
};

// A fixed force on one point (forces/constant_force.hpp).
struct ConstantForceSettings {
  static constexpr std::string_view type = "constant";
  BodyPoint point;
  Eigen::VectorXd force;  // F [dimension], N
};

// A constant torque on a rigid body's frame (forces/torque.hpp).
struct TorqueSettings {
  static constexpr std::string_view type = "torque";
  BodyId body;
  double torque = 0.0;  // τ, N·m, counter-clockwise
};

// A damped spring's constants (forces/spring.hpp).
struct SpringParameters {
  double stiffness = 0.0;    // k, N/m
  double damping = 0.0;      // c, N·s/m
  double rest_length = 0.0;  // r, m
};

// A damped spring from point a to point b, or to the fixed world point `anchor` if b is empty.
struct SpringSettings {
  static constexpr std::string_view type = "spring";
  BodyPoint a;
  std::optional<BodyPoint> b;
  Eigen::VectorXd anchor;  // [dimension], used only without b
  SpringParameters parameters;
};

// The user's hand: a damped zero-length spring pulling a point toward `target`
// (forces/mouse_spring.hpp). Interactive; not written to scenes.
struct MouseSpringSettings {
  static constexpr std::string_view type = "mouse";
  BodyPoint point;
  Eigen::VectorXd target;  // [dimension]
  double stiffness = 0.0;  // k, N/m
  double damping = 0.0;    // c, N·s/m
};

// A potential energy V written as a formula over named points (forces/formula_potential.hpp).
struct FormulaPotentialSettings {
  static constexpr std::string_view type = "formula_potential";
  NamedPoints points;  // 1 to 4, with names as a formula constraint's
  std::string V;       // J
  FormulaParameters parameters;
};

// std::monostate: a force defined outside the library, or a formula potential written in C++,
// which has no settings (it cannot be written to a scene or rebuilt from settings).
using ForceSettings = std::variant<std::monostate, GravitySettings, DragSettings, ConstantForceSettings, TorqueSettings,
                                   SpringSettings, MouseSpringSettings, FormulaPotentialSettings>;

}  // namespace tinkertoy
