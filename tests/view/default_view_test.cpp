// A 3D model is first seen across the points it is held at: the cloth, pinned by two opposite
// corners, used to be seen along that diagonal, hanging as a narrow wedge. A 2D model is seen
// from the front, and a model held at fewer than two points from the usual oblique quarter.
#include <gtest/gtest.h>

#include <filesystem>

#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/core/point.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/view/bounds.hpp"
#include "tinkertoy/view/default_view.hpp"

namespace tinkertoy {
namespace {

Scene shipped(const char* name) {
  return loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / (std::string(name) + ".json"));
}

TEST(DefaultView, TheClothIsSeenAcrossItsPinnedCorners) {
  Scene cloth = shipped("cloth");
  const ViewDirection view = defaultView(cloth.model);
  EXPECT_EQ(view.elevation, ViewDirection::oblique().elevation);
  // The two pinned corners, and the picture's horizontal axis nearly along the line between them.
  std::vector<Eigen::Vector3d> pins;
  for (std::size_t k = 0; k < cloth.model.constraintCount(); ++k) {
    const auto ends = cloth.model.constraint(cloth.model.constraintAt(k)).points();
    if (ends.size() == 1) pins.push_back(padTo3d(cloth.model.position(ends[0])));
  }
  ASSERT_EQ(pins.size(), 2u);
  const Eigen::Vector3d between = (pins[1] - pins[0]).normalized();
  EXPECT_GT(std::abs(view.right().dot(between)), 0.9) << "azimuth " << view.azimuth / ViewDirection::kDegree << "°";
  EXPECT_LT(std::abs(ViewDirection::oblique().right().dot(between)), 0.5) << "the usual quarter looks along them";
  // At 1.5 s the sagging cloth hangs across the picture, wider than high; from the usual quarter
  // it was a wedge, higher than wide.
  Simulator sim(cloth.model, cloth.settings);
  while (cloth.model.time() < 1.5) sim.step();
  const auto aspect = [&](const ViewDirection& v) {
    Bounds bounds;
    for (std::size_t b = 0; b < cloth.model.bodyCount(); ++b) bounds.add(v.toPicture(cloth.model.position(cloth.model.bodyAt(b))));
    return bounds.size().x() / bounds.size().y();
  };
  EXPECT_GT(aspect(view), 1.5);
  EXPECT_LT(aspect(ViewDirection::oblique()), 1.2);
}

TEST(DefaultView, A2DModelIsSeenFromTheFrontAndASymmetricOneObliquely) {
  const Scene pendulum = shipped("pendulum");
  const ViewDirection front = defaultView(pendulum.model);
  EXPECT_EQ(front.azimuth, 0.0);
  EXPECT_EQ(front.elevation, 0.0);
  Model ball(3);  // held nowhere: the usual quarter
  ball.addParticle(1.0, Eigen::Vector3d(1.0, 2.0, 3.0));
  EXPECT_EQ(defaultView(ball).azimuth, ViewDirection::oblique().azimuth);
}

}  // namespace
}  // namespace tinkertoy

namespace tinkertoy {
namespace {

// In perspective, the cloth's focus is the middle of its box and the eye 2.5 model sizes away,
// so its nearest corner is drawn larger than its farthest and the middle as it was.
TEST(DefaultView, PerspectiveFocusesOnTheModelsMiddle) {
  Scene cloth = shipped("cloth");
  const ViewDirection flat = defaultView(cloth.model), deep = inPerspective(flat, cloth.model);
  const auto [low, high] = cloth.model.boundingBox();
  EXPECT_LT((deep.focus - 0.5 * (low + high)).norm(), 1e-15);
  EXPECT_DOUBLE_EQ(deep.eyeDistance, kPerspectiveDistance * cloth.model.size());
  EXPECT_LT((deep.toPicture(deep.focus) - flat.toPicture(deep.focus)).norm(), 1e-14);
  // The points nearest and farthest from the eye: magnified and shrunk about the focus.
  const auto [nearest, farthest] = [&] {
    Eigen::Vector3d n = deep.focus, f = deep.focus;
    for (std::size_t b = 0; b < cloth.model.bodyCount(); ++b) {
      const Eigen::Vector3d x = padTo3d(cloth.model.position({cloth.model.bodyAt(b), 0}));
      if (deep.depth(x) > deep.depth(n)) n = x;
      if (deep.depth(x) < deep.depth(f)) f = x;
    }
    return std::pair(n, f);
  }();
  const auto spread = [&](const ViewDirection& v, const Eigen::Vector3d& x) {
    return (v.toPicture(x) - v.toPicture(deep.focus)).norm();
  };
  EXPECT_GT(spread(deep, nearest), 1.05 * spread(flat, nearest));
  EXPECT_LT(spread(deep, farthest), 0.95 * spread(flat, farthest));
}

}  // namespace
}  // namespace tinkertoy
