#include "tinkertoy/constraints/make_constraint.hpp"

#include "tinkertoy/constraints/angle_joint.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/formula_constraint.hpp"
#include "tinkertoy/constraints/mouse_joint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/constraints/point_on_plane_constraint.hpp"
#include "tinkertoy/constraints/prismatic_joint.hpp"
#include "tinkertoy/constraints/pulley_joint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/constraints/weld_joint.hpp"
#include "tinkertoy/core/make_from_settings.hpp"

namespace tinkertoy {
namespace {

// The class each settings struct builds.
template <class Settings> struct Built;
template <> struct Built<DistanceConstraintSettings> { using Type = DistanceConstraint; };
template <> struct Built<FixedPointConstraintSettings> { using Type = FixedPointConstraint; };
template <> struct Built<PointOnCircleConstraintSettings> { using Type = PointOnCircleConstraint; };
template <> struct Built<PointOnLineConstraintSettings> { using Type = PointOnLineConstraint; };
template <> struct Built<PointOnPlaneConstraintSettings> { using Type = PointOnPlaneConstraint; };
template <> struct Built<DrivenPointConstraintSettings> { using Type = DrivenPointConstraint; };
template <> struct Built<RevoluteJointSettings> { using Type = RevoluteJoint; };
template <> struct Built<WeldJointSettings> { using Type = WeldJoint; };
template <> struct Built<PrismaticJointSettings> { using Type = PrismaticJoint; };
template <> struct Built<AngleJointSettings> { using Type = AngleJoint; };
template <> struct Built<PulleyJointSettings> { using Type = PulleyJoint; };
template <> struct Built<MouseJointSettings> { using Type = MouseJoint; };
template <> struct Built<FormulaConstraintSettings> { using Type = FormulaConstraint; };

}  // namespace

std::unique_ptr<Constraint> makeConstraint(const ConstraintSettings& settings) {
  return detail::makeFromSettings<Constraint, Built>(settings, "makeConstraint", "a constraint");
}

}  // namespace tinkertoy
