// Terrain (core/shape.hpp): a segment and a chain (a polyline, closed if it loops) that static and
// kinematic bodies carry. Their checks and inertia, their collision parts (a two-sided segment per
// link, each link's index in its points' ids), a box resting across two links, a ball rolling
// down a slope of links, the tumbler's turning walls holding its pieces, and the scene file's
// fields, written back as read.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <set>
#include <string>

#include "tinkertoy/collision/convex.hpp"
#include "tinkertoy/dynamics/contact_finder.hpp"
#include "tinkertoy/forces/make_force.hpp"
#include "tinkertoy/model/make_body.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

TEST(Terrain, ShapesAreCheckedAndHaveTheWiresInertia) {
  const Shape s = Shape::segment(Eigen::Vector2d(-1, 0), Eigen::Vector2d(1, 0));
  EXPECT_EQ(s.name(), "segment");
  EXPECT_FALSE(s.hasArea());
  EXPECT_NEAR(s.inertia(3.0), 3.0 * 4.0 / 12.0, 1e-15) << "a rod of length 2 about its middle";
  // An L of two unit links from the origin: each half the mass, 1/12 + (1/2)² about the origin.
  const Shape l = Shape::chain({Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 1)});
  EXPECT_NEAR(l.inertia(2.0), 2.0 * (1.0 / 12.0 + 0.25), 1e-15);
  EXPECT_THROW(Shape::segment(Eigen::Vector2d(1, 1), Eigen::Vector2d(1, 1)), std::invalid_argument);
  EXPECT_THROW(Shape::chain({Eigen::Vector2d(0, 0)}), std::invalid_argument);
  EXPECT_THROW(Shape::chain({Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0)}, true), std::invalid_argument)
      << "a loop needs three points";
  EXPECT_THROW(Shape::chain({Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0), Eigen::Vector2d(1, 0)}), std::invalid_argument);
  EXPECT_THROW(Shape::chain({Eigen::Vector2d(0, 0), Eigen::Vector2d(NAN, 0)}), std::invalid_argument);
  // Only a static or kinematic body carries terrain.
  Model model(2);
  EXPECT_THROW(model.addBody(makeBody(RigidBodySettings{.shape = s}), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()),
               std::invalid_argument);
  EXPECT_NO_THROW(model.addBody(makeBody(RigidBodySettings{.shape = s, .motion = RigidBodyMotion::Static}),
                                Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()));
}

TEST(Terrain, AChainCollidesAsOneSegmentPerLink) {
  const Shape open = Shape::chain({Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0), Eigen::Vector2d(2, 1)});
  const std::vector<Convex> parts = convexParts(open);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1].count, 2);
  EXPECT_EQ(parts[1].vertices[0], Eigen::Vector2d(1, 0));
  EXPECT_EQ(parts[1].vertices[1], Eigen::Vector2d(2, 1));
  EXPECT_EQ(convexParts(Shape::chain({Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1)}, true)).size(), 3u);
  EXPECT_THROW((void)convexOf(open), std::invalid_argument);
}

// A box straddling the joint of two level links touches both: one manifold each, their points'
// ids distinct (the link's index above the features), so each keeps its own warm start.
TEST(Terrain, ABoxAcrossTwoLinksHasPointsOfEachWithTheirOwnIds) {
  Model model(2);
  model.addBody(makeBody(RigidBodySettings{
                    .shape = Shape::chain({Eigen::Vector2d(-3, 0), Eigen::Vector2d(0, 0), Eigen::Vector2d(3, 0)}),
                    .motion = RigidBodyMotion::Static}),
                Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  model.addBody(makeBody(RigidBodySettings{.shape = Shape::box(1.0, 1.0)}), Eigen::Vector3d(0.0, 0.499, 0.0),
                Eigen::Vector3d::Zero());
  ContactFinder finder;
  finder.build(model);
  EXPECT_EQ(finder.colliderCount(), 3u);
  const auto contacts = finder.find(model.state(), 1.0 / 240.0, 0.005);
  ASSERT_EQ(contacts.size(), 2u);
  std::set<std::uint32_t> ids;
  for (const BodyContact& c : contacts) {
    EXPECT_NEAR((c.manifold.normal - Eigen::Vector2d(0, 1)).norm(), 0.0, 1e-12);
    for (int k = 0; k < c.manifold.count; ++k) {
      EXPECT_NEAR(c.manifold.points[k].separation, -0.001, 1e-12);
      ids.insert(c.manifold.points[k].id);
    }
  }
  EXPECT_EQ(ids.size(), 4u) << "two points on each link, none sharing an id";
}

// A ball rolls down a ramp of ten links in line, over their joints without a bump (no ghost
// contacts), with the speed of a disc rolling without slipping, whose kinetic energy
// ½ m v² + ½ (½ m r²)(v/r)² is the m g Δh it fell: v = √(g Δh / ¾). At the foot of the ramp it
// meets the floor, an inelastic impact at the new contact point about which its angular momentum
// m r v (cos θ + ½) is kept, and rolls on at v' = v (cos θ + ½) / (3/2).
TEST(Terrain, ABallRollsDownALinkedRampAndAlongTheFloor) {
  std::vector<Eigen::Vector2d> points;
  for (int i = 0; i <= 10; ++i) points.emplace_back(0.3 * i, 2.0 - 0.2 * i);  // a 1:1.5 slope
  points.emplace_back(12.0, 0.0);
  Scene scene{.model = Model(2)};
  scene.model.addBody(makeBody(RigidBodySettings{.shape = Shape::chain(points), .motion = RigidBodyMotion::Static}),
                      Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), "terrain");
  const double r = 0.2;
  const Eigen::Vector2d normal = Eigen::Vector2d(0.2, 0.3).normalized();
  const Eigen::Vector2d start = Eigen::Vector2d(0.15, 1.9) + (r + 0.001) * normal;
  const BodyId ball = scene.model.addBody(makeBody(RigidBodySettings{.shape = Shape::circle(r)}),
                                          Eigen::Vector3d(start.x(), start.y(), 0.0), Eigen::Vector3d::Zero(), "ball");
  scene.model.addForce(makeForce(GravitySettings{.acceleration = Eigen::Vector2d(0.0, -9.81)}));
  scene.settings.formulation = FormulationKind::Velocity;
  scene.settings.solver.kind = SolverKind::SequentialImpulses;
  scene.settings.velocity.collisions = true;
  scene.settings.velocity.positionCorrection = PositionCorrection::SoftStep;
  scene.settings.velocity.friction = 0.8;
  scene.settings.dt = 1.0 / 60.0;
  Simulator simulator(scene.model, scene.settings);
  double deepest = 0.0;
  const auto rollTo = [&](double x) {
    while (scene.model.coordinates(ball)[0] < x && scene.model.time() < 5.0) {
      simulator.step();
      deepest = std::max(deepest, simulator.diagnostics().penetration);
    }
  };
  rollTo(2.5);  // on the ramp still
  Eigen::VectorXd q = scene.model.coordinates(ball), v = scene.model.velocities(ball);
  const double rolling = std::sqrt(9.81 * (start.y() - q[1]) / 0.75);
  EXPECT_NEAR(v.head<2>().norm(), rolling, 0.01 * rolling);
  EXPECT_NEAR(std::abs(v[2]) * r, v.head<2>().norm(), 0.01 * rolling) << "rolling, not sliding";
  rollTo(4.0);  // on the floor
  q = scene.model.coordinates(ball);
  v = scene.model.velocities(ball);
  EXPECT_NEAR(q[1], r, 1e-3) << "on the floor";
  const double cosine = 0.3 / std::hypot(0.3, 0.2);
  const double foot = std::sqrt(9.81 * (start.y() - r) / 0.75) * (cosine + 0.5) / 1.5;
  EXPECT_NEAR(v[0], foot, 0.02 * foot);
  EXPECT_NEAR(-v[2] * r, v[0], 0.01 * foot) << "rolling, not sliding";
  // The speculative contacts stop it at the surface, and the soft step's contact spring holds it
  // where it carries the ball's weight, m g k / ω² deep with k = 1/m (a disc's normal passes
  // through its center) and ω = 2π · 2 · min(30 Hz, 1/(4h)) against the static terrain: no deeper.
  const double omega = 2.0 * std::numbers::pi * 2.0 * std::min(30.0, 0.25 / scene.settings.dt);
  EXPECT_LT(deepest, 1.05 * 9.81 / (omega * omega)) << "in by no more than its spring";
}

// The shipped tumbler (scenes/tumbler.json): a kinematic container whose walls are a closed chain
// turns at 25°/s around 50 boxes and 50 discs. For 10 s (more than a quarter turn), no piece
// reaches more than the soft contacts' sag past a wall's inner face, in the container's frame
// (1.2 cm measured, where the pile weighs on the lowest corner; 3 cm allowed), and no contact,
// piece on piece or piece on wall, is deeper than that at the end (1.6 cm).
TEST(Terrain, TheTumblersWallsKeepEveryPieceInside) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "tumbler.json");
  Model& model = scene.model;
  const BodyId container = *model.findBody("container");
  const double half = 3.0, omega = model.velocities(container)[2];
  ASSERT_NEAR(omega, 25.0 * std::numbers::pi / 180.0, 1e-15);
  Simulator simulator(model, scene.settings);
  // The pieces as the scene names them: box{i}_{j} where i + j is even, else disc{i}_{j}.
  std::vector<std::pair<BodyId, bool>> pieces;  // (body, is a box)
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      const bool box = (i + j) % 2 == 0;
      pieces.emplace_back(*model.findBody((box ? "box" : "disc") + std::to_string(i) + "_" + std::to_string(j)), box);
    }
  }
  double farthest = -INFINITY;  // past a wall's inner face, m
  for (int k = 0; k < 600; ++k) {
    simulator.step();
    const Eigen::Vector3d frame = model.coordinates(container);
    for (const auto& [body, box] : pieces) {
      const Eigen::Vector3d q = model.coordinates(body);
      const Eigen::Vector2d local = Eigen::Rotation2Dd(-frame[2]) * (q.head<2>() - frame.head<2>());
      // Half its extent along the container's axes: a box turned by φ from them reaches
      // 0.125 (|cos φ| + |sin φ|) along each, a disc 0.125.
      const double turn = q[2] - frame[2];
      const double reach = box ? 0.125 * (std::abs(std::cos(turn)) + std::abs(std::sin(turn))) : 0.125;
      farthest = std::max(farthest, local.cwiseAbs().maxCoeff() + reach - half);
    }
  }
  EXPECT_NEAR(model.coordinates(container)[2], omega * 10.0, 1e-9) << "it turned at its rate";
  EXPECT_LT(farthest, 0.03);
  EXPECT_LT(simulator.diagnostics().penetration, 0.03);
}

TEST(Terrain, TheSceneFileReadsAndWritesTerrain) {
  const std::string text = R"({"dimension": 2,
    "settings": {"formulation": "velocity", "solver": "sequential", "collisions": true},
    "bodies": [
      {"id": "edge", "type": "rigid", "mass": 1, "position": [0, 0], "static": true,
       "shape": {"type": "segment", "a": [-1, 0], "b": [1, 0.5]}},
      {"id": "hills", "type": "rigid", "mass": 1, "position": [0, -2], "kinematic": true, "velocity": [1, 0],
       "shape": {"type": "chain", "points": [[0, 0], [1, 0.2], [2, 0]], "loop": true}}]})";
  const Scene scene = parseScene(text);
  const std::string written = writeScene(scene);
  EXPECT_NE(written.find(R"("type": "segment")"), std::string::npos) << written;
  EXPECT_NE(written.find(R"("loop": true)"), std::string::npos) << written;
  EXPECT_EQ(writeScene(parseScene(written)), written);

  const auto refused = [&](const std::string& from, const std::string& to, const std::string& path,
                           const std::string& words) {
    std::string bad = text;
    bad.replace(bad.find(from), from.size(), to);
    try {
      (void)parseScene(bad);
      ADD_FAILURE() << to << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused(R"("static": true,)", "", "bodies[0].shape", "no area");
  refused(R"("b": [1, 0.5])", R"("b": [-1, 0])", "bodies[0].shape.b", "same");
  refused(R"("points": [[0, 0], [1, 0.2], [2, 0]])", R"("points": [[0, 0], [1, 0.2]])", "bodies[1].shape.points",
          "3 to 16384 points");
  refused(R"("loop": true)", R"("loop": 1)", "bodies[1].shape.loop", "true or false");
  refused(R"("a": [-1, 0])", R"("a": [-1, 0], "radius": 1)", "bodies[0].shape.radius", "unknown field");
}

}  // namespace
}  // namespace tinkertoy
