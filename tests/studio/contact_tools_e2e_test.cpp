// The contact tools (issue #38): static ground drawn as a polyline and as a segment, a box and a
// regular polygon dropped on it, run for 1.5 s in the Studio. The dumped scene must hold exactly
// those bodies, collisions must have been turned on with settings that solve them, and the
// dropped bodies must rest on the ground instead of falling through it.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "studio_run.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

using Json = nlohmann::json;

TEST(Studio, GroundBoxAndPolygonToolsBuildAPileThatCollides) {
  const fs::path script = write("contact-tools.json", R"({"events": [
    {"t": 0.0, "tool": "ground"},
    {"t": 0.1, "click": [-3, 1.5]}, {"t": 0.2, "click": [0, 0]}, {"t": 0.3, "click": [3, 0]}, {"t": 0.4, "click": [3, 0]},
    {"t": 0.5, "tool": "box"},
    {"t": 0.6, "mouse": [-2.2, 2.2]}, {"t": 0.7, "press": "left"}, {"t": 0.8, "mouse": [-1.7, 2.6]}, {"t": 0.9, "release": "left"},
    {"t": 1.0, "tool": "polygon"},
    {"t": 1.1, "mouse": [1, 1.5]}, {"t": 1.2, "press": "left"}, {"t": 1.3, "mouse": [1.3, 1.5]}, {"t": 1.4, "release": "left"},
    {"t": 1.5, "tool": "ground"},
    {"t": 1.6, "click": [-4, -1]}, {"t": 1.7, "click": [4, -1]}, {"t": 1.8, "key": "enter"},
    {"t": 1.9, "click": [5, 1]}, {"t": 2.0, "key": "escape"},
    {"t": 2.1, "key": "space"}, {"t": 3.6, "key": "space"}
  ]})");
  const fs::path dump = scratch("contact-tools-built.json"), shot = scratch("contact-tools.png");
  const StudioRun run = runStudio("--script " + script.string() + " --dump-scene " + dump.string() + " --screenshot " +
                                  shot.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  std::ifstream in(dump);
  const Json json = Json::parse(in);
  EXPECT_EQ(json["settings"]["collisions"], true) << "the first contact tool turned them on";
  EXPECT_EQ(json["settings"]["solver"], "sequential");
  EXPECT_EQ(json["settings"]["position_correction"], "soft");
  ASSERT_EQ(json["bodies"].size(), 4u) << json.dump(2) << "\nthe polyline dropped with Esc adds nothing";
  const Json& slope = json["bodies"][0];
  EXPECT_EQ(slope["id"], "ground1");
  EXPECT_EQ(slope["static"], true);
  EXPECT_EQ(slope["shape"]["type"], "chain");
  EXPECT_EQ(slope["shape"]["points"].size(), 3u) << "the last point clicked again ends it, once";
  const Json& box = json["bodies"][1];
  EXPECT_EQ(box["shape"]["type"], "box");
  EXPECT_NEAR(box["shape"]["size"][0].get<double>(), 0.5, 0.02);
  EXPECT_NEAR(box["shape"]["size"][1].get<double>(), 0.4, 0.02);
  EXPECT_NEAR(box["mass"].get<double>(),
              10.0 * box["shape"]["size"][0].get<double>() * box["shape"]["size"][1].get<double>(), 1e-12);
  const Json& polygon = json["bodies"][2];
  EXPECT_EQ(polygon["shape"]["type"], "polygon");
  EXPECT_EQ(polygon["shape"]["vertices"].size(), 5u) << "the default sides";
  const Json& floor = json["bodies"][3];
  EXPECT_EQ(floor["shape"]["type"], "segment") << "two points and Enter";

  // After 1.5 s: the box landed on the slope (above its line, y = −x/2 for x in [−3, 0], or on
  // the flat beyond), the polygon on the flat part, both above the lower floor.
  Scene scene = loadScene(dump);
  const Eigen::VectorXd b = scene.model.coordinates(*scene.model.findBody(box["id"].get<std::string>()));
  const Eigen::VectorXd p = scene.model.coordinates(*scene.model.findBody(polygon["id"].get<std::string>()));
  EXPECT_GT(b[1], std::max(-0.5 * b[0], 0.0)) << "the box rests on the slope, not through it";
  EXPECT_GT(p[1], 0.0) << "the polygon rests on the flat";
  EXPECT_LT(p[1], 0.35);
  EXPECT_LT(scene.model.velocities(*scene.model.findBody(polygon["id"].get<std::string>())).norm(), 0.05);
}

// The inspector of a body with no surface of its own shows the scene's friction; typing into it
// gives the body its own, which the dumped scene then holds.
TEST(Studio, TheInspectorGivesABodyItsOwnFriction) {
  const fs::path scene = write("box-on-floor.json", R"({"dimension": 2, "gravity": [0, -9.81],
    "settings": {"formulation": "velocity", "solver": "sequential", "position_correction": "soft", "collisions": true},
    "bodies": [
      {"id": "floor", "type": "rigid", "mass": 1, "static": true, "position": [0, -0.5], "shape": {"type": "box", "size": [6, 1]}},
      {"id": "box", "type": "rigid", "mass": 1, "position": [0, 0.25], "shape": {"type": "box", "size": [0.5, 0.5]}}]})");
  // The friction field: the tenth row of a rigid body's fields (id, type, mass, position, angle,
  // velocity, angular velocity, shape type, shape size, friction).
  const fs::path script = write("own-friction.json", R"({"events": [
    {"t": 0.1, "click": [0, 0.25]},
    {"t": 0.3, "mouse_px": [1000, 358]}, {"t": 0.35, "press": "left"}, {"t": 0.4, "release": "left"},
    {"t": 0.45, "key": "ctrl+a"}, {"t": 0.5, "text": "0.2"}, {"t": 0.6, "key": "enter"}
  ]})");
  const fs::path dump = scratch("own-friction-after.json");
  const StudioRun run = runStudio(scene.string() + " --script " + script.string() + " --dump-scene " + dump.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  std::ifstream in(dump);
  const Json json = Json::parse(in);
  EXPECT_EQ(json["bodies"][1]["friction"], 0.2) << json["bodies"][1].dump(2);
  EXPECT_FALSE(json["bodies"][1].contains("restitution")) << "only what was typed";
  EXPECT_FALSE(json["bodies"][0].contains("friction"));
}

}  // namespace
}  // namespace tinkertoy
