// Tinkertoy Studio's Drag tool end to end, on a virtual X server: what a press and a drag do to
// the model, paused and running.
#include <gtest/gtest.h>

#include <string>

#include "layout.hpp"
#include "studio_run.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

// Paused, dragging a pendulum's bob moves it along its rod's circle (it used to leave the rod
// 0.64 m off until Play snapped it back): the bob ends on the circle, toward the pointer.
TEST(Studio, APausedDragKeepsTheConstraints) {
  const fs::path scene = write("bob.json", R"({"particles": [{"id": "bob", "mass": 1, "position": [0, -1]}],
    "constraints": [{"type": "distance", "a": "bob", "b": [0, 0]}]})");
  const fs::path script = write("pull.json", R"({"events": [
    {"t": 0.1, "mouse": [0, -1]}, {"t": 0.15, "press": "left"},
    {"t": 0.3, "mouse": [0.3, -0.8]}, {"t": 0.5, "mouse": [0.6, -0.2]},
    {"t": 0.7, "release": "left"}, {"t": 0.8, "mouse": [2, 2]}]})");
  const fs::path dump = scratch("pulled.json");
  const StudioRun run = runStudio(scene.string() + " --script " + script.string() + " --dump-scene " + dump.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  const Scene after = loadScene(dump);
  const Eigen::Vector2d bob = at(after, "bob");
  EXPECT_NEAR(bob.norm(), 1.0, 1e-9) << bob.transpose();
  EXPECT_LT((bob - Eigen::Vector2d(0.6, -0.2).normalized()).norm(), 0.05) << bob.transpose();
}

// A press where a fast body was a moment ago grabs it (it used to pan the view): a particle
// flying at 8 m/s is pressed 0.8 m behind, a tenth of a second late, and pulled up.
TEST(Studio, APressAFastBodyJustLeftGrabsIt) {
  const fs::path scene = write("fast.json", R"({"gravity": [0, 0],
    "particles": [{"id": "p", "mass": 1, "position": [-4, 0], "velocity": [8, 0]},
                  {"id": "far", "mass": 1, "position": [6, 3]}]})");
  const fs::path script = write("late.json", R"({"events": [{"t": 0.1, "key": "space"},
    {"t": 0.6, "mouse": [-0.8, 0]}, {"t": 0.6, "press": "left"},
    {"t": 0.7, "mouse": [0, 2]}, {"t": 1.2, "mouse": [0, 2]}, {"t": 1.25, "release": "left"},
    {"t": 1.3, "key": "space"}]})");
  const fs::path dump = scratch("grabbed.json");
  const StudioRun run = runStudio(scene.string() + " --script " + script.string() + " --dump-scene " + dump.string());
  ASSERT_EQ(run.status, 0) << run.errors;
  EXPECT_GT(at(loadScene(dump), "p").y(), 0.3) << "the press missed the particle and panned instead";
}

}  // namespace
}  // namespace tinkertoy
