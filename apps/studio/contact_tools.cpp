// Studio: the tools that build for contacts (studio.hpp) — boxes and polygons to drop, and static
// ground to drop them on: a segment or a polyline. Like every tool, each is an edit of the
// scene's JSON (docs/scene-format.md, "rigid" and "Collisions"), so the loader checks it and undo
// covers it; and as these shapes are there to collide, the first of them turns the scene's
// `collisions` on, with the settings contacts need.
//
// A box falling down a slope in four gestures: the Ground tool's clicks at the slope's top, its
// foot and the floor's end, a click on that last point again to finish the polyline, and a Box
// drag above the slope; Space runs it.
#include <imgui.h>

#include <cmath>
#include <numbers>
#include <sstream>

#include "scene_json.hpp"
#include "studio.hpp"
#include "tinkertoy/core/shape.hpp"

namespace tinkertoy::studio {

namespace {

constexpr double kLeastDragPixels = 4.0;     // a shorter drag is a click
constexpr double kFinishingPixels = 6.0;     // a click this near the polyline's last point ends it

// Turns contacts on in the scene's settings, with what they need (docs/scene-format.md,
// "settings"): the exact mode stays as it is; anything else becomes the velocity level's sequential
// impulses with the soft step. Returns what it did, for the message, or "" if they were on.
std::string collisionsOn(Json& scene) {
  Json& settings = scene["settings"];
  if (settings.value("collisions", false)) return "";
  settings["collisions"] = true;
  const bool exact = settings.value("formulation", "acceleration") == "velocity" &&
                     settings.value("solver", "cg") != "sequential" &&
                     settings.value("position_correction", "baumgarte") == "projection" &&
                     settings.value("velocity_scheme", "symplectic-euler") != "verlet";
  if (exact) return "; collisions on (the exact mode)";
  settings["formulation"] = "velocity";
  settings["solver"] = "sequential";
  settings["position_correction"] = "soft";
  settings.erase("velocity_scheme");
  return "; collisions on: the velocity level's sequential impulses with the soft step";
}

}  // namespace

void Studio::placeShape(const Eigen::Vector2d& from, const Eigen::Vector2d& to) {
  const bool box = tool_ == Tool::Box;
  const Eigen::Vector2d span = to - from;
  if (span.norm() * camera_.scale < kLeastDragPixels || (box && span.cwiseAbs().minCoeff() * camera_.scale < 1.0)) {
    report(box ? "drag from one corner of the box to the other" : "drag from the polygon's centre to a corner", false);
    return;
  }
  const std::string id = document_.freshBodyId(box ? "box" : "polygon");
  Json body{{"id", id}, {"type", RigidBodySettings::type}};
  if (box) {
    const Eigen::Vector2d size = span.cwiseAbs();
    body["mass"] = parts_.density * size.x() * size.y();
    body["position"] = vectorJson(0.5 * (from + to));
    body["shape"] = {{"type", Shape::name(Shape::Type::Box)}, {"size", {size.x(), size.y()}}};
  } else {
    // A regular polygon about its centre, a corner where the drag ended.
    const int sides = parts_.sides;
    const double radius = span.norm(), start = std::atan2(span.y(), span.x());
    Json vertices = Json::array();
    for (int k = 0; k < sides; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / sides;
      vertices.push_back({radius * std::cos(angle), radius * std::sin(angle)});
    }
    body["mass"] = parts_.density * 0.5 * sides * radius * radius * std::sin(2.0 * std::numbers::pi / sides);
    body["position"] = vectorJson(from);
    body["angle"] = start;
    body["shape"] = {{"type", Shape::name(Shape::Type::Polygon)}, {"vertices", vertices}};
  }
  std::string note;
  if (edit([&](Json& scene) {
        scene["bodies"].push_back(body);
        note = collisionsOn(scene);
      })) {
    selected_ = document_.scene().model.findBody(id).value();
    report(id + " placed" + note, false);
  }
}

void Studio::groundClick(const Eigen::Vector2d& world) {
  if (!groundPoints_.empty() && (world - groundPoints_.back()).norm() * camera_.scale <= kFinishingPixels) {
    finishGround();
    return;
  }
  if (groundPoints_.size() == static_cast<std::size_t>(Shape::kMaxChainPoints)) {
    report("a polyline has at most " + std::to_string(Shape::kMaxChainPoints) + " points: click its last point to end it",
           true);
    return;
  }
  groundPoints_.push_back(world);
  report(groundPoints_.size() == 1 ? "ground: click its next point (the last one again, or Enter, ends it; Esc drops it)"
                                   : "ground: " + std::to_string(groundPoints_.size()) + " points",
         false);
}

void Studio::finishGround() {
  std::vector<Eigen::Vector2d> points;
  points.swap(groundPoints_);
  if (points.size() < 2) {
    report("ground: click at least two points, then the last one again", false);
    return;
  }
  // A static body at the first point, carrying the segment or the chain in its frame.
  const Eigen::Vector2d origin = points.front();
  const std::string id = document_.freshBodyId("ground");
  Json shape;
  if (points.size() == 2) {
    shape = {{"type", Shape::name(Shape::Type::Segment)}, {"a", vectorJson(Eigen::Vector2d::Zero())},
             {"b", vectorJson(points[1] - origin)}};
  } else {
    Json list = Json::array();
    for (const Eigen::Vector2d& p : points) list.push_back(vectorJson(p - origin));
    shape = {{"type", Shape::name(Shape::Type::Chain)}, {"points", list}};
  }
  const Json body{{"id", id}, {"type", RigidBodySettings::type}, {"mass", 1.0}, {"static", true},
                  {"position", vectorJson(origin)}, {"shape", shape}};
  std::string note;
  if (edit([&](Json& scene) {
        scene["bodies"].push_back(body);
        note = collisionsOn(scene);
      })) {
    selected_ = document_.scene().model.findBody(id).value();
    report(id + ": " + (points.size() == 2 ? "a segment" : "a polyline of " + std::to_string(points.size()) + " points") +
               note,
           false);
  }
}

}  // namespace tinkertoy::studio
