// How each body collides (core/collider.hpp): its own friction and restitution mixed with the
// other's, Box2D's filter, joints that let their bodies collide, 2D particles with a radius; and
// where the push out of a penetration goes (dynamics/contact_solver.hpp, ContactPush). Each is
// checked through the scene file, the model's API and a run.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tinkertoy/curves/make_curve.hpp"
#include "tinkertoy/forces/make_force.hpp"
#include "tinkertoy/dynamics/contact_finder.hpp"
#include "tinkertoy/model/make_body.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

TEST(Collider, FiltersAsBox2DDoes) {
  const Collider plain;
  EXPECT_TRUE(filtersCollide(plain, plain));
  const Collider a{.category = 0b01, .mask = 0b10}, b{.category = 0b10, .mask = 0b01}, c{.category = 0b10, .mask = 0b10};
  EXPECT_TRUE(filtersCollide(a, b));
  EXPECT_FALSE(filtersCollide(a, c)) << "c's mask does not take a's category";
  EXPECT_FALSE(filtersCollide(b, c) && filtersCollide(a, a)) << "a's mask does not take its own category";
  // A shared group overrides the masks: positive always, negative never.
  EXPECT_TRUE(filtersCollide(Collider{.category = 1, .mask = 0, .group = 3}, Collider{.category = 1, .mask = 0, .group = 3}));
  EXPECT_FALSE(filtersCollide(Collider{.group = -2}, Collider{.group = -2}));
  EXPECT_TRUE(filtersCollide(Collider{.group = -2}, Collider{.group = -3})) << "different groups: the masks decide";
}

TEST(Collider, MixesAsBox2DDoes) {
  EXPECT_DOUBLE_EQ(mixedFriction(0.4, 0.9), 0.6);
  EXPECT_EQ(mixedFriction(0.0, 1.0), 0.0);
  EXPECT_EQ(mixedRestitution(0.2, 0.7), 0.7);
  EXPECT_THROW((Collider{.friction = -0.1}.validate()), std::invalid_argument);
  EXPECT_THROW((Collider{.friction = std::nan("")}.validate()), std::invalid_argument);
  EXPECT_THROW((Collider{.restitution = 1.01}.validate()), std::invalid_argument);
  EXPECT_NO_THROW((Collider{.friction = 0.0, .restitution = 1.0}.validate()));
}

// A scene of the ground, a box and a disc particle, with `extra` in the settings and `box` and
// `ball` appended to the box's and the particle's fields.
std::string groundScene(const std::string& extra, const std::string& box, const std::string& ball) {
  return R"({"dimension": 2, "gravity": [0, -9.81],
    "settings": {"formulation": "velocity", "solver": "sequential", "dt": 0.016666666666666666, "substeps": 4,
                 "collisions": true)" + extra + R"(},
    "particles": [{"id": "ball", "mass": 1, "position": [3, 1], "radius": 0.2)" + ball + R"(}],
    "bodies": [
      {"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
       "shape": {"type": "box", "size": [20, 1]}},
      {"id": "box", "type": "rigid", "mass": 2, "position": [0, 0.6], "shape": {"type": "box", "size": [1, 1]})" +
         box + R"(}]})";
}

// A particle with a radius falls onto the ground and rests on it as a disc, its center the radius
// above the ground; one with a filter that leaves out the ground's category falls through.
TEST(Colliders, AParticleWithARadiusRestsOnTheGroundUnlessItsFilterSaysOtherwise) {
  for (const bool filtered : {false, true}) {
    SCOPED_TRACE(filtered ? "filtered" : "plain");
    Scene scene = parseScene(groundScene("", "", filtered ? R"(, "filter": {"category": 2, "mask": 2})" : ""));
    Simulator simulator(scene.model, scene.settings);
    for (int k = 0; k < 120; ++k) simulator.step();
    const double y = scene.model.coordinates(*scene.model.findBody("ball"))[1];
    if (filtered) {
      EXPECT_LT(y, -5.0);
    } else {
      EXPECT_NEAR(y, 0.2, 1e-3);
      EXPECT_LT(scene.model.velocities(*scene.model.findBody("ball")).norm(), 1e-2);
    }
  }
}

// A ball of restitution 0.8 on a ground of none bounces with 0.8 (the larger of the two); one of
// the settings' 0 keeps to the ground.
TEST(Colliders, ABodysOwnRestitutionIsMixedWithTheOthers) {
  for (const double e : {0.0, 0.8}) {
    SCOPED_TRACE("e = " + std::to_string(e));
    Scene scene = parseScene(groundScene("", "", e > 0 ? R"(, "restitution": 0.8)" : ""));
    const BodyId ball = *scene.model.findBody("ball");
    Simulator simulator(scene.model, scene.settings);
    double impact = 0.0, rebound = 0.0;
    for (int k = 0; k < 60 && rebound == 0.0; ++k) {
      const double before = scene.model.velocities(ball)[1];
      simulator.step();
      const double after = scene.model.velocities(ball)[1];
      if (before < -1.0 && after > before + 1.0) impact = before, rebound = after;
    }
    ASSERT_LT(impact, -1.0) << "it landed";
    // The approach is measured after the substep's gravity: within one substep's g h of `impact`.
    EXPECT_NEAR(rebound, -e * impact, 0.8 * 9.81 * scene.settings.dt / 4 + 0.02 * std::abs(impact));
  }
}

// On a slope of 0.3 rad (tan = 0.31), a box sticks with the settings' μ = 0.6 and slides with its
// own μ = 0.04, which mixed with the ground's 0.6 gives √(0.024) ≈ 0.155 < tan θ:
// a = g (sin θ − μ cos θ).
TEST(Colliders, ABodysOwnFrictionIsMixedWithTheOthers) {
  const double theta = 0.3;
  for (const bool icy : {false, true}) {
    SCOPED_TRACE(icy ? "icy" : "plain");
    Model model(2);
    const BodyId slope = model.addBody(makeBody(RigidBodySettings{.shape = Shape::box(40.0, 1.0),
                                                                   .motion = RigidBodyMotion::Static}),
                                       Eigen::Vector3d(0.0, 0.0, theta), Eigen::Vector3d::Zero());
    const Eigen::Vector2d normal(-std::sin(theta), std::cos(theta)), down(-std::cos(theta), -std::sin(theta));
    const Eigen::Vector2d at = 1.0 * normal - 5.0 * down;
    RigidBodySettings box{.shape = Shape::box(1.0, 1.0)};
    if (icy) box.collider.friction = 0.04;
    const BodyId b = model.addBody(makeBody(box), Eigen::Vector3d(at.x(), at.y(), theta), Eigen::Vector3d::Zero());
    model.addForce(makeForce(GravitySettings{.acceleration = Eigen::Vector2d(0.0, -9.81)}));
    SimulationSettings settings;
    settings.formulation = FormulationKind::Velocity;
    settings.solver.kind = SolverKind::SequentialImpulses;
    settings.velocity.collisions = true;
    settings.velocity.substeps = 4;
    settings.dt = 1.0 / 60.0;
    Simulator simulator(model, settings);
    for (int k = 0; k < 30; ++k) simulator.step();
    const double v0 = model.velocities(b).head<2>().dot(down);
    for (int k = 0; k < 60; ++k) simulator.step();
    const double v1 = model.velocities(b).head<2>().dot(down);
    if (icy) {
      const double mu = std::sqrt(0.04 * 0.6);
      const double a = 9.81 * (std::sin(theta) - mu * std::cos(theta));
      EXPECT_NEAR(v1 - v0, a * 1.0, 0.02 * a);
    } else {
      EXPECT_LT(std::abs(v1), 1e-3) << "it sticks";
    }
    (void)slope;
  }
}

// Two boxes hinged so that they overlap do not collide, and so stay put; with the hinge's
// "collide_connected" they push each other apart.
TEST(Colliders, JoinedBodiesCollideOnlyWhenTheirConstraintSaysSo) {
  for (const bool collide : {false, true}) {
    SCOPED_TRACE(collide ? "collide_connected" : "joined");
    Scene scene = parseScene(std::string(R"({"dimension": 2,
      "settings": {"formulation": "velocity", "solver": "sequential", "collisions": true},
      "bodies": [
        {"id": "a", "type": "rigid", "mass": 1, "position": [0, 0], "shape": {"type": "box", "size": [1, 1]}},
        {"id": "b", "type": "rigid", "mass": 1, "position": [0.8, 0], "shape": {"type": "box", "size": [1, 1]}}],
      "constraints": [{"type": "distance", "a": "a", "b": "b", "max_length": 5)") +
                             (collide ? R"(, "collide_connected": true)" : "") + "}]}");
    const ConstraintId rope = scene.model.constraintAt(0);
    EXPECT_EQ(scene.model.collideConnected(rope), collide);
    // It is written back as it was read.
    EXPECT_EQ(writeScene(scene).find("collide_connected") != std::string::npos, collide);
    Simulator simulator(scene.model, scene.settings);
    while (scene.model.time() < 1.0) simulator.step();
    const double gap = scene.model.coordinates(*scene.model.findBody("b"))[0] -
                       scene.model.coordinates(*scene.model.findBody("a"))[0];
    if (collide) {
      EXPECT_NEAR(gap, 1.0, 0.006) << "pushed apart to touching, within the slop";
    } else {
      EXPECT_NEAR(gap, 0.8, 1e-12);
    }
  }
}

// A box started 15 cm deep in the ground is pushed out without flying off: with the soft step
// and Baumgarte it ends on the ground, never faster than the push's cap (3 m/s) plus what gravity
// adds; with "none" it stays as deep as it started.
TEST(Colliders, APenetrationIsPushedOutWhereThePositionCorrectionSays) {
  for (const std::string correction : {"soft", "baumgarte", "none"}) {
    SCOPED_TRACE(correction);
    std::string text = groundScene(R"(, "position_correction": ")" + correction + "\"", "", "");
    text.replace(text.find(R"("position": [0, 0.6])"), 20, R"("position": [0, 0.35])");
    Scene scene = parseScene(text);
    const BodyId box = *scene.model.findBody("box");
    Simulator simulator(scene.model, scene.settings);
    double fastest = 0.0;
    for (int k = 0; k < 180; ++k) {
      simulator.step();
      fastest = std::max(fastest, scene.model.velocities(box).norm());
    }
    const double y = scene.model.coordinates(box)[1];
    if (correction == "none") {
      EXPECT_NEAR(y, 0.35, 1e-3) << "no push";
    } else {
      EXPECT_NEAR(y, 0.5, 6e-3) << "out to within the slop";
      EXPECT_LT(fastest, 3.0 + 1.0) << "pushed out, not launched";
      EXPECT_LT(scene.model.velocities(box).norm(), 1e-2);
    }
  }
}

// A fast body far away does not widen the search for the bodies at rest: the box on the ground
// keeps its two points while a ball flies past at 100 m/s.
TEST(Colliders, EachPairIsSearchedWithinItsOwnMargins) {
  Model model(2);
  const auto rigid = [&](const Shape& shape, double x, double y, RigidBodyMotion motion, const Eigen::Vector3d& v) {
    return model.addBody(makeBody(RigidBodySettings{.shape = shape, .motion = motion}), Eigen::Vector3d(x, y, 0.0), v);
  };
  rigid(Shape::box(20.0, 1.0), 0.0, -0.5, RigidBodyMotion::Static, Eigen::Vector3d::Zero());
  rigid(Shape::box(1.0, 1.0), 0.0, 0.55, RigidBodyMotion::Dynamic, Eigen::Vector3d::Zero());   // 5 cm up
  rigid(Shape::box(1.0, 1.0), 3.0, 0.515, RigidBodyMotion::Dynamic, Eigen::Vector3d::Zero());  // 1.5 cm up
  rigid(Shape::circle(0.1), -8.0, 5.0, RigidBodyMotion::Dynamic, Eigen::Vector3d(100.0, 0.0, 0.0));
  ContactFinder finder;
  finder.build(model);
  const auto contacts = finder.find(model.state(), 1.0 / 240.0, 0.005);
  ASSERT_EQ(contacts.size(), 1u) << "only the box within two slops of the ground each";
  EXPECT_EQ(contacts[0].b, 2u);
  // The box given the speed to close 5 cm in the substep is searched within it.
  Eigen::VectorXd v = model.v();
  v[4] = -0.05 * 240.0;
  model.setState(0.0, model.q(), v);
  EXPECT_EQ(finder.find(model.state(), 1.0 / 240.0, 0.005).size(), 2u);
}

// Model::setCollider changes a body's surface between steps (an edit the next step reads) and
// refuses a body that never collides and a bad value, changing nothing.
TEST(Colliders, TheModelSetsABodysColliderAndRefusesWhatCannotCollide) {
  Scene scene = parseScene(groundScene("", R"(, "friction": 0.3, "filter": {"group": -1})", ""));
  const BodyId box = *scene.model.findBody("box");
  ASSERT_TRUE(scene.model.collider(box).has_value());
  EXPECT_EQ(scene.model.collider(box)->friction, 0.3);
  EXPECT_EQ(scene.model.collider(box)->group, -1);
  const std::string written = writeScene(scene);
  EXPECT_NE(written.find(R"("friction": 0.3)"), std::string::npos) << written;
  EXPECT_NE(written.find(R"("group": -1)"), std::string::npos) << written;
  EXPECT_NE(written.find(R"("radius": 0.2)"), std::string::npos) << written;
  EXPECT_EQ(writeScene(parseScene(written)), written) << "read back as written";

  const std::uint64_t structure = scene.model.structureVersion();
  scene.model.setCollider(box, Collider{.restitution = 0.5});
  EXPECT_EQ(scene.model.collider(box)->restitution, 0.5);
  EXPECT_FALSE(scene.model.collider(box)->friction.has_value());
  EXPECT_EQ(scene.model.structureVersion(), structure) << "an edit, not a new layout";
  EXPECT_THROW(scene.model.setCollider(box, Collider{.friction = -1.0}), std::invalid_argument);
  EXPECT_EQ(scene.model.collider(box)->restitution, 0.5);

  Model beads(2);
  const BodyId bead = beads.addBody(makeBody(BeadSettings{.curve = makeCurve(LineCurveSettings{.origin = Eigen::Vector2d(0, 0), .direction = Eigen::Vector2d(1, 0)})}), Eigen::VectorXd::Zero(1),
                                    Eigen::VectorXd::Zero(1));
  EXPECT_FALSE(beads.collider(bead).has_value());
  EXPECT_THROW(beads.setCollider(bead, Collider{}), std::invalid_argument);
}

// Every bad value of a body's collision fields is refused at its JSON path.
TEST(Colliders, TheSceneFileRefusesBadCollisionFields) {
  const auto refused = [](const std::string& box, const std::string& ball, const std::string& path,
                          const std::string& words, int dimension = 2) {
    std::string text = groundScene("", box, ball);
    if (!ball.empty() && ball.find("radius") != std::string::npos) text.replace(text.find(R"(, "radius": 0.2)"), 15, "");
    if (dimension == 3) {
      text = R"({"dimension": 3, "particles": [{"id": "p", "mass": 1, "position": [0, 0, 0])" + ball + "}]}";
    }
    try {
      (void)parseScene(text);
      ADD_FAILURE() << box << ball << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused(R"(, "friction": -0.5)", "", "bodies[1].friction", "negative");
  refused(R"(, "restitution": 1.5)", "", "bodies[1].restitution", "at most 1");
  refused(R"(, "restitution": "high")", "", "bodies[1].restitution", "number");
  refused(R"(, "filter": {"category": -1})", "", "bodies[1].filter.category", "0 to 4294967295");
  refused(R"(, "filter": {"mask": 4294967296})", "", "bodies[1].filter.mask", "0 to 4294967295");
  refused(R"(, "filter": {"group": 3000000000})", "", "bodies[1].filter.group", "-2147483648 to 2147483647");
  refused(R"(, "filter": {"group": 1.5})", "", "bodies[1].filter.group", "integer");
  refused(R"(, "filter": {"categroy": 2})", "", "bodies[1].filter.categroy", "unknown field");
  refused("", R"(, "radius": -0.1)", "particles[0].radius", "negative");
  refused("", R"(, "friction": -0.1)", "particles[0].friction", "negative");
  refused("", R"(, "radius": 0.1)", "particles[0].radius", "2D", 3);
}

}  // namespace
}  // namespace tinkertoy
