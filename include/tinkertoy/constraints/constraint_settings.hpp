// Every built-in constraint and joint as plain data (Jolt's XxxConstraintSettings): what it joins
// and every parameter it has. A constraint returns its settings (Constraint::settings()), and
// makeConstraint (constraints/make_constraint.hpp) builds one from them, so
//
//   makeConstraint(c.settings())                      // an equal constraint
//
// and code that handles each kind of constraint (the scene writer, the sketch, the bindings)
// visits the variant instead of trying one dynamic_cast after another:
//
//   std::visit([](const auto& s) { draw(s); }, model.constraint(id).settings());
//
// A running model changes a constraint through its settings (Model::editConstraint): a motor's
// speed, limits, a spring, a length, a mouse target. `type` is each one's scene-file name.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tinkertoy/constraints/joint_settings.hpp"
#include "tinkertoy/constraints/row_kind.hpp"
#include "tinkertoy/formula/formula.hpp"
#include "tinkertoy/formula/named_points.hpp"
#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

class Path;

// A rod, spring, rope or strut from a to b, or to the fixed world point `anchor` if b is empty
// (constraints/distance_constraint.hpp). It needs a length, a minimum or a maximum.
struct DistanceConstraintSettings {
  static constexpr std::string_view type = "distance";
  BodyPoint a;
  std::optional<BodyPoint> b;
  Eigen::VectorXd anchor;                                       // [dimension], used only without b
  std::optional<double> length;                                 // L: a rigid rod, or with a spring its rest length, m
  std::optional<JointSpring> spring;                            // makes the length soft (velocity level)
  double minLength = 0.0;                                       // 0: no minimum
  double maxLength = std::numeric_limits<double>::infinity();  // ∞: no maximum
};

// The point is nailed at `location` [dimension].
struct FixedPointConstraintSettings {
  static constexpr std::string_view type = "fixed";
  BodyPoint point;
  Eigen::VectorXd location;
};

// The point stays at `radius` (> 0, m) from `center` [dimension]: a circle in 2D, a sphere in 3D.
struct PointOnCircleConstraintSettings {
  static constexpr std::string_view type = "circle";
  BodyPoint point;
  Eigen::VectorXd center;
  double radius = 0.0;
};

// The point stays on the line through `origin` along `direction` (non-zero) [dimension].
struct PointOnLineConstraintSettings {
  static constexpr std::string_view type = "line";
  BodyPoint point;
  Eigen::VectorXd origin;
  Eigen::VectorXd direction;
};

// The point stays on the plane through `origin` with `normal` (non-zero) [3].
struct PointOnPlaneConstraintSettings {
  static constexpr std::string_view type = "plane";
  BodyPoint point;
  Eigen::VectorXd origin;
  Eigen::VectorXd normal;
};

// The point follows `path` (constraints/path.hpp) in time.
struct DrivenPointConstraintSettings {
  static constexpr std::string_view type = "driven";
  BodyPoint point;
  std::shared_ptr<const Path> path;
};

// A pin; limits and motor act on the relative angle θ = φ_a − φ_b − referenceAngle (rad).
struct RevoluteJointSettings {
  static constexpr std::string_view type = "revolute";
  JointConnection connection;
  double referenceAngle = 0.0;
  JointLimits limits;
  std::optional<JointMotor> motor;
};

// Locks position and relative angle: φ_a − φ_b = referenceAngle.
struct WeldJointSettings {
  static constexpr std::string_view type = "weld";
  JointConnection connection;
  double referenceAngle = 0.0;
};

// A slider along `axis` (in b's frame at φ_b = 0; the world's for the ground); limits and motor
// act on the translation along it (m).
struct PrismaticJointSettings {
  static constexpr std::string_view type = "prismatic";
  JointConnection connection;
  Eigen::Vector2d axis = Eigen::Vector2d::UnitX();
  double referenceAngle = 0.0;
  JointLimits limits;
  std::optional<JointMotor> motor;
};

// φ_a = ratio · φ_b + referenceAngle: a gear pair. Only the connection's bodies matter.
struct AngleJointSettings {
  static constexpr std::string_view type = "angle";
  JointConnection connection;
  double ratio = 1.0;
  double referenceAngle = 0.0;
};

// A rope from a over pulleys at groundA and groundB down to b: |a − g_a| + ratio |b − g_b| = length.
struct PulleyJointSettings {
  static constexpr std::string_view type = "pulley";
  BodyPoint a;
  BodyPoint b;
  Eigen::Vector2d groundA = Eigen::Vector2d::Zero();
  Eigen::Vector2d groundB = Eigen::Vector2d::Zero();
  double ratio = 1.0;
  double length = 0.0;
};

// Pulls the point softly toward `target`, with at most `maxForce` (N).
struct MouseJointSettings {
  static constexpr std::string_view type = "mouse";
  BodyPoint point;
  Eigen::Vector2d target = Eigen::Vector2d::Zero();
  JointSpring spring{.frequency = 5.0, .dampingRatio = 0.7};
  double maxForce = 0.0;
};

// C(x, t) = 0, or C ≥ 0 for kind Inequality, written as formulas, one per row
// (constraints/formula_constraint.hpp, docs/formula.md). Each point has a name; a formula reads its
// coordinates as x<name>, y<name>, z<name> (3D) and, on a rigid body, its frame's angle phi<name>;
// the time as t; and the parameters by name.
struct FormulaConstraintSettings {
  static constexpr std::string_view type = "formula";
  NamedPoints points;  // 1 to 4, names unique identifiers (formula/named_points.hpp)
  std::vector<std::string> rows;                          // one formula per row
  FormulaParameters parameters;
  RowKind kind = RowKind::Equality;  // or Inequality (velocity level)
};

// std::monostate: a constraint defined outside the library, which has no settings (it cannot be
// written to a scene or rebuilt from settings).
using ConstraintSettings =
    std::variant<std::monostate, DistanceConstraintSettings, FixedPointConstraintSettings,
                 PointOnCircleConstraintSettings, PointOnLineConstraintSettings, PointOnPlaneConstraintSettings,
                 DrivenPointConstraintSettings, RevoluteJointSettings, WeldJointSettings, PrismaticJointSettings,
                 AngleJointSettings, PulleyJointSettings, MouseJointSettings, FormulaConstraintSettings>;

}  // namespace tinkertoy
