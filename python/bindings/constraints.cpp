// Model.add_* for every constraint and joint, with keywords, and what can change while running
// (through Model::editConstraint, so an edit that adds or drops rows is a change of structure).
// Joints attach at a world point (`anchor`) in the current pose, as scene files attach them
// (constraints/joint_anchor.hpp); b=None joins a to the world. A length left out is the
// current one. Each returns the constraint's ConstraintId. One convention for every method that
// joins two points or bodies: a and b positional or by keyword, the alternatives to b
// (anchor=...) and everything after them by keyword only. Every method holds the model's lock
// (model_lock.hpp).
#include <Eigen/Geometry>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <tinkertoy/model/immovable.hpp>
#include <tinkertoy/tinkertoy.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "arguments.hpp"
#include "bindings.hpp"
#include "model_lock.hpp"

namespace tinkertoy::python {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Every add_* ends here: what the scene loader refuses, refused alike (a duplicate name, a
// constraint that could hold nothing), then the model's own checks.
ConstraintId add(Model& m, std::unique_ptr<Constraint> constraint, std::string name) {
  name = newName(m, std::move(name), "constraint");
  if (const std::string problem = immovableProblem(m, *constraint); !problem.empty()) throw py::value_error(problem);
  return m.addConstraint(std::move(constraint), std::move(name));
}

std::optional<JointMotor> motorOf(const std::optional<double>& speed, const std::optional<double>& maxForce) {
  if (!speed && !maxForce) return std::nullopt;
  if (!speed || !maxForce) throw py::value_error("a motor needs both motor_speed and max_motor_force");
  return JointMotor{.speed = *speed, .maxForce = *maxForce};
}

// Sets the limits of a revolute or prismatic joint, or its motor: whichever of the two it is.
template <class Edit>
void editCoordinate(Model& m, ConstraintId id, const Edit& change) {
  const std::string_view type = m.constraint(id).type();
  if (type == PrismaticJointSettings::type) {
    m.editConstraint<PrismaticJointSettings>(id, change);
  } else {
    m.editConstraint<RevoluteJointSettings>(id, change);
  }
}

void bindPointConstraints(LockedClass<Model>& model) {
  model
      .def(
          "add_distance",
          [](Model& m, const BodyPoint& a, const std::optional<BodyPoint>& b, const std::optional<Eigen::VectorXd>& anchor,
             std::optional<double> length, double minLength, double maxLength, std::optional<double> frequency,
             double dampingRatio, std::string name) {
            if (b.has_value() == anchor.has_value()) throw py::value_error("add_distance: give exactly one of b and anchor");
            const bool rod = minLength == 0.0 && std::isinf(maxLength);
            DistanceConstraintSettings settings{
                .a = a, .b = b, .anchor = anchor.value_or(Eigen::VectorXd()), .minLength = minLength, .maxLength = maxLength};
            if (length) {
              settings.length = length;
            } else if (rod || frequency) {
              settings.length = (m.position(a) - (b ? m.position(*b) : *anchor)).norm();
            }
            if (frequency) settings.spring = JointSpring{.frequency = *frequency, .dampingRatio = dampingRatio};
            return add(m, makeConstraint(settings), std::move(name));
          },
          py::arg("a"), py::arg("b") = py::none(), py::kw_only(), py::arg("anchor") = py::none(),
          py::arg("length") = py::none(), py::arg("min_length") = 0.0, py::arg("max_length") = kInfinity,
          py::arg("frequency") = py::none(), py::arg("damping_ratio") = 0.0, py::arg("name") = "",
          "A rod from point a to point b or to a fixed anchor (length: the current distance unless given). With "
          "min_length and/or max_length and no length it is a rope or a strut (velocity level); with frequency "
          "(Hz) a soft spring of that rest length.")
      .def(
          "add_fixed_point",
          [](Model& m, const BodyPoint& p, const std::optional<Eigen::VectorXd>& at, std::string name) {
            return add(m, std::make_unique<FixedPointConstraint>(p, at.value_or(m.position(p))), std::move(name));
          },
          py::arg("point"), py::kw_only(), py::arg("at") = py::none(), py::arg("name") = "",
          "Nails a point to a world location (default: where it is).")
      .def(
          "add_point_on_line",
          [](Model& m, const BodyPoint& p, const Eigen::VectorXd& origin, const Eigen::VectorXd& direction,
             std::string name) {
            return add(m, std::make_unique<PointOnLineConstraint>(p, origin, direction), std::move(name));
          },
          py::arg("point"), py::kw_only(), py::arg("origin"), py::arg("direction"), py::arg("name") = "")
      .def(
          "add_point_on_circle",
          [](Model& m, const BodyPoint& p, const Eigen::VectorXd& center, std::optional<double> radius,
             std::string name) {
            const double r = radius.value_or((m.position(p) - center).norm());
            return add(m, std::make_unique<PointOnCircleConstraint>(p, center, r), std::move(name));
          },
          py::arg("point"), py::kw_only(), py::arg("center"), py::arg("radius") = py::none(), py::arg("name") = "")
      .def(
          "add_point_on_plane",
          [](Model& m, const BodyPoint& p, const Eigen::VectorXd& origin, const Eigen::VectorXd& normal,
             std::string name) {
            return add(m, std::make_unique<PointOnPlaneConstraint>(p, origin, normal), std::move(name));
          },
          py::arg("point"), py::kw_only(), py::arg("origin"), py::arg("normal"), py::arg("name") = "")
      .def(
          "add_driven_point",
          [](Model& m, const BodyPoint& p, const std::shared_ptr<Curve>& curve, double speed, double phase,
             std::string name) {
            return add(m, std::make_unique<DrivenPointConstraint>(p, std::make_shared<CurvePath>(curve, speed, phase)),
                       std::move(name));
          },
          py::arg("point"), py::kw_only(), py::arg("curve"), py::arg("speed"), py::arg("phase") = 0.0,
          py::arg("name") = "", "Moves a point along a curve at parameter rate `speed` from `phase`.")
      .def(
          "add_formula",
          [](Model& m, const std::vector<std::pair<std::string, BodyPoint>>& points, const std::vector<std::string>& rows,
             const FormulaParameters& parameters, const std::string& kind, std::string name) {
            if (kind != "equality" && kind != "inequality") {
              throw py::value_error("add_formula: kind must be 'equality' or 'inequality', not '" + kind + "'");
            }
            return add(m,
                       makeConstraint(FormulaConstraintSettings{
                           .points = points,
                           .rows = rows,
                           .parameters = parameters,
                           .kind = kind == "equality" ? RowKind::Equality : RowKind::Inequality}),
                       std::move(name));
          },
          py::arg("points"), py::arg("C"), py::kw_only(), py::arg("parameters") = FormulaParameters{},
          py::arg("kind") = "equality", py::arg("name") = "",
          "A constraint written as formulas, one per row of C (docs/formula.md): points is a list of (name, point); "
          "a formula reads x<name>, y<name>, z<name>, phi<name> (a rigid body's angle), t and the parameters. Its J "
          "and dJ/dt come from automatic differentiation.");
}

void bindJoints(LockedClass<Model>& model) {
  model
      .def(
          "add_revolute",
          [](Model& m, const BodyPoint& a, const std::optional<BodyPoint>& b, const Eigen::Vector2d& anchor,
             double lower, double upper, std::optional<double> speed, std::optional<double> maxForce,
             std::string name) {
            const JointConnection link = connectAt(m, a, b, anchor);
            return add(m,
                       std::make_unique<RevoluteJoint>(link, relativeAngle(m, link), JointLimits{lower, upper},
                                                       motorOf(speed, maxForce)),
                       std::move(name));
          },
          py::arg("a"), py::arg("b") = py::none(), py::kw_only(), py::arg("anchor"), py::arg("lower") = -kInfinity,
          py::arg("upper") = kInfinity, py::arg("motor_speed") = py::none(), py::arg("max_motor_force") = py::none(),
          py::arg("name") = "",
          "A pin at the world point anchor; optional limits on the relative angle (rad, zero now) and a motor.")
      .def(
          "add_weld",
          [](Model& m, const BodyPoint& a, const std::optional<BodyPoint>& b, const Eigen::Vector2d& anchor,
             std::string name) {
            const JointConnection link = connectAt(m, a, b, anchor);
            return add(m, std::make_unique<WeldJoint>(link, relativeAngle(m, link)), std::move(name));
          },
          py::arg("a"), py::arg("b") = py::none(), py::kw_only(), py::arg("anchor"), py::arg("name") = "")
      .def(
          "add_prismatic",
          [](Model& m, const BodyPoint& a, const std::optional<BodyPoint>& b, const Eigen::Vector2d& anchor,
             const Eigen::Vector2d& axis, double lower, double upper, std::optional<double> speed,
             std::optional<double> maxForce, std::string name) {
            const JointConnection link = connectAt(m, a, b, anchor);
            // The slide direction lives in b's frame: undo b's current rotation.
            const Eigen::Vector2d local = Eigen::Rotation2Dd(-frameAngle(m, link.b)) * axis.normalized();
            return add(m,
                       std::make_unique<PrismaticJoint>(link, local, relativeAngle(m, link), JointLimits{lower, upper},
                                                        motorOf(speed, maxForce)),
                       std::move(name));
          },
          py::arg("a"), py::arg("b") = py::none(), py::kw_only(), py::arg("anchor"), py::arg("axis"),
          py::arg("lower") = -kInfinity, py::arg("upper") = kInfinity, py::arg("motor_speed") = py::none(),
          py::arg("max_motor_force") = py::none(), py::arg("name") = "",
          "A slider along the world direction axis through anchor; limits on the translation (m, zero now).")
      .def(
          "add_angle",
          [](Model& m, BodyId a, const std::optional<BodyId>& b, double ratio, std::string name) {
            JointConnection link{.a = a};
            if (b) link.b = BodyPoint(*b);
            const double reference = frameAngle(m, link.a) - ratio * frameAngle(m, link.b);
            return add(m, std::make_unique<AngleJoint>(link, ratio, reference), std::move(name));
          },
          py::arg("a"), py::arg("b") = py::none(), py::kw_only(), py::arg("ratio") = 1.0, py::arg("name") = "",
          "φ_a = ratio · φ_b + their current offset: a gear pair (b=None: a keeps its angle).")
      .def(
          "add_pulley",
          [](Model& m, const BodyPoint& a, const BodyPoint& b, const Eigen::Vector2d& groundA,
             const Eigen::Vector2d& groundB, double ratio, std::optional<double> length, std::string name) {
            const double rope = length.value_or((m.position(a).head<2>() - groundA).norm() +
                                                ratio * (m.position(b).head<2>() - groundB).norm());
            return add(m, std::make_unique<PulleyJoint>(a, b, groundA, groundB, ratio, rope), std::move(name));
          },
          py::arg("a"), py::arg("b"), py::kw_only(), py::arg("ground_a"), py::arg("ground_b"), py::arg("ratio") = 1.0,
          py::arg("length") = py::none(), py::arg("name") = "",
          "A rope from a over pulleys at ground_a and ground_b down to b: |a − g_a| + ratio |b − g_b| = length.")
      .def(
          "add_mouse_joint",
          [](Model& m, const BodyPoint& p, const Eigen::Vector2d& anchor, double frequency, double dampingRatio,
             double maxForce, std::string name) {
            return add(m,
                       std::make_unique<MouseJoint>(pointAtAnchor(m, p, anchor), anchor,
                                                    JointSpring{frequency, dampingRatio}, maxForce),
                       std::move(name));
          },
          py::arg("point"), py::kw_only(), py::arg("anchor"), py::arg("frequency") = 5.0,
          py::arg("damping_ratio") = 0.7, py::arg("max_force"), py::arg("name") = "",
          "A soft pull of the body point at anchor toward a target (set_mouse_target), as the Studio drags.");
}

void bindConstraintEdits(LockedClass<Model>& model) {
  model
      .def("remove_constraint", &Model::removeConstraint, py::arg("constraint"))
      .def(
          "spring_for_rod",
          [](Model& m, ConstraintId rod, double stiffness, double damping) {
            return springForRod(m, rod, SpringParameters{.stiffness = stiffness, .damping = damping});
          },
          py::arg("rod"), py::kw_only(), py::arg("stiffness"), py::arg("damping") = 0.0,
          "Replaces a rigid rod by a damped spring of the rod's length between the same points; returns the "
          "spring's ForceId. Raises ValueError for a constraint that is not a rigid rod.")
      .def_property_readonly("constraints", [](const Model& m) {
        std::vector<ConstraintId> ids;
        for (std::size_t i = 0; i < m.constraintCount(); ++i) ids.push_back(m.constraintAt(i));
        return ids;
      })
      .def("contains_constraint", py::overload_cast<ConstraintId>(&Model::contains, py::const_), py::arg("constraint"))
      .def("constraint_type", [](const Model& m, ConstraintId id) { return std::string(m.constraint(id).type()); },
           py::arg("constraint"))
      .def("constraint_rows", [](const Model& m, ConstraintId id) { return m.constraint(id).rows(); },
           py::arg("constraint"))
      .def("constraint_name", py::overload_cast<ConstraintId>(&Model::name, py::const_), py::arg("constraint"))
      .def("describe_constraint", py::overload_cast<ConstraintId>(&Model::describe, py::const_),
           py::arg("constraint"))
      .def("is_enabled", &Model::isEnabled, py::arg("constraint"))
      .def("set_enabled", &Model::setEnabled, py::arg("constraint"), py::arg("enabled"))
      .def("break_force", &Model::breakForce, py::arg("constraint"))
      .def("set_break_force", &Model::setBreakForce, py::arg("constraint"), py::arg("force"),
           "The reaction force (N) above which the simulator breaks it; inf never breaks.")
      .def("collide_connected", &Model::collideConnected, py::arg("constraint"))
      .def("set_collide_connected", &Model::setCollideConnected, py::arg("constraint"), py::arg("collide"),
           "Whether the bodies it joins may still collide (by default they do not).")
      .def(
          "set_length",
          [](Model& m, ConstraintId id, double length) {
            m.editConstraint<DistanceConstraintSettings>(id, [&](auto& s) { s.length = length; });
          },
          py::arg("constraint"), py::arg("length"),
          "A rod's length, or a distance spring's rest length, m (a rope given a length becomes a spring's or "
          "rod's: give it a frequency with set_spring).")
      .def(
          "set_length_range",
          [](Model& m, ConstraintId id, double minLength, double maxLength) {
            m.editConstraint<DistanceConstraintSettings>(id, [&](auto& s) {
              s.minLength = minLength;
              s.maxLength = maxLength;
            });
          },
          py::arg("constraint"), py::kw_only(), py::arg("min_length") = 0.0, py::arg("max_length") = kInfinity,
          "A distance joint's minimum and maximum length, m (0 and inf: none).")
      .def(
          "set_spring",
          [](Model& m, ConstraintId id, std::optional<double> frequency, double dampingRatio) {
            std::optional<JointSpring> spring;
            if (frequency) spring = JointSpring{.frequency = *frequency, .dampingRatio = dampingRatio};
            if (std::holds_alternative<MouseJointSettings>(m.constraint(id).settings())) {
              if (!spring) throw py::value_error("a mouse joint is always a spring: give a frequency");
              m.editConstraint<MouseJointSettings>(id, [&](auto& s) { s.spring = *spring; });
            } else {
              m.editConstraint<DistanceConstraintSettings>(id, [&](auto& s) { s.spring = spring; });
            }
          },
          py::arg("constraint"), py::arg("frequency"), py::arg("damping_ratio") = 0.0,
          "Makes a distance joint's length soft: frequency (Hz) and damping ratio (1 is critical); "
          "frequency=None makes it rigid again. For a mouse joint, its pull.")
      .def(
          "set_limits",
          [](Model& m, ConstraintId id, double lower, double upper) {
            editCoordinate(m, id, [&](auto& s) { s.limits = JointLimits{.lower = lower, .upper = upper}; });
          },
          py::arg("constraint"), py::kw_only(), py::arg("lower") = -kInfinity, py::arg("upper") = kInfinity,
          "A revolute's angle limits (rad) or a prismatic's translation limits (m), measured as add_revolute and "
          "add_prismatic measure them; inf: no limit.")
      .def(
          "set_motor",
          [](Model& m, ConstraintId id, std::optional<double> speed, std::optional<double> maxForce) {
            const std::optional<JointMotor> motor = motorOf(speed, maxForce);
            editCoordinate(m, id, [&](auto& s) { s.motor = motor; });
          },
          py::arg("constraint"), py::kw_only(), py::arg("motor_speed") = py::none(),
          py::arg("max_motor_force") = py::none(),
          "A revolute's or prismatic's motor: target speed (rad/s or m/s) and maximum torque or force; both None "
          "removes it.")
      .def(
          "set_radius",
          [](Model& m, ConstraintId id, double radius) {
            m.editConstraint<PointOnCircleConstraintSettings>(id, [&](auto& s) { s.radius = radius; });
          },
          py::arg("constraint"), py::arg("radius"))
      .def(
          "set_mouse_target",
          [](Model& m, ConstraintId id, const Eigen::Vector2d& target) {
            m.editConstraint<MouseJointSettings>(id, [&](auto& s) { s.target = target; });
          },
          py::arg("constraint"), py::arg("target"));
}

}  // namespace

void bindConstraints(py::module_& module) {
  auto model = LockedClass<Model>::existing(module, "Model");
  bindPointConstraints(model);
  bindJoints(model);
  bindConstraintEdits(model);
}

}  // namespace tinkertoy::python
