// A rigid mechanism built by clicking (issue #15, item 12): a four-bar linkage from three bar
// drags, four hinge clicks and a motor click, run in the Studio for 2 s — the session of the
// documentation's picture, docs/studio-four-bar.json. The dumped scene must hold exactly that
// mechanism, and its coupler must follow the four-bar's closed-form position analysis over a
// whole turn of the crank: the coupler curve.
//
// The script draws the Grashof crank-rocker of scenes/four_bar.json: ground pivots A = (0, 0)
// and D = (2, 0), crank 0.6 m, coupler 2.2 m, rocker 1.5 m. It moves the pointer to whole pixels,
// and each bar starts at the end of the last one, where it snaps.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>

#include "studio_run.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

using Json = nlohmann::json;

// A bar's ends from its pose (x, y, θ) and length: the box's axis is the drag's direction.
std::pair<Eigen::Vector2d, Eigen::Vector2d> ends(const Eigen::VectorXd& pose, double length) {
  const Eigen::Vector2d half = 0.5 * length * Eigen::Vector2d(std::cos(pose[2]), std::sin(pose[2]));
  return {pose.head<2>() - half, pose.head<2>() + half};
}

// The coupler pin C of a four-bar: the intersection of the circles |C − B| = b and |C − D| = c
// on the side of BD given by `branch` (the sign of (D − B) × (C − B)).
Eigen::Vector2d couplerPin(const Eigen::Vector2d& B, const Eigen::Vector2d& D, double b, double c, double branch) {
  const Eigen::Vector2d BD = D - B;
  const double d = BD.norm();
  const double along = (b * b - c * c + d * d) / (2 * d);  // from B toward D
  const double across = std::sqrt(std::max(b * b - along * along, 0.0));
  const Eigen::Vector2d u = BD / d, n(-u.y(), u.x());
  return B + along * u + branch * across * n;
}

TEST(Studio, BuildsAFourBarByClickingAndItsCouplerFollowsTheClosedForm) {
  const fs::path script = fs::path(TINKERTOY_SOURCE_DIR) / "docs/studio-four-bar.json";
  const fs::path dump = scratch("four-bar-built.json"), shot = scratch("four-bar.png");
  const StudioRun run = runStudio("--script " + script.string() + " --dump-scene " + dump.string() + " --screenshot " +
                                  shot.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  // With a rigid body selected at 1280 × 800, the side panel still shows the plots: the ‖C‖∞
  // curve's purple is in the panel's last 120 rows (item 15).
  const int purple = Screenshot(shot).count(
      [](const Eigen::Vector3i& c) { return (c - Eigen::Vector3i(148, 103, 189)).cwiseAbs().maxCoeff() < 40; },
      kWidth - 370, kHeight - 28 - 120, kWidth - 10, kHeight - 28);
  EXPECT_GT(purple, 30) << "the constraint-error plot at the foot of the panel";

  // The scene: three box bars of the default density and width, four revolute joints (two to the
  // world at A and D), one motor at the default speed and torque, and the velocity level.
  std::ifstream in(dump);
  const Json json = Json::parse(in);
  ASSERT_EQ(json["bodies"].size(), 3u) << json.dump(2);
  double length[3];
  for (int i = 0; i < 3; ++i) {
    const Json& bar = json["bodies"][i];
    EXPECT_EQ(bar["id"], "bar" + std::to_string(i + 1));
    ASSERT_EQ(bar["shape"]["type"], "box");
    length[i] = bar["shape"]["size"][0].get<double>();
    EXPECT_EQ(bar["shape"]["size"][1].get<double>(), 0.08);
    EXPECT_NEAR(bar["mass"].get<double>(), 10.0 * length[i] * 0.08, 1e-12);
  }
  EXPECT_NEAR(length[0], 0.6, 0.02);
  EXPECT_NEAR(length[1], 2.2, 0.02);
  EXPECT_NEAR(length[2], 1.5, 0.02);
  ASSERT_EQ(json["constraints"].size(), 4u) << json["constraints"].dump(2);
  int toTheWorld = 0, motors = 0;
  for (const Json& joint : json["constraints"]) {
    EXPECT_EQ(joint["type"], "revolute");
    toTheWorld += joint["b"].is_null() ? 1 : 0;
    if (joint.contains("motor_speed")) {
      ++motors;
      EXPECT_EQ(joint["a"], "bar1");
      EXPECT_TRUE(joint["b"].is_null());
      EXPECT_EQ(joint["motor_speed"].get<double>(), std::numbers::pi);
      EXPECT_EQ(joint["max_motor_force"].get<double>(), 50.0);
    }
  }
  EXPECT_EQ(toTheWorld, 2);
  EXPECT_EQ(motors, 1);
  EXPECT_EQ(json["settings"]["formulation"], "velocity");

  // It ran for 2 s: the motor brought the crank up to its speed and turned it about once (from
  // the angle it was drawn at, 60°).
  Scene scene = loadScene(dump);
  Model& model = scene.model;
  const BodyId crank = *model.findBody("bar1"), coupler = *model.findBody("bar2"), rocker = *model.findBody("bar3");
  EXPECT_NEAR(model.v()[model.offsetOf(crank) + 2], std::numbers::pi, 1e-6);
  EXPECT_NEAR(model.coordinates(crank)[2] - std::numbers::pi / 3, 2 * std::numbers::pi, 0.15);

  // The coupler curve over the next turn of the crank, against the closed form from the crank's
  // pose: B at the crank's far end, C where the coupler and rocker circles meet (on the side the
  // linkage was built on), the coupler's centre halfway between them.
  const Eigen::Vector2d A = ends(model.coordinates(crank), length[0]).first;
  const Eigen::Vector2d D = ends(model.coordinates(rocker), length[2]).second;
  EXPECT_LT(A.norm(), 0.01);
  EXPECT_LT((D - Eigen::Vector2d(2, 0)).norm(), 0.01);
  const auto [B0, C0] = ends(model.coordinates(coupler), length[1]);
  const Eigen::Vector2d BD0 = D - B0, BC0 = C0 - B0;
  const double branch = BD0.x() * BC0.y() - BD0.y() * BC0.x() > 0 ? 1.0 : -1.0;
  Simulator simulator(model, scene.settings);
  double worst = 0.0, turned = 0.0, lastAngle = model.coordinates(crank)[2];
  while (turned < 2 * std::numbers::pi) {
    simulator.step();
    const auto [a, B] = ends(model.coordinates(crank), length[0]);
    const Eigen::Vector2d C = couplerPin(B, D, length[1], length[2], branch);
    worst = std::max(worst, (model.coordinates(coupler).head<2>() - 0.5 * (B + C)).norm());
    EXPECT_LT((a - A).norm(), 1e-9) << "the crank turns about its ground hinge";
    turned += model.coordinates(crank)[2] - lastAngle;
    lastAngle = model.coordinates(crank)[2];
  }
  EXPECT_LT(worst, 1e-9) << "the coupler's centre against the closed-form four-bar";
}

// The other rigid-body tools and their refusals: a disc; a bar welded to it at its centre; a hinge
// to the world at the bar's far end (clicked twice: joined once); a hinge on empty space (nothing);
// the motor clicked on the weld (refused), then three times on the hinge (on, off, on).
TEST(Studio, DiscWeldAndMotorToolsJoinOnlyWhatTheyShould) {
  const fs::path script = write("disc-weld.json", R"({"events": [
    {"t": 0.0, "tool": "disc"},
    {"t": 0.1, "mouse": [0, 0]}, {"t": 0.2, "press": "left"}, {"t": 0.3, "mouse": [0.5, 0]}, {"t": 0.4, "release": "left"},
    {"t": 0.5, "tool": "bar"},
    {"t": 0.6, "mouse": [0, 0]}, {"t": 0.7, "press": "left"}, {"t": 0.8, "mouse": [1, 0]}, {"t": 0.9, "release": "left"},
    {"t": 1.0, "tool": "weld"}, {"t": 1.1, "click": [0, 0]},
    {"t": 1.2, "tool": "hinge"}, {"t": 1.3, "click": [1, 0]}, {"t": 1.4, "click": [1, 0]}, {"t": 1.5, "click": [-2, 1.5]},
    {"t": 1.6, "tool": "motor"}, {"t": 1.7, "click": [0, 0]},
    {"t": 1.8, "click": [1, 0]}, {"t": 1.9, "click": [1, 0]}, {"t": 2.0, "click": [1, 0]}
  ]})");
  const fs::path dump = scratch("disc-weld-built.json");
  const StudioRun run = runStudio("--script " + script.string() + " --dump-scene " + dump.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  std::ifstream in(dump);
  const Json json = Json::parse(in);
  ASSERT_EQ(json["bodies"].size(), 2u) << json.dump(2);
  const Json& disc = json["bodies"][0];
  EXPECT_EQ(disc["id"], "disc1");
  EXPECT_EQ(disc["shape"]["type"], "circle");
  const double radius = disc["shape"]["radius"].get<double>();
  EXPECT_NEAR(radius, 0.5, 0.01);
  EXPECT_NEAR(disc["mass"].get<double>(), 10.0 * std::numbers::pi * radius * radius, 1e-12);
  EXPECT_EQ(json["bodies"][1]["id"], "bar2");
  ASSERT_EQ(json["constraints"].size(), 2u) << json["constraints"].dump(2);
  const Json& weld = json["constraints"][0];
  EXPECT_EQ(weld["type"], "weld");
  EXPECT_EQ(weld["a"], "bar2") << "the topmost body first";
  EXPECT_EQ(weld["b"], "disc1");
  const Json& hinge = json["constraints"][1];
  EXPECT_EQ(hinge["type"], "revolute");
  EXPECT_EQ(hinge["a"], "bar2");
  EXPECT_TRUE(hinge["b"].is_null());
  EXPECT_TRUE(hinge.contains("motor_speed")) << "on, off and on again";
}

// Rigid bodies are 2D only: in a 3D scene the bar tool says so and adds nothing.
TEST(Studio, RigidBodyToolsRefuseA3DScene) {
  const fs::path scene = write("three-d.json", R"({"dimension": 3, "particles": [{"id": "p", "mass": 1, "position": [0, 0, 0]}]})");
  const fs::path script = write("bar-3d.json", R"({"events": [
    {"t": 0.0, "tool": "bar"},
    {"t": 0.1, "mouse_px": [300, 300]}, {"t": 0.2, "press": "left"}, {"t": 0.3, "mouse_px": [400, 300]},
    {"t": 0.4, "release": "left"}, {"t": 0.5, "tool": "hinge"}, {"t": 0.6, "mouse_px": [300, 300]}
  ]})");
  const fs::path dump = scratch("three-d-after.json");
  const StudioRun run = runStudio(scene.string() + " --script " + script.string() + " --dump-scene " + dump.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_NE(run.errors.find("rigid bodies are 2D only"), std::string::npos) << run.errors;
  EXPECT_EQ(loadScene(dump).model.bodyCount(), 1u);
}

}  // namespace
}  // namespace tinkertoy
