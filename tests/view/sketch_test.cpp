// The view module: the camera's map and its inverse, framing, and the sketch of a model —
// each kind of item becomes the primitive that shows it, rods carry λ with its sign.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/view/camera.hpp"
#include "tinkertoy/view/sketch.hpp"

namespace tinkertoy {
namespace {

TEST(Camera, MapsWorldToPixelsAndBack) {
  const Camera camera{.center = {1.0, 2.0}, .scale = 50.0, .viewport = {800, 600}, .offset = {10, 20}};
  EXPECT_TRUE(camera.toPixels({1.0, 2.0}).isApprox(Eigen::Vector2d(410, 320)));
  EXPECT_TRUE(camera.toPixels({2.0, 3.0}).isApprox(Eigen::Vector2d(460, 270)));  // y up on screen
  const Eigen::Vector2d p(-3.25, 7.5);
  EXPECT_LT((camera.toWorld(camera.toPixels(p)) - p).norm(), 1e-12);
}

TEST(Camera, ZoomKeepsThePointUnderThePointer) {
  Camera camera{.center = {0.0, 0.0}, .scale = 100.0};
  const Eigen::Vector2d pixel(123, 456), before = camera.toWorld(pixel);
  camera.zoomAbout(pixel, 1.7);
  EXPECT_DOUBLE_EQ(camera.scale, 170.0);
  EXPECT_LT((camera.toWorld(pixel) - before).norm(), 1e-12);
}

TEST(Camera, FrameShowsTheBoundsWithTheMargin) {
  Bounds bounds;
  bounds.add({-1.0, 0.0});
  bounds.add({3.0, 1.0});
  const Camera camera = Camera::frame(bounds, {1000, 500}, 0.1);
  // 4 m wide into 800 px, 1 m high into 400 px: width decides.
  EXPECT_DOUBLE_EQ(camera.scale, 200.0);
  EXPECT_TRUE(camera.toPixels({-1.0, 0.5}).isApprox(Eigen::Vector2d(100, 250)));
  EXPECT_TRUE(camera.toPixels({3.0, 0.5}).isApprox(Eigen::Vector2d(900, 250)));
  // An empty model gets a 1 m view rather than a division by zero.
  EXPECT_TRUE(std::isfinite(Camera::frame(Bounds{}, {100, 100}, 0.1).scale));
}

TEST(Sketch, HangingMassPullsItsRodInTension) {
  Scene scene = parseScene(R"({
    "particles": [{"id": "top", "mass": 1, "position": [0, 0]}, {"id": "bob", "mass": 2, "position": [0, -1]}],
    "forces": [{"type": "spring", "a": "bob", "b": [1, -1], "stiffness": 0}],
    "constraints": [{"type": "fixed", "particle": "top"}, {"type": "distance", "a": "top", "b": "bob"},
                    {"type": "circle", "particle": "bob", "center": [1, -1], "radius": 1}]})");
  Simulator simulator(scene.model, {.dt = 1e-3, .solver = {.kind = SolverKind::ConjugateGradient}});
  simulator.step();
  const Sketch picture = sketch(scene.model, &simulator, {.constraintForces = true});
  ASSERT_EQ(picture.dots.size(), 2u);
  EXPECT_TRUE(picture.dots[1].at.isApprox(Eigen::Vector2d(0, -1), 1e-6));
  EXPECT_DOUBLE_EQ(picture.dots[1].mass, 2.0);
  ASSERT_EQ(picture.pins.size(), 1u);
  EXPECT_EQ(picture.pins[0].kind, SketchPin::Kind::Nail);
  ASSERT_EQ(picture.links.size(), 1u);
  EXPECT_EQ(picture.links[0].kind, SketchLink::Kind::Rod);
  EXPECT_EQ(std::get<ConstraintId>(picture.links[0].item), scene.model.constraintAt(1));
  ASSERT_EQ(picture.springs.size(), 1u);
  EXPECT_TRUE(picture.springs[0].b.isApprox(Eigen::Vector2d(1, -1)));
  ASSERT_EQ(picture.curves.size(), 1u);  // the wire, a closed circle of radius 1
  EXPECT_TRUE(picture.curves[0].closed);
  for (const Eigen::Vector2d& p : picture.curves[0].points) EXPECT_NEAR((p - Eigen::Vector2d(1, -1)).norm(), 1.0, 1e-12);
  // The wire runs vertically through the bob, so the rod carries its weight: λ is a tension
  // (negative), and the constraint forces on the bob hold it up against 2 kg · 9.81 m/s².
  const double lambda = picture.links[0].value;
  EXPECT_NEAR(lambda, -2.0 * 9.81, 1e-6);
  ASSERT_EQ(picture.arrows.size(), 2u);
  EXPECT_NEAR(picture.arrows[1].force.y(), 2.0 * 9.81, 1e-6);
  const Bounds b = picture.bounds();
  EXPECT_LT((b.min - Eigen::Vector2d(0, -2)).norm(), 1e-9);
  EXPECT_LT((b.max - Eigen::Vector2d(2, 0)).norm(), 1e-9);
  // Without a simulator λ is unknown.
  EXPECT_TRUE(std::isnan(sketch(scene.model).links[0].value));
}

TEST(Sketch, RigidBodiesAreOutlinedAtTheirPoseAndJointsArePins) {
  Scene scene = parseScene(R"({
    "settings": {"formulation": "velocity"},
    "bodies": [
      {"id": "box", "type": "rigid", "mass": 1, "position": [1, 0], "angle": 1.5707963267948966,
       "shape": {"type": "box", "size": [2, 1]}},
      {"id": "wheel", "type": "rigid", "mass": 1, "position": [3, 0], "shape": {"type": "circle", "radius": 0.5}}],
    "constraints": [{"type": "revolute", "a": "box", "b": null, "anchor": [1, 1]},
                    {"type": "prismatic", "a": "wheel", "b": null, "anchor": [3, 0], "axis": [0, 1]},
                    {"type": "revolute", "a": "box", "b": "wheel", "anchor": [1, 0]}]})");
  const Sketch picture = sketch(scene.model);
  ASSERT_EQ(picture.shapes.size(), 2u);
  const SketchShape& box = picture.shapes[0];
  ASSERT_EQ(box.outline.size(), 4u);
  // Turned a quarter: its 2 m side runs along y.
  Bounds outline;
  for (const Eigen::Vector2d& p : box.outline) outline.add(p);
  EXPECT_TRUE(outline.min.isApprox(Eigen::Vector2d(0.5, -1), 1e-12));
  EXPECT_TRUE(outline.max.isApprox(Eigen::Vector2d(1.5, 1), 1e-12));
  EXPECT_EQ(picture.shapes[1].type, Shape::Type::Circle);
  EXPECT_DOUBLE_EQ(picture.shapes[1].radius, 0.5);
  ASSERT_EQ(picture.pins.size(), 3u);
  // A hinge to the world is a ground pivot, drawn as a nail is; one between bodies a hinge.
  EXPECT_EQ(picture.pins[0].kind, SketchPin::Kind::Nail);
  EXPECT_TRUE(picture.pins[0].at.isApprox(Eigen::Vector2d(1, 1), 1e-12));
  EXPECT_EQ(picture.pins[1].kind, SketchPin::Kind::Slider);
  EXPECT_TRUE(picture.pins[1].direction.isApprox(Eigen::Vector2d(0, 1)));
  EXPECT_EQ(picture.pins[2].kind, SketchPin::Kind::Hinge);
  EXPECT_TRUE(picture.dots.empty());  // a rigid body is its shape, not a point mass
}

// A formula row on one point's x and y is a wire, drawn as the curve C = 0 through the point: the
// unit circle whole (every point on it, to the tracer's Newton tolerance), the line y = 0.2 two
// metres either way. A row over two points, or one that moves with t, is not a wire.
TEST(Sketch, AFormulaOnOnePointIsDrawnAsItsWire) {
  Scene scene = parseScene(R"json({
    "particles": [{"id": "p", "mass": 1, "position": [0.6, 0.8]}, {"id": "q", "mass": 1, "position": [3, 0.2]}],
    "constraints": [{"type": "formula", "points": {"p": "p"}, "C": "xp^2 + yp^2 - 1"},
                    {"type": "formula", "points": {"q": "q"}, "C": ["yq - 0.2", "xq - 3 - 0.1*sin(t)"]},
                    {"type": "formula", "points": {"a": "p", "b": "q"}, "C": "hypot(xa - xb, ya - yb) - L",
                     "parameters": {"L": 2.4413111231467406}}]})json");
  const Sketch picture = sketch(scene.model);
  ASSERT_EQ(picture.curves.size(), 2u);
  const SketchCurve& circle = picture.curves[0];
  EXPECT_TRUE(circle.closed);
  EXPECT_EQ(std::get<ConstraintId>(circle.item), scene.model.constraintAt(0));
  double worst = 0.0, turned = 0.0;
  for (std::size_t k = 0; k < circle.points.size(); ++k) {
    const Eigen::Vector2d& a = circle.points[k];
    const Eigen::Vector2d& b = circle.points[(k + 1) % circle.points.size()];
    worst = std::max(worst, std::abs(a.norm() - 1.0));
    turned += std::atan2(a.x() * b.y() - a.y() * b.x(), a.dot(b));
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_NEAR(std::abs(turned), 2 * std::numbers::pi, 1e-9);  // once round
  const SketchCurve& line = picture.curves[1];
  EXPECT_FALSE(line.closed);
  EXPECT_EQ(std::get<ConstraintId>(line.item), scene.model.constraintAt(1));
  for (const Eigen::Vector2d& p : line.points) EXPECT_NEAR(p.y(), 0.2, 1e-12);
  EXPECT_NEAR(std::min(line.points.front().x(), line.points.back().x()), 1.0, 1e-9);
  EXPECT_NEAR(std::max(line.points.front().x(), line.points.back().x()), 5.0, 1e-9);
}

TEST(Sketch, ShowsEveryShippedScene) {
  for (const char* name : {"hybrid", "roller_coaster", "crank", "bridge", "strandbeest", "rope", "formula_gallery"}) {
    SCOPED_TRACE(name);
    Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / (std::string(name) + ".json"));
    Simulator simulator(scene.model, scene.settings);
    simulator.step();
    const Sketch picture = sketch(scene.model, &simulator, {.constraintForces = true});
    const Bounds b = picture.bounds();
    ASSERT_FALSE(b.empty());
    EXPECT_TRUE(b.min.allFinite() && b.max.allFinite());
    std::size_t items = picture.dots.size() + picture.shapes.size();
    EXPECT_GE(items, scene.model.bodyCount());
  }
}

}  // namespace
}  // namespace tinkertoy
