// ViewDirection: the orthographic views of a 3D model. Its axes are a rotation (orthonormal,
// right-handed), the named views show the axes the docs promise, toWorld inverts toPicture and
// depth, and orbiting never turns the picture upside down. The sketch of a 3D model goes
// through it and keeps each mark's depth; a 2D model is always drawn as it is.
#include <gtest/gtest.h>

#include <Eigen/LU>

#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/view/sketch.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy {
namespace {

constexpr double kTight = 1e-14;

TEST(ViewDirection, AxesAreARightHandedRotationForAnyAngles) {
  for (const double azimuth : {-3.0, -0.7, 0.0, 0.4, 1.5708, 2.9}) {
    for (const double elevation : {-1.5707963267948966, -0.3, 0.0, 0.6, 1.5707963267948966}) {
      const ViewDirection v{azimuth, elevation};
      Eigen::Matrix3d r;
      r << v.right().transpose(), v.up().transpose(), v.toward().transpose();
      EXPECT_LT((r * r.transpose() - Eigen::Matrix3d::Identity()).norm(), kTight) << azimuth << ", " << elevation;
      EXPECT_NEAR(r.determinant(), 1.0, kTight);
      // The world's y axis never points down the picture.
      EXPECT_GE(v.up().y(), -kTight);
    }
  }
}

TEST(ViewDirection, NamedViewsShowTheDocumentedAxes) {
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX(), y = Eigen::Vector3d::UnitY(), z = Eigen::Vector3d::UnitZ();
  const ViewDirection front = *ViewDirection::named("front"), top = *ViewDirection::named("top"),
                      side = *ViewDirection::named("side");
  // Front: (x, y) as it is, z toward the viewer.
  EXPECT_LT((front.toPicture(Eigen::Vector3d(2, 3, 5)) - Eigen::Vector2d(2, 3)).norm(), kTight);
  EXPECT_NEAR(front.depth(z), 1.0, kTight);
  // Top: x to the right, −z up, y toward the viewer (looking down).
  EXPECT_LT((top.toPicture(x) - Eigen::Vector2d(1, 0)).norm(), kTight);
  EXPECT_LT((top.toPicture(z) - Eigen::Vector2d(0, -1)).norm(), kTight);
  EXPECT_NEAR(top.depth(y), 1.0, kTight);
  // Side: −z to the right, y up, x toward the viewer.
  EXPECT_LT((side.toPicture(z) - Eigen::Vector2d(-1, 0)).norm(), kTight);
  EXPECT_LT((side.toPicture(y) - Eigen::Vector2d(0, 1)).norm(), kTight);
  EXPECT_NEAR(side.depth(x), 1.0, kTight);
  // Oblique sees every axis foreshortened, none end on.
  const ViewDirection oblique = *ViewDirection::named("oblique");
  for (const Eigen::Vector3d& axis : {x, y, z}) {
    const double seen = oblique.toPicture(axis).norm();
    EXPECT_GT(seen, 0.3);
    EXPECT_LT(seen, 1.0);
  }
  EXPECT_FALSE(ViewDirection::named("isometric"));
}

TEST(ViewDirection, ToWorldInvertsPictureAndDepth) {
  const ViewDirection v{0.9, -0.4};
  const Eigen::Vector3d p(0.3, -1.7, 2.2);
  EXPECT_LT((v.toWorld(v.toPicture(p), v.depth(p)) - p).norm(), 1e-14);
  // A 2D point is the 3D point with z = 0.
  EXPECT_LT((v.toPicture(Eigen::Vector2d(0.3, -1.7)) - v.toPicture(Eigen::Vector3d(0.3, -1.7, 0))).norm(), 0.0 + kTight);
}

// Perspective from the front with the eye D = 4 m from the focus f = (1, 1, 0): a point at depth
// d toward the eye is seen magnified by D / (D − d) about f's picture, so a unit square at
// z = 2 is drawn twice as large as at z = 0, and one at z = −4 half as large; the focus plane
// (z = 0) is drawn as the orthographic view draws it.
TEST(ViewDirection, PerspectiveMagnifiesByTheEyesDistanceOverItsDistanceToThePoint) {
  ViewDirection v = ViewDirection::front();
  v.eyeDistance = 4.0;
  v.focus = Eigen::Vector3d(1, 1, 0);
  ASSERT_TRUE(v.perspective());
  const Eigen::Vector2d focus(1, 1);
  EXPECT_LT((v.toPicture(Eigen::Vector3d(3, 0, 0)) - Eigen::Vector2d(3, 0)).norm(), kTight);
  EXPECT_LT((v.toPicture(Eigen::Vector3d(2, 1, 2)) - (focus + Eigen::Vector2d(2, 0))).norm(), kTight);
  EXPECT_LT((v.toPicture(Eigen::Vector3d(1, 2, -4)) - (focus + Eigen::Vector2d(0, 0.5))).norm(), kTight);
  EXPECT_DOUBLE_EQ(v.depth(Eigen::Vector3d(1, 2, -4)), -4.0) << "the depth stays the orthographic one";
  // A point at or behind the eye is drawn at most 10 times as large, never at infinity.
  EXPECT_LT((v.toPicture(Eigen::Vector3d(2, 1, 9)) - (focus + Eigen::Vector2d(10, 0))).norm(), 1e-12);
  // toWorld inverts it in any direction, and an eye distance of 0 is the orthographic view.
  for (const ViewDirection& turned : {ViewDirection{0.9, -0.4, 3.0, Eigen::Vector3d(0.2, -0.5, 1.0)},
                                      ViewDirection{-2.0, 1.1, 0.0, Eigen::Vector3d(5, 5, 5)}}) {
    const Eigen::Vector3d p(0.3, -1.7, 2.2);
    EXPECT_LT((turned.toWorld(turned.toPicture(p), turned.depth(p)) - p).norm(), 1e-13);
  }
  const ViewDirection flat{-2.0, 1.1, 0.0, Eigen::Vector3d(5, 5, 5)}, plain{-2.0, 1.1};
  EXPECT_LT((flat.toPicture(Eigen::Vector3d(0.3, -1.7, 2.2)) - plain.toPicture(Eigen::Vector3d(0.3, -1.7, 2.2))).norm(),
            kTight);
}

TEST(ViewDirection, OrbitWrapsTheAzimuthAndStopsTheElevationAtTheTop) {
  ViewDirection v{3.0, 1.4};
  v.orbit(0.5, 0.5);
  EXPECT_NEAR(v.azimuth, 3.5 - 2.0 * std::numbers::pi, kTight);
  EXPECT_DOUBLE_EQ(v.elevation, 0.5 * std::numbers::pi);
  v.orbit(0.0, -4.0);
  EXPECT_DOUBLE_EQ(v.elevation, -0.5 * std::numbers::pi);
}

const char* kTwoDepths = R"({"dimension": 3, "gravity": [0, 0, 0],
  "particles": [{"id": "back", "mass": 1, "position": [0, 0, -1]}, {"id": "front", "mass": 1, "position": [0, 0, 1]}],
  "constraints": [{"type": "distance", "a": "back", "b": "front"}, {"type": "fixed", "particle": "front"}]})";

TEST(Sketch, A3DModelIsSeenThroughTheViewWithItsDepths) {
  const Scene scene = parseScene(kTwoDepths);
  const ViewDirection side = ViewDirection::side();
  const Sketch picture = sketch(scene.model, nullptr, {.view = side});
  ASSERT_EQ(picture.dots.size(), 2u);
  // From the side (looking along −x) z runs to the left: back at +1, front at −1.
  EXPECT_LT((picture.dots[0].at - Eigen::Vector2d(1, 0)).norm(), kTight);
  EXPECT_LT((picture.dots[1].at - Eigen::Vector2d(-1, 0)).norm(), kTight);
  EXPECT_NEAR(picture.dots[0].depth, 0.0, kTight);
  // From the front the back particle is 2 m behind the front one, the rod halfway.
  const Sketch fromFront = sketch(scene.model, nullptr, {});
  EXPECT_DOUBLE_EQ(fromFront.dots[0].depth, -1.0);
  EXPECT_DOUBLE_EQ(fromFront.dots[1].depth, 1.0);
  EXPECT_DOUBLE_EQ(fromFront.links[0].depth, 0.0);
  EXPECT_DOUBLE_EQ(fromFront.pins[0].depth, 1.0);
  const DepthRange range = fromFront.depths();
  EXPECT_DOUBLE_EQ(range.fade(1.0), 0.0);
  EXPECT_DOUBLE_EQ(range.fade(-1.0), 1.0);
  EXPECT_DOUBLE_EQ(range.fade(0.0), 0.5);
}

TEST(Sketch, BackToFrontOrdersByDepthThenLinksPinsDots) {
  const Scene scene = parseScene(kTwoDepths);
  const Sketch picture = sketch(scene.model, nullptr, {});
  std::vector<std::pair<SketchMark::Kind, std::size_t>> order;
  for (const SketchMark& m : picture.backToFront()) order.emplace_back(m.kind, m.index);
  using K = SketchMark::Kind;
  // Back dot (−1), the rod (0), then at +1 the pin before the front dot.
  const std::vector<std::pair<K, std::size_t>> expected{{K::Dot, 0}, {K::Link, 0}, {K::Pin, 0}, {K::Dot, 1}};
  EXPECT_EQ(order, expected);
  // Seen from behind (azimuth 180°) the order turns round.
  const Sketch behind = sketch(scene.model, nullptr, {.view = {std::numbers::pi, 0.0}});
  EXPECT_EQ(behind.backToFront().front().kind, K::Pin);
  EXPECT_EQ(behind.backToFront().back().index, 0u);
}

TEST(Sketch, A2DModelIgnoresTheViewAndAFlatPictureHasNoFade) {
  const Scene scene = parseScene(R"({"particles": [{"id": "a", "mass": 1, "position": [0.5, 2]}],
    "constraints": [{"type": "line", "particle": "a", "point": [0, 2], "direction": [1, 0]}]})");
  const Sketch picture = sketch(scene.model, nullptr, {.view = ViewDirection::top()});
  EXPECT_EQ(picture.dots[0].at, Eigen::Vector2d(0.5, 2));
  EXPECT_EQ(picture.lines.size(), 1u);
  EXPECT_DOUBLE_EQ(picture.depths().fade(0.0), 0.0);
}

TEST(Sketch, AWireSeenEndOnIsLeftOut) {
  const Scene scene = parseScene(R"({"dimension": 3, "particles": [{"id": "a", "mass": 1, "position": [0, 0, 1]}],
    "constraints": [{"type": "line", "particle": "a", "point": [0, 0, 0], "direction": [0, 0, 1]}]})");
  EXPECT_EQ(sketch(scene.model, nullptr, {.view = ViewDirection::front()}).lines.size(), 0u);
  EXPECT_EQ(sketch(scene.model, nullptr, {.view = ViewDirection::top()}).lines.size(), 1u);
}

}  // namespace
}  // namespace tinkertoy
