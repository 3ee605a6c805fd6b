// How the Studio sees a 3D model, end to end on a virtual X server: O turns perspective on.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "studio_run.hpp"

namespace tinkertoy {
namespace {

// Four particles at the corners of a 2 m square in the x–z plane, seen from the front (V turns
// the oblique view a 3D model opens in to the front view). Orthographically the back pair hides
// behind the front pair: two dots. With O the eye stands D = 2.5 × 2√2 m from the middle, the
// back pair is drawn (D − 1)/(D + 1) = 0.752 as far from the middle as the front pair, and the
// row through them shows four dots.
TEST(Studio, PerspectiveDrawsTheFarPairCloserTogether) {
  const fs::path scene = write("square.json", R"({"dimension": 3, "gravity": [0, 0, 0], "particles": [
    {"id": "a", "mass": 1, "position": [-1, 0, 1]}, {"id": "b", "mass": 1, "position": [1, 0, 1]},
    {"id": "c", "mass": 1, "position": [-1, 0, -1]}, {"id": "d", "mass": 1, "position": [1, 0, -1]}]})");
  // The middles of the dots (bluish runs, the grid and axes being grey) along the canvas row
  // that holds the most dot pixels, px.
  const auto dots = [&](const std::string& keys) {
    const fs::path script = write("view.json", R"({"events": [)" + keys + "]}");
    const fs::path png = scratch("view.png");
    const StudioRun run = runStudio(scene.string() + " --script " + script.string() + " --frames 20 --screenshot " + png.string());
    EXPECT_EQ(run.status, 0) << run.errors;
    const Screenshot shot(png);
    const auto dot = [](const Eigen::Vector3i& c) { return c.z() - c.x() > 15 && c.x() < 200; };
    constexpr int kCanvasRight = 900, kTop = 140, kBottom = 650;  // below the notifications, above the gizmo
    int best = kTop, most = -1;
    for (int y = kTop; y < kBottom && shot.width > 0; ++y) {
      if (const int n = shot.count(dot, 0, y, kCanvasRight, y + 1); n > most) most = n, best = y;
    }
    std::vector<double> middles;
    for (int x = 0, start = -1; x <= kCanvasRight && shot.width > 0; ++x) {
      const bool ink = x < kCanvasRight && dot(shot.at(x, best));
      if (ink && start < 0) start = x;
      if (!ink && start >= 0) middles.push_back(0.5 * (start + x - 1)), start = -1;
    }
    return middles;
  };
  EXPECT_EQ(dots(R"({"t": 0.05, "key": "v"})").size(), 2u) << "orthographically the back pair hides behind the front";
  const std::vector<double> deep = dots(R"({"t": 0.05, "key": "v"}, {"t": 0.1, "key": "o"})");
  ASSERT_EQ(deep.size(), 4u);
  const double d = 2.5 * std::sqrt(8.0);
  EXPECT_NEAR((deep[2] - deep[1]) / (deep[3] - deep[0]), (d - 1.0) / (d + 1.0), 0.01);
}

}  // namespace
}  // namespace tinkertoy
