// The rigid-body joints of a scene (docs/scene-format.md, "Joints"). Anchors are world points
// at the initial pose; each is turned into a site in the frame of the body it attaches to.
#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <variant>

#include "scene/scene_builder.hpp"
#include "tinkertoy/constraints/angle_joint.hpp"
#include "tinkertoy/model/joint_anchor.hpp"
#include "tinkertoy/constraints/mouse_joint.hpp"
#include "tinkertoy/constraints/prismatic_joint.hpp"
#include "tinkertoy/constraints/pulley_joint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/constraints/weld_joint.hpp"

namespace tinkertoy::scene {

namespace {

Eigen::Vector2d toVector2(const Eigen::VectorXd& x) { return {x[0], x[1]}; }

bool isWorld(const JsonObject& c, std::string_view key) { return !c.has(key) || c.at(key).is_null(); }

}  // namespace

BodyPoint SceneBuilder::anchoredPoint(const JsonObject& object, std::string_view key,
                                      const Eigen::Vector2d& anchor) const {
  const BodyPoint p = pointOf(object.at(key), object.pathOf(key));
  try {
    return pointAtAnchor(scene_.model, p, anchor);
  } catch (const std::invalid_argument& e) {
    throw SceneError(object.pathOf(key), e.what());
  }
}

JointConnection SceneBuilder::connection(const JsonObject& c) const {
  const Eigen::Vector2d anchor = toVector2(c.vector("anchor", 2));
  JointConnection link{.a = anchoredPoint(c, "a", anchor)};
  if (isWorld(c, "b")) {
    link.ground = anchor;
  } else {
    link.b = anchoredPoint(c, "b", anchor);
  }
  return link;
}

double SceneBuilder::frameAngle(const std::optional<BodyPoint>& point) const {
  return tinkertoy::frameAngle(scene_.model, point);
}

JointLimits SceneBuilder::limits(const JsonObject& c) const {
  JointLimits limits;
  limits.lower = c.optionalNumber("lower").value_or(-std::numeric_limits<double>::infinity());
  limits.upper = c.optionalNumber("upper").value_or(std::numeric_limits<double>::infinity());
  if (limits.lower > limits.upper) throw SceneError(c.pathOf("upper"), "must not be below \"lower\"");
  return limits;
}

std::optional<JointMotor> SceneBuilder::motor(const JsonObject& c) const {
  if (!c.has("motor_speed") && !c.has("max_motor_force")) return std::nullopt;
  return JointMotor{c.number("motor_speed"), c.nonNegative("max_motor_force")};
}

bool SceneBuilder::readJoint(const JsonObject& c, const std::string& type, const std::string& name) {
  if (type == RevoluteJointSettings::type) {
    c.allowOnly({"type", "id", "a", "b", "anchor", "lower", "upper", "motor_speed", "max_motor_force", "break_force", "collide_connected"});
    const JointConnection link = connection(c);
    const double reference = frameAngle(link.a) - frameAngle(link.b);
    addConstraint(std::make_unique<RevoluteJoint>(link, reference, limits(c), motor(c)), c, name);
  } else if (type == WeldJointSettings::type) {
    c.allowOnly({"type", "id", "a", "b", "anchor", "break_force", "collide_connected"});
    const JointConnection link = connection(c);
    addConstraint(std::make_unique<WeldJoint>(link, frameAngle(link.a) - frameAngle(link.b)), c, name);
  } else if (type == PrismaticJointSettings::type) {
    c.allowOnly({"type", "id", "a", "b", "anchor", "axis", "lower", "upper", "motor_speed", "max_motor_force",
                 "break_force", "collide_connected"});
    const JointConnection link = connection(c);
    const Eigen::Vector2d axis = toVector2(c.vector("axis", 2));
    if (axis.isZero(0.0)) throw SceneError(c.pathOf("axis"), "must be non-zero");
    // The slide direction lives in b's frame: undo b's initial rotation.
    const Eigen::Vector2d local = Eigen::Rotation2Dd(-frameAngle(link.b)) * axis.stableNormalized();
    addConstraint(std::make_unique<PrismaticJoint>(link, local, frameAngle(link.a) - frameAngle(link.b), limits(c),
                                                   motor(c)),
                  c, name);
  } else if (type == AngleJointSettings::type) {
    c.allowOnly({"type", "id", "a", "b", "ratio", "break_force", "collide_connected"});
    JointConnection link{.a = pointOf(c.at("a"), c.pathOf("a"))};
    if (!isWorld(c, "b")) link.b = pointOf(c.at("b"), c.pathOf("b"));
    const double ratio = c.optionalNumber("ratio").value_or(1.0);
    addConstraint(std::make_unique<AngleJoint>(link, ratio, frameAngle(link.a) - ratio * frameAngle(link.b)), c,
                  name);
  } else if (type == PulleyJointSettings::type) {
    c.allowOnly({"type", "id", "a", "b", "anchor_a", "anchor_b", "ground_a", "ground_b", "ratio", "length",
                 "break_force", "collide_connected"});
    const Endpoint a = endpoint(c, "a", "anchor_a"), b = endpoint(c, "b", "anchor_b");
    for (const auto& [end, key] : {std::pair{&a, "a"}, std::pair{&b, "b"}}) {
      if (!std::holds_alternative<BodyPoint>(*end)) throw SceneError(c.pathOf(key), "a pulley joins two body points");
    }
    if (a == b) throw SceneError(c.pathOf("b"), "a pulley cannot join " + describe(a) + " to itself");
    const Eigen::Vector2d groundA = toVector2(c.vector("ground_a", 2)), groundB = toVector2(c.vector("ground_b", 2));
    for (const auto& [end, ground, key] : {std::tuple{&a, groundA, "ground_a"}, std::tuple{&b, groundB, "ground_b"}}) {
      if ((toVector2(positionOf(*end)) - ground).norm() == 0.0) {
        throw SceneError(c.pathOf(key), describe(*end) + " starts on its pulley, where the rope's direction is undefined");
      }
    }
    const double ratio = c.has("ratio") ? c.positive("ratio") : 1.0;
    const double length = c.has("length") ? c.positive("length")
                                          : (toVector2(positionOf(a)) - groundA).norm() +
                                                ratio * (toVector2(positionOf(b)) - groundB).norm();
    addConstraint(std::make_unique<PulleyJoint>(std::get<BodyPoint>(a), std::get<BodyPoint>(b), groundA, groundB,
                                                ratio, length),
                  c, name);
  } else if (type == MouseJointSettings::type) {
    c.allowOnly({"type", "id", "a", "anchor", "target", "frequency", "damping_ratio", "max_force"});
    const Eigen::Vector2d anchor = toVector2(c.vector("anchor", 2));
    const Eigen::Vector2d target = c.has("target") ? toVector2(c.vector("target", 2)) : anchor;
    const JointSpring spring{c.has("frequency") ? c.positive("frequency") : 5.0, c.nonNegative("damping_ratio", 0.7)};
    addConstraint(std::make_unique<MouseJoint>(anchoredPoint(c, "a", anchor), target, spring, c.positive("max_force")),
                  c, name);
  } else {
    return false;
  }
  return true;
}

}  // namespace tinkertoy::scene
