// Studio: what the rigid-body tools make — bars, discs, hinges, welds and motors (studio.hpp).
// Like every tool, each is an edit of the scene's JSON (docs/scene-format.md, "rigid" and
// "Joints"), so the loader checks it and undo covers it.
//
// A four-bar linkage in eight gestures: three bar drags (ground pivot → crank pin → coupler pin
// → other ground pivot, each starting where the last ended, as bar ends snap), a hinge click at
// each of the four ends (two bars under the pointer are pinned together, one bar is pinned to
// the world), and a motor click on the crank's ground hinge.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "scene_json.hpp"
#include "studio.hpp"
#include "tinkertoy/constraints/constraint_settings.hpp"
#include "tinkertoy/collision/convex.hpp"
#include "tinkertoy/core/shape.hpp"

namespace tinkertoy::studio {

namespace {

constexpr double kLeastDragPixels = 4.0;  // a shorter drag is a click

// Whether the joint `c` (scene JSON) is a revolute joint or weld between the ends `a` and `b`
// (either way round; null is the world) with its anchor within `reach` m of `at`.
bool joins(const Json& c, const Json& a, const Json& b, const Eigen::Vector2d& at, double reach) {
  const std::string type = c.value("type", "");
  if (type != RevoluteJointSettings::type && type != WeldJointSettings::type) return false;
  const Json ca = c.value("a", Json()), cb = c.value("b", Json());
  if (!((ca == a && cb == b) || (ca == b && cb == a))) return false;
  const Json anchor = c.value("anchor", Json::array());
  return anchor.size() == 2 && (Eigen::Vector2d(anchor[0].get<double>(), anchor[1].get<double>()) - at).norm() <= reach;
}

std::string describe(const Json& end) {
  if (end.is_null()) return "the world";
  return end.is_string() ? end.get<std::string>() : end.dump();
}

}  // namespace

bool Studio::rigidBodiesAllowed() {
  if (document_.scene().model.dimension() == 2) return true;
  report("rigid bodies are 2D only (docs/scene-format.md, \"rigid\"), and this scene is 3D", true);
  return false;
}

void Studio::placePart(const Eigen::Vector2d& from, const Eigen::Vector2d& to) {
  const bool bar = tool_ == Tool::Bar;
  const double length = (to - from).norm();  // the bar's length, or the disc's radius
  if (length * camera_.scale < kLeastDragPixels) {
    report(bar ? "drag from one end of the bar to the other" : "drag from the disc's centre to its rim", false);
    return;
  }
  const std::string id = document_.freshBodyId(bar ? "bar" : "disc");
  Json body{{"id", id}, {"type", RigidBodySettings::type}};
  if (bar) {
    // A box from end to end: centred between them, turned along them, as wide as set.
    const Eigen::Vector2d along = to - from;
    body["mass"] = parts_.density * length * parts_.barWidth;
    body["position"] = vectorJson(0.5 * (from + to));
    body["angle"] = std::atan2(along.y(), along.x());
    body["shape"] = {{"type", Shape::name(Shape::Type::Box)}, {"size", {length, parts_.barWidth}}};
  } else {
    body["mass"] = parts_.density * std::numbers::pi * length * length;
    body["position"] = vectorJson(from);
    body["shape"] = {{"type", Shape::name(Shape::Type::Circle)}, {"radius", length}};
  }
  if (edit([&](Json& scene) { scene["bodies"].push_back(body); })) {
    selected_ = document_.scene().model.findBody(id).value();
  }
}

void Studio::join(const Eigen::Vector2d& pixel, bool weld) {
  const Eigen::Vector2d at = snapped(sketch_, camera_, pixel);
  const std::vector<BodyPoint> under = bodiesUnder(sketch_, camera_, camera_.toPixels(at));
  const std::string what = weld ? "weld" : "hinge";
  if (under.empty()) {
    report("no body here: a " + what + " joins the bodies under the pointer, or a body to the world", false);
    return;
  }
  // The first body (the topmost) is joined to each other one there, or alone to the world.
  const Model& model = document_.scene().model;
  const Json first = pointReference(model, under.front());
  std::vector<Json> others;
  for (std::size_t i = 1; i < under.size(); ++i) others.push_back(pointReference(model, under[i]));
  if (others.empty()) others.emplace_back(nullptr);
  const Json constraints = document_.json().value("constraints", Json::array());
  const double reach = kLeastDragPixels / camera_.scale;
  std::erase_if(others, [&](const Json& other) {
    return std::any_of(constraints.begin(), constraints.end(),
                       [&](const Json& c) { return joins(c, first, other, at, reach); });
  });
  if (others.empty()) {
    report(describe(first) + " is joined here already", false);
    return;
  }
  std::ostringstream message;
  message << what << " at (" << at.x() << ", " << at.y() << "): " << describe(first);
  if (!edit([&](Json& scene) {
        for (const Json& other : others) {
          scene["constraints"].push_back({{"type", weld ? WeldJointSettings::type : RevoluteJointSettings::type}, {"a", first}, {"b", other}, {"anchor", vectorJson(at)}});
          message << " to " << describe(other);
        }
      })) {
    return;
  }
  report(message.str(), false);
}

void Studio::toggleMotor(const Hit& hit) {
  const auto pointer = document_.locate(hit.item);
  const Json joint = pointer && std::holds_alternative<ConstraintId>(hit.item) ? document_.json()[*pointer] : Json();
  if (joint.value("type", "") != RevoluteJointSettings::type) {
    report("click a hinge (a revolute joint) to put a motor on it", false);
    return;
  }
  const bool remove = joint.contains("motor_speed");
  // Motors act at the velocity level (docs/scene-format.md, "Joints"): the scene moves there, with
  // projection, so that the joints stay exact.
  const bool toVelocityLevel = !remove && document_.scene().settings.formulation != FormulationKind::Velocity;
  if (!edit([&](Json& scene) {
        Json& j = scene[*pointer];
        if (remove) {
          j.erase("motor_speed");
          j.erase("max_motor_force");
          return;
        }
        j["motor_speed"] = parts_.motorSpeed;
        j["max_motor_force"] = parts_.motorTorque;
        if (toVelocityLevel) {
          scene["settings"]["formulation"] = "velocity";
          scene["settings"]["position_correction"] = "projection";
        }
      })) {
    return;
  }
  std::ostringstream message;
  if (remove) {
    message << "motor removed";
  } else {
    message << "motor: " << parts_.motorSpeed << " rad/s, at most " << parts_.motorTorque << " N·m";
    if (toVelocityLevel) message << "; motors act on velocities, so the formulation is now velocity (impulses)";
  }
  report(message.str(), false);
}

void Studio::partOptions() {
  // A field that takes a finite number (positive unless `anySign`) when the user is done with it.
  const auto field = [this](const char* label, double& value, bool anySign) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(64);
    double typed = value;
    ImGui::InputDouble(label, &typed, 0.0, 0.0, "%.4g");
    if (!ImGui::IsItemDeactivatedAfterEdit()) return;
    if (std::isfinite(typed) && (anySign || typed > 0.0)) {
      value = typed;
    } else {
      report(std::string(label) + ": must be a finite number" + (anySign ? "" : " > 0"), true);
    }
  };
  ImGui::SameLine(0, 24);
  switch (tool_) {
    case Tool::Bar:
      field("density (kg/m²)", parts_.density, false);
      field("width (m)", parts_.barWidth, false);
      break;
    case Tool::Disc:
    case Tool::Box:
      field("density (kg/m²)", parts_.density, false);
      break;
    case Tool::Polygon: {
      field("density (kg/m²)", parts_.density, false);
      ImGui::SameLine();
      ImGui::SetNextItemWidth(80);
      ImGui::SliderInt("sides", &parts_.sides, 3, kMaxConvexVertices);
      break;
    }
    case Tool::Motor:
      field("speed (rad/s)", parts_.motorSpeed, true);
      field("max torque (N·m)", parts_.motorTorque, false);
      break;
    default:
      ImGui::TextDisabled("%s", toolInfo(tool_).help);
  }
}

}  // namespace tinkertoy::studio
