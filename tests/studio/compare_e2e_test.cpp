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
TEST(Studio, CompareModeDrawsASecondRunAsAGhost) {
  const std::string scene = std::string(TINKERTOY_SOURCE_DIR) + "/scenes/double_pendulum.json";
  const Camera canvas = studio::layout::newCanvasCamera({kWidth, kHeight});
  const auto ghostPixels = [&](const fs::path& png) {
    const Eigen::Vector3i ghost(237, 166, 100);  // colours::kGhost at its opacity over the background
    return Screenshot(png).count([&](const Eigen::Vector3i& c) { return (c - ghost).cwiseAbs().maxCoeff() <= 6; },
                                 static_cast<int>(canvas.offset.x()), static_cast<int>(canvas.offset.y()) + 70,
                                 static_cast<int>(canvas.offset.x() + canvas.viewport.x()),
                                 static_cast<int>(canvas.offset.y() + canvas.viewport.y()));
  };
  const fs::path with = scratch("compare.png"), without = scratch("alone.png"), bad = scratch("badflags.png");
  StudioRun run = runStudio(scene + " --compare '--integrator euler --no-project' --frames 120 --screenshot " + with.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_GT(ghostPixels(with), 200);
  run = runStudio(scene + " --frames 120 --screenshot " + without.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_EQ(ghostPixels(without), 0);
  run = runStudio(scene + " --compare '--dt -1' --frames 3 --screenshot " + bad.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_NE(run.errors.find("--ghost '--dt -1': --dt: must be positive"), std::string::npos) << run.errors;
  EXPECT_EQ(ghostPixels(bad), 0);
}

}  // namespace
}  // namespace tinkertoy
