// Tinkertoy Studio's compare mode end to end, on a virtual X server: the scene run a second time
// under other settings flags is drawn over the first as a ghost.
#include <gtest/gtest.h>

#include <string>

#include "layout.hpp"
#include "studio_run.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

// Compare mode: the scene runs a second time under other flags and is drawn over the first as
// an orange ghost (here explicit Euler without projection, whose rods stretch); bad flags are
// said, and no ghost is drawn.
// The canvas pixels in the ghost's colour (colours::kGhost at its opacity over the background),
// below the notifications.
int ghostPixels(const fs::path& png) {
  const Camera canvas = studio::layout::newCanvasCamera({kWidth, kHeight});
  const Eigen::Vector3i ghost(237, 166, 100);
  return Screenshot(png).count([&](const Eigen::Vector3i& c) { return (c - ghost).cwiseAbs().maxCoeff() <= 6; },
                               static_cast<int>(canvas.offset.x()), static_cast<int>(canvas.offset.y()) + 70,
                               static_cast<int>(canvas.offset.x() + canvas.viewport.x()),
                               static_cast<int>(canvas.offset.y() + canvas.viewport.y()));
}

TEST(Studio, CompareModeDrawsASecondRunAsAGhost) {
  const std::string scene = std::string(TINKERTOY_SOURCE_DIR) + "/scenes/double_pendulum.json";
  const fs::path with = scratch("compare.png"), without = scratch("alone.png"), bad = scratch("badflags.png");
  StudioRun run = runStudio(scene + " --compare '--integrator euler --no-project' --frames 120 --screenshot " + with.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_GT(ghostPixels(with), 200);
  run = runStudio(scene + " --frames 120 --screenshot " + without.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_EQ(ghostPixels(without), 0);
  const fs::path spring = scratch("spring.png");  // the second rod a 200 N/m spring: the ghost sags away
  run = runStudio(scene + " --compare '--spring-for constraints[1] --spring-stiffness 200' --frames 120 --screenshot " +
                  spring.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_GT(ghostPixels(spring), 200);
  run = runStudio(scene + " --compare '--spring-for rod9 --spring-stiffness 200' --frames 3");
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_NE(run.errors.find("--spring-for 'rod9': the scene has no constraint of that name"), std::string::npos)
      << run.errors;
  run = runStudio(scene + " --compare '--dt -1' --frames 3 --screenshot " + bad.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_NE(run.errors.find("--ghost '--dt -1': --dt: must be positive"), std::string::npos) << run.errors;
  EXPECT_EQ(ghostPixels(bad), 0);
}

// A teacher's "goopy spring against a rigid rod": click the rod, then the inspector's button
// (at its place in the default window), and play. The ghost swings with the rod a spring.
TEST(Studio, TheInspectorComparesARodWithASpringInItsPlace) {
  const std::string scene = std::string(TINKERTOY_SOURCE_DIR) + "/scenes/double_pendulum.json";
  const fs::path script = write("spring-for-rod.json", R"({"events": [{"t": 0.1, "tool": "drag"},
    {"t": 0.2, "click": [1.5, 0.0]}, {"t": 0.4, "mouse_px": [1029, 285]}, {"t": 0.45, "press": "left"},
    {"t": 0.5, "release": "left"}, {"t": 0.6, "key": "space"}]})");
  const fs::path png = scratch("spring-for-rod.png");
  const StudioRun run = runStudio(scene + " --script " + script.string() + " --frames 150 --screenshot " + png.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_GT(ghostPixels(png), 200) << "no ghost: did the button move? " << run.errors;
}

}  // namespace
}  // namespace tinkertoy
