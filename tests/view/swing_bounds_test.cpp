// What the Studio frames on open, with F and on Reset: a shipped scene that swings about its
// pins stays inside the picture of its start plus its swing circles (rigid pendulums and
// mechanisms used to run off-screen: hinges and rigid outlines were ignored), and each nail's
// circle reaches only as far as what hangs from it (each used to reach the farthest particle of
// the whole model).
#include <gtest/gtest.h>

#include <filesystem>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/view/sketch.hpp"
#include "tinkertoy/view/swing_bounds.hpp"

namespace tinkertoy {
namespace {

TEST(SwingBounds, AShippedSceneStaysInsideItsFramingWhileItPlays) {
  // Not the formula gallery, whose free bodies swing about no pin.
  for (const char* name :
       {"pendulum", "double_pendulum", "rigid_pendulum", "four_bar", "chain_of_boxes", "strandbeest", "slider_crank"}) {
    SCOPED_TRACE(name);
    Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / (std::string(name) + ".json"));
    const Sketch start = sketch(scene.model, nullptr, {});
    Bounds framed = start.bounds();
    framed.add(swingBounds(scene.model, start));
    const double slack = 1e-6 * framed.size().norm();
    framed.min.array() -= slack;
    framed.max.array() += slack;
    Simulator simulator(scene.model, scene.settings);
    const double end = std::min(scene.duration, 4.0);
    while (scene.model.time() < end) {
      simulator.step();
      const Bounds now = sketch(scene.model, &simulator, {}).bounds();
      ASSERT_TRUE(framed.contains(now.min) && framed.contains(now.max))
          << "at t = " << scene.model.time() << " the model spans " << now.min.transpose() << " to "
          << now.max.transpose() << ", outside " << framed.min.transpose() << " to " << framed.max.transpose();
    }
  }
}

TEST(SwingBounds, EachNailsCircleReachesWhatHangsFromIt) {
  Model model(2);
  const BodyId near = model.addParticle(1.0, Eigen::Vector2d(0.0, -1.0));
  const BodyId far = model.addParticle(1.0, Eigen::Vector2d(10.0, -1.0));
  model.addConstraint(std::make_unique<DistanceConstraint>(near, Eigen::Vector2d(0, 0), 1.0));
  model.addConstraint(std::make_unique<DistanceConstraint>(far, Eigen::Vector2d(10, 0), 1.0));
  const Bounds swing = swingBounds(model, sketch(model, nullptr, {}));
  EXPECT_NEAR(swing.min.x(), -1.0, 1e-12);
  EXPECT_NEAR(swing.max.x(), 11.0, 1e-12);
  EXPECT_NEAR(swing.min.y(), -1.0, 1e-12);
  EXPECT_NEAR(swing.max.y(), 1.0, 1e-12);
}

}  // namespace
}  // namespace tinkertoy
