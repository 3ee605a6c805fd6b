// The capsule shape (core/shape.hpp): its moment of inertia against a numerical integration over
// its area, its collision shape, and its scene form read and written back.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "tinkertoy/collision/collide.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

// ∫ (x² + y²) dA / A over the stadium, by the midpoint rule on a fine grid: the inertia of 1 kg.
double integratedUnitInertia(double length, double radius) {
  const int nx = 3000, ny = 1200;
  const double half = 0.5 * length, width = length + 2.0 * radius, height = 2.0 * radius;
  double moment = 0.0, area = 0.0;
  const double cell = (width / nx) * (height / ny);
  for (int i = 0; i < nx; ++i) {
    const double x = -half - radius + (i + 0.5) * width / nx;
    const double dx = std::max(0.0, std::abs(x) - half);  // beyond the segment's end
    for (int j = 0; j < ny; ++j) {
      const double y = -radius + (j + 0.5) * height / ny;
      if (dx * dx + y * y > radius * radius) continue;
      moment += (x * x + y * y) * cell;
      area += cell;
    }
  }
  return moment / area;
}

TEST(Capsule, InertiaMatchesTheIntegralOverItsArea) {
  for (const auto& [length, radius] : {std::pair{1.0, 0.1}, std::pair{0.4, 0.3}, std::pair{2.0, 0.5}}) {
    const double closed = Shape::capsule(length, radius).inertia(1.0);
    EXPECT_NEAR(closed, integratedUnitInertia(length, radius), 2e-4 * closed) << length << " × " << radius;
  }
  // Its limits: a short capsule is nearly a circle, a thin one nearly a rod of its whole length.
  EXPECT_NEAR(Shape::capsule(1e-9, 0.5).inertia(2.0), Shape::circle(0.5).inertia(2.0), 1e-9);
  EXPECT_NEAR(Shape::capsule(1.0, 1e-6).inertia(3.0), 3.0 * 1.0 / 12.0, 1e-5);
}

TEST(Capsule, RefusesWhatIsNoCapsule) {
  EXPECT_THROW((void)Shape::capsule(0.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)Shape::capsule(1.0, -0.1), std::invalid_argument);
  EXPECT_THROW((void)Shape::capsule(NAN, 0.1), std::invalid_argument);
  EXPECT_EQ(Shape::capsule(1.0, 0.1).name(), "capsule");
  EXPECT_TRUE(Shape::capsule(1.0, 0.1).vertices().empty());
}

// A capsule body lying on a box, 1 cm deep: two points at its segment's ends.
TEST(Capsule, ItsCollisionShapeIsTheRoundedSegment) {
  const Convex capsule = convexOf(Shape::capsule(1.2, 0.1));
  ASSERT_EQ(capsule.count, 2);
  EXPECT_EQ(capsule.radius, 0.1);
  const Manifold m = collide(convexOf(Shape::box(4, 1)), Placement::of(0, -0.5, 0), capsule, Placement::of(0.2, 0.09, 0), 0.0);
  ASSERT_EQ(m.count, 2);
  for (int k = 0; k < 2; ++k) EXPECT_NEAR(m.points[k].separation, -0.01, 1e-12);
  EXPECT_NEAR(std::abs(m.points[0].point.x() - m.points[1].point.x()), 1.2, 1e-12);
}

TEST(Capsule, AScenesCapsuleIsReadAndWrittenBack) {
  const std::string text = R"({"dimension": 2, "settings": {"formulation": "velocity"}, "bodies": [
      {"id": "rod", "type": "rigid", "mass": 2, "position": [0, 1], "angle": 0.3,
       "shape": {"type": "capsule", "length": 0.8, "radius": 0.05}}]})";
  const Scene scene = parseScene(text);
  const Body& rod = scene.model.body(*scene.model.findBody("rod"));
  EXPECT_DOUBLE_EQ(rod.totalMass(), 2.0);
  const auto settings = std::get<RigidBodySettings>(rod.settings());
  EXPECT_EQ(settings.shape.type(), Shape::Type::Capsule);
  EXPECT_EQ(settings.shape.length(), 0.8);
  EXPECT_EQ(settings.shape.radius(), 0.05);
  EXPECT_FALSE(settings.inertia.has_value()) << "the inertia is the capsule's";
  const std::string written = writeScene(scene);
  EXPECT_NE(written.find(R"("type": "capsule")"), std::string::npos) << written;
  EXPECT_EQ(writeScene(parseScene(written)), written);
}

}  // namespace
}  // namespace tinkertoy
