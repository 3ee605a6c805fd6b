// The narrowphase (collision/collide.hpp) against closed forms, and against a brute-force
// reference on thousands of random pairs: the signed distance of two convex shapes is that of the
// origin to the boundary of their cores' Minkowski difference (a convex hull of all the vertex
// differences), minus their radii.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "support/convex_hull.hpp"
#include "tinkertoy/collision/collide.hpp"

namespace tinkertoy {
namespace {

constexpr double kTight = 1e-12;

Convex box(double width, double height) { return convexOf(Shape::box(width, height)); }

// The manifold's points sorted along x, for comparing with a closed form.
std::vector<ContactPoint> byX(const Manifold& m) {
  std::vector<ContactPoint> points(m.points.begin(), m.points.begin() + m.count);
  std::sort(points.begin(), points.end(), [](const auto& p, const auto& q) { return p.point.x() < q.point.x(); });
  return points;
}

TEST(Narrowphase, TwoCircles) {
  const Convex a = convexCircle(Eigen::Vector2d::Zero(), 0.5), b = convexCircle(Eigen::Vector2d::Zero(), 0.3);
  const Manifold m = collide(a, Placement::of(0, 0, 0), b, Placement::of(0.7, 0, 1.0), 0.0);
  ASSERT_EQ(m.count, 1);
  EXPECT_NEAR((m.normal - Eigen::Vector2d(1, 0)).norm(), 0.0, kTight);
  EXPECT_NEAR(m.points[0].separation, -0.1, kTight);
  EXPECT_NEAR((m.points[0].point - Eigen::Vector2d(0.45, 0)).norm(), 0.0, kTight);
  EXPECT_EQ(collide(a, Placement::of(0, 0, 0), b, Placement::of(0.9, 0, 0), 0.05).count, 0);  // a gap of 0.1
  const Manifold near = collide(a, Placement::of(0, 0, 0), b, Placement::of(0, 0.9, 0), 0.2);
  ASSERT_EQ(near.count, 1);
  EXPECT_NEAR(near.points[0].separation, 0.1, kTight);
  EXPECT_NEAR((near.normal - Eigen::Vector2d(0, 1)).norm(), 0.0, kTight);
}

// A unit box sunk 1 cm into the ground: two points at its bottom corners, midway in the overlap.
TEST(Narrowphase, ABoxOnTheGroundTouchesAtItsTwoCorners) {
  const Manifold m = collide(box(4, 1), Placement::of(0, -0.5, 0), box(1, 1), Placement::of(0.3, 0.49, 0), 0.0);
  ASSERT_EQ(m.count, 2);
  EXPECT_NEAR((m.normal - Eigen::Vector2d(0, 1)).norm(), 0.0, kTight);
  const auto points = byX(m);
  for (const auto& [p, x] : {std::pair{points[0], -0.2}, std::pair{points[1], 0.8}}) {
    EXPECT_NEAR(p.separation, -0.01, kTight);
    EXPECT_NEAR((p.point - Eigen::Vector2d(x, -0.005)).norm(), 0.0, kTight);
  }
  EXPECT_NE(points[0].id, points[1].id);
  // The same pair a little apart: both points kept while the gap is within the speculative distance.
  const Manifold apart = collide(box(4, 1), Placement::of(0, -0.5, 0), box(1, 1), Placement::of(0.3, 0.52, 0), 0.05);
  ASSERT_EQ(apart.count, 2);
  for (const ContactPoint& p : byX(apart)) EXPECT_NEAR(p.separation, 0.02, kTight);
  EXPECT_EQ(collide(box(4, 1), Placement::of(0, -0.5, 0), box(1, 1), Placement::of(0.3, 0.52, 0), 0.01).count, 0);
}

// An equal box right above another, its edges in line with the other's, 2 cm apart (a review
// found it given one point at a corner pair, the closest points of two parallel edges not being
// unique): two points, the faces' corners, 2 cm apart; and the same box far from the origin.
TEST(Narrowphase, AnEqualBoxRightAboveAnotherHasTwoPoints) {
  for (const double x : {0.0, 100.0}) {
    const Manifold m = collide(box(1, 1), Placement::of(x, 0.5, 0), box(1, 1), Placement::of(x, 1.52, 0), 0.05);
    ASSERT_EQ(m.count, 2) << "at x = " << x;
    EXPECT_NEAR((m.normal - Eigen::Vector2d(0, 1)).norm(), 0.0, kTight);
    const auto points = byX(m);
    for (const auto& [p, px] : {std::pair{points[0], x - 0.5}, std::pair{points[1], x + 0.5}}) {
      EXPECT_NEAR(p.separation, 0.02, 1e-12);
      EXPECT_NEAR((p.point - Eigen::Vector2d(px, 1.01)).norm(), 0.0, 1e-12);
    }
    EXPECT_NE(points[0].id, points[1].id);
  }
}

// A unit box turned 45° stands on its corner, 2 cm deep: one point, at the corner.
TEST(Narrowphase, ABoxOnItsCornerTouchesAtTheCorner) {
  const double half = std::sqrt(0.5);
  const Manifold m = collide(box(4, 1), Placement::of(0, -0.5, 0), box(1, 1),
                             Placement::of(0.1, half - 0.02, std::numbers::pi / 4), 0.0);
  ASSERT_EQ(m.count, 1);
  EXPECT_NEAR((m.normal - Eigen::Vector2d(0, 1)).norm(), 0.0, 1e-12);
  EXPECT_NEAR(m.points[0].separation, -0.02, 1e-12);
  EXPECT_NEAR((m.points[0].point - Eigen::Vector2d(0.1, -0.01)).norm(), 0.0, 1e-12);
}

// A circle near a box's corner is pushed along the diagonal; near a face, along the face's normal.
// The manifold of (circle, box) is that of (box, circle) with the normal reversed.
TEST(Narrowphase, ACircleAgainstACornerAndAFace) {
  const Convex square = box(1, 1), ball = convexCircle(Eigen::Vector2d::Zero(), 0.2);
  const Manifold corner = collide(square, Placement::of(0, 0, 0), ball, Placement::of(0.6, 0.6, 0), 0.0);
  ASSERT_EQ(corner.count, 1);
  const Eigen::Vector2d diagonal = Eigen::Vector2d(1, 1).normalized();
  EXPECT_NEAR((corner.normal - diagonal).norm(), 0.0, kTight);
  EXPECT_NEAR(corner.points[0].separation, std::sqrt(0.02) - 0.2, kTight);
  const Manifold face = collide(ball, Placement::of(0.6, 0.1, 0), square, Placement::of(0, 0, 0), 0.0);
  ASSERT_EQ(face.count, 1);
  EXPECT_NEAR((face.normal - Eigen::Vector2d(-1, 0)).norm(), 0.0, kTight);
  EXPECT_NEAR(face.points[0].separation, -0.1, kTight);
  EXPECT_NEAR((face.points[0].point - Eigen::Vector2d(0.45, 0.1)).norm(), 0.0, kTight);
  // The center inside the box: pushed out through the nearest face, 0.15 + 0.2 deep.
  const Manifold inside = collide(square, Placement::of(0, 0, 0), ball, Placement::of(0.35, 0.0, 0), 0.0);
  ASSERT_EQ(inside.count, 1);
  EXPECT_NEAR(inside.points[0].separation, -0.35, kTight);
}

// A capsule lying on the ground, 1 cm deep, touches at both ends of its segment; a segment's end
// faces a circle with its cap.
TEST(Narrowphase, CapsulesAndSegments) {
  const Convex rod = convexCapsule(Eigen::Vector2d(-0.5, 0), Eigen::Vector2d(0.5, 0), 0.1);
  const Manifold lying = collide(box(4, 1), Placement::of(0, -0.5, 0), rod, Placement::of(0, 0.09, 0), 0.0);
  ASSERT_EQ(lying.count, 2);
  const auto points = byX(lying);
  EXPECT_NEAR(points[0].separation, -0.01, kTight);
  EXPECT_NEAR(points[1].separation, -0.01, kTight);
  EXPECT_NEAR(points[0].point.x(), -0.5, kTight);
  EXPECT_NEAR(points[1].point.x(), 0.5, kTight);
  const Convex segment = convexCapsule(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0), 0.0);
  const Manifold cap = collide(segment, Placement::of(0, 0, 0), convexCircle(Eigen::Vector2d::Zero(), 0.2),
                               Placement::of(1.3, 0, 0), 0.2);
  ASSERT_EQ(cap.count, 1);
  EXPECT_NEAR(cap.points[0].separation, 0.1, kTight);
  EXPECT_NEAR((cap.normal - Eigen::Vector2d(1, 0)).norm(), 0.0, kTight);
  // A capsule standing on another's middle, their cores 0.15 apart: one point, at the upper one's
  // cap, 0.1 + 0.1 − 0.15 deep.
  const Manifold standing = collide(rod, Placement::of(0, 0, 0), rod, Placement::of(0, 0.65, std::numbers::pi / 2), 0.0);
  ASSERT_EQ(standing.count, 1);
  EXPECT_NEAR(standing.points[0].separation, -0.05, kTight);
  EXPECT_NEAR((standing.normal - Eigen::Vector2d(0, 1)).norm(), 0.0, kTight);
  EXPECT_NEAR((standing.points[0].point - Eigen::Vector2d(0, 0.075)).norm(), 0.0, kTight);
}

// Cases random pairs almost never meet (a review's): cores in line, touching at a shared end, or
// an incident edge along the reference normal. Each has the depth its geometry says.
TEST(Narrowphase, CoresInLineOrTouching) {
  const Convex rod = convexOf(Shape::capsule(1.0, 0.1));
  for (const double angle : {0.0, std::numbers::pi / 6, std::numbers::pi / 2, std::numbers::pi}) {
    // End to end, the cores 0.05 apart along their common line: 0.05 − 0.2 deep.
    const Eigen::Vector2d along(std::cos(angle), std::sin(angle));
    const Manifold m = collide(rod, Placement::of(0, 0, angle), rod, Placement::of(1.05 * along.x(), 1.05 * along.y(), angle), 0.0);
    ASSERT_EQ(m.count, 1) << angle;
    EXPECT_NEAR(m.points[0].separation, -0.15, 1e-12);
    EXPECT_NEAR((m.normal - along).norm(), 0.0, 1e-12);
  }
  // A capsule lying along a box's bottom edge, its core's end at the box's corner: 0.1 deep.
  const Manifold corner = collide(box(1, 1), Placement::of(0, 0, 0), rod, Placement::of(-1.0, -0.5, std::numbers::pi), 0.0);
  ASSERT_GE(corner.count, 1);
  EXPECT_NEAR(corner.points[0].separation, -0.1, 1e-12);
  // Two capsules meeting at a shared end in an L: their cores touch, so the depth is the radii.
  const Manifold l = collide(rod, Placement::of(0, 0, std::numbers::pi / 2), rod, Placement::of(-0.5, 0.5, 0), 0.0);
  ASSERT_EQ(l.count, 1);
  EXPECT_TRUE(l.normal.allFinite() && l.points[0].point.allFinite());
  EXPECT_NEAR(l.normal.norm(), 1.0, 1e-12);
  EXPECT_NEAR(l.points[0].separation, -0.2, 1e-12);
  // A segment along the normal of a rounded triangle's face (a2 − a1 is only round-off): the end
  // inside keeps its depth, 0.15.
  const std::array<Eigen::Vector2d, 3> corners = {Eigen::Vector2d(0, 0), Eigen::Vector2d(0.25, 0), Eigen::Vector2d(0, 0.25)};
  const Convex triangle = convexPolygon(corners.data(), 3, 0.15);
  const Convex segment = convexCapsule(Eigen::Vector2d(-0.5, 0), Eigen::Vector2d(0.25, 0), 0.0);
  const Manifold along = collide(triangle, Placement::of(0, 0, 0), segment, Placement::of(-0.25, 0, 2 * std::numbers::pi), 0.0);
  ASSERT_GE(along.count, 1);
  double least = 1.0;
  for (int k = 0; k < along.count; ++k) least = std::min(least, along.points[k].separation);
  EXPECT_NEAR(least, -0.15, 1e-9);
}

// A box rocking on another by a micro-radian either way swaps which face is the reference; its two
// points keep their ids, so that their warm starts carry over.
TEST(Narrowphase, IdsDoNotDependOnWhichFaceIsTheReference) {
  const auto ids = [](double angle) {
    const Manifold m = collide(box(1, 1), Placement::of(0, 0, 0), box(1, 1), Placement::of(0.3, 0.999, angle), 0.0);
    std::vector<std::uint32_t> out;
    for (int k = 0; k < m.count; ++k) out.push_back(m.points[k].id);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto up = ids(1e-6), down = ids(-1e-6), level = ids(0.0);
  ASSERT_EQ(up.size(), 2u);
  EXPECT_EQ(up, down);
  EXPECT_EQ(up, level);
}

// ---- the brute-force reference ------------------------------------------------------------

double pointToSegment(const Eigen::Vector2d& x, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d d = b - a;
  const double f = d.squaredNorm() > 0 ? std::clamp((x - a).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
  return (x - (a + f * d)).norm();
}

// The signed distance of two shapes: that of the origin from the Minkowski difference of their
// cores (outside: its distance; inside: minus its distance to the boundary), minus the radii.
double signedDistance(const Convex& a, const Placement& xa, const Convex& b, const Placement& xb) {
  std::vector<Eigen::Vector2d> differences;
  for (int i = 0; i < a.count; ++i) {
    for (int j = 0; j < b.count; ++j) differences.push_back(xb.apply(b.vertices[j]) - xa.apply(a.vertices[i]));
  }
  const std::vector<Eigen::Vector2d> h = test_support::convexHull(differences);
  // Inside, the origin's signed distance from the hull is the largest of its signed distances
  // from the edges' lines (all negative); outside, its distance to the nearest edge.
  double boundary = h.size() == 1 ? h[0].norm() : std::numeric_limits<double>::infinity();
  double farthestLine = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < h.size() && h.size() > 1; ++k) {
    const Eigen::Vector2d& p = h[k];
    const Eigen::Vector2d& q = h[(k + 1) % h.size()];
    boundary = std::min(boundary, pointToSegment(Eigen::Vector2d::Zero(), p, q));
    if ((q - p).norm() < 1e-12) continue;
    const Eigen::Vector2d outward = Eigen::Vector2d((q - p).y(), -(q - p).x()).normalized();
    farthestLine = std::max(farthestLine, outward.dot(-p));
  }
  const bool inside = h.size() >= 3 && farthestLine < 0.0;
  return (inside ? farthestLine : boundary) - a.radius - b.radius;
}

Convex randomShape(std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0), size(0.1, 1.0), round(0.0, 0.2);
  std::uniform_int_distribution<int> kind(0, 6), count(3, kMaxConvexVertices);
  switch (kind(rng)) {
    case 6: {  // a sheared box, whose least distance along a normal is taken in closed form
      const double w = size(rng), h = size(rng), shear = unit(rng) * 0.5;
      const std::array<Eigen::Vector2d, 4> corners = {Eigen::Vector2d(-w - shear, -h), Eigen::Vector2d(w - shear, -h),
                                                      Eigen::Vector2d(w + shear, h), Eigen::Vector2d(-w + shear, h)};
      return convexPolygon(corners.data(), 4, kind(rng) < 2 ? round(rng) : 0.0);
    }
    case 0:
      return convexCircle(Eigen::Vector2d(0.1 * unit(rng), 0.1 * unit(rng)), size(rng) * 0.6);
    case 1:
      return convexCapsule(Eigen::Vector2d(-size(rng), 0.1 * unit(rng)), Eigen::Vector2d(size(rng), 0.1 * unit(rng)),
                           round(rng));
    case 2:
      return box(2 * size(rng), 2 * size(rng));
    default: {
      std::vector<Eigen::Vector2d> points;
      const int n = count(rng);
      for (int i = 0; i < n; ++i) points.emplace_back(unit(rng), unit(rng));
      std::vector<Eigen::Vector2d> h = test_support::convexHull(points);
      if (h.size() < 3) return box(1, 1);
      // Rounded in a third of the cases.
      return convexPolygon(h.data(), static_cast<int>(h.size()), kind(rng) < 2 ? round(rng) : 0.0);
    }
  }
}

// The reference itself on a pair with parallel edges (a review found its first version wrong here):
// two boxes turned alike, a corner of one inside the other.
TEST(Narrowphase, TheReferenceHandlesParallelEdges) {
  const Placement xa = Placement::of(0, 0, -std::numbers::pi / 4), xb = Placement::of(-1, 0, -std::numbers::pi / 4);
  const double truth = signedDistance(box(1, 1), xa, box(1, 0.75), xb);
  EXPECT_LT(truth, 0.0);
  const Manifold m = collide(box(1, 1), xa, box(1, 0.75), xb, 0.0);
  ASSERT_GE(m.count, 1);
  double least = 1.0;
  for (int k = 0; k < m.count; ++k) least = std::min(least, m.points[k].separation);
  EXPECT_NEAR(least, truth, 1e-12);
}

TEST(Narrowphase, AgreesWithTheBruteForceDistanceOnRandomPairs) {
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<double> where(-2.0, 2.0), angle(-std::numbers::pi, std::numbers::pi);
  constexpr double speculative = 0.1;
  int touching = 0, apart = 0;
  double worst = 0.0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Convex a = randomShape(rng), b = randomShape(rng);
    const Placement xa = Placement::of(where(rng) * 0.25, where(rng) * 0.25, angle(rng));
    const Placement xb = Placement::of(where(rng), where(rng), angle(rng));
    const double truth = signedDistance(a, xa, b, xb);
    const Manifold m = collide(a, xa, b, xb, speculative);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": counts " + std::to_string(a.count) + ", " +
                 std::to_string(b.count) + ", true distance " + std::to_string(truth));
    if (truth > speculative + 1e-9) {
      EXPECT_EQ(m.count, 0);
      ++apart;
      continue;
    }
    if (truth < speculative - 1e-9) {
      ASSERT_GE(m.count, 1);
      ++touching;
    }
    if (m.count == 0) continue;
    EXPECT_NEAR(m.normal.norm(), 1.0, 1e-12);
    double least = std::numeric_limits<double>::infinity();
    for (int k = 0; k < m.count; ++k) {
      least = std::min(least, m.points[k].separation);
      EXPECT_GE(m.points[k].separation, truth - 1e-9) << "a point deeper than the shapes overlap";
    }
    worst = std::max(worst, std::abs(least - truth));
    EXPECT_NEAR(least, truth, 1e-9);
  }
  EXPECT_GT(touching, 4000);
  EXPECT_GT(apart, 4000);
  RecordProperty("worst", std::to_string(worst));
}

// The configurations random placements miss, on a lattice: positions on a 0.15 m grid and angles
// in quarter turns, where edges run parallel, cores lie in line and corners meet corners.
TEST(Narrowphase, AgreesWithTheBruteForceDistanceOnALattice) {
  const std::array<Eigen::Vector2d, 3> corners = {Eigen::Vector2d(-0.2, -0.2), Eigen::Vector2d(0.4, -0.2),
                                                  Eigen::Vector2d(-0.2, 0.4)};
  // A sheared box, whose least distance along a normal the narrowphase takes in closed form, as a box's.
  const std::array<Eigen::Vector2d, 4> sheared = {Eigen::Vector2d(-0.5, -0.25), Eigen::Vector2d(0.3, -0.25),
                                                  Eigen::Vector2d(0.5, 0.25), Eigen::Vector2d(-0.3, 0.25)};
  const std::vector<Convex> shapes = {box(1, 1), box(1, 0.5), convexPolygon(sheared.data(), 4, 0.02),
                                      convexOf(Shape::capsule(1.0, 0.1)),
                                      convexCapsule(Eigen::Vector2d(-0.5, 0), Eigen::Vector2d(0.5, 0), 0.0),
                                      convexPolygon(corners.data(), 3, 0.05), convexCircle(Eigen::Vector2d::Zero(), 0.3)};
  constexpr double speculative = 0.05;
  int checked = 0;
  for (const Convex& a : shapes) {
    for (const Convex& b : shapes) {
      for (int i = -8; i <= 8; ++i) {
        for (int j = -8; j <= 8; ++j) {
          for (int turn = 0; turn < 8; ++turn) {
            const Placement xa = Placement::of(0, 0, 0), xb = Placement::of(0.15 * i, 0.15 * j, turn * std::numbers::pi / 4);
            const double truth = signedDistance(a, xa, b, xb);
            if (std::abs(truth - speculative) < 1e-9) continue;  // on the boundary: either answer
            const Manifold m = collide(a, xa, b, xb, speculative);
            SCOPED_TRACE("counts " + std::to_string(a.count) + ", " + std::to_string(b.count) + " at (" +
                         std::to_string(i) + ", " + std::to_string(j) + "), " + std::to_string(turn) + "/8 turn");
            if (truth > speculative) {
              ASSERT_EQ(m.count, 0);
              continue;
            }
            ASSERT_GE(m.count, 1) << "true distance " << truth;
            double least = std::numeric_limits<double>::infinity();
            for (int k = 0; k < m.count; ++k) {
              ASSERT_TRUE(std::isfinite(m.points[k].separation));
              least = std::min(least, m.points[k].separation);
            }
            ASSERT_NEAR(least, truth, 1e-9);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
}  // namespace tinkertoy
