// Bodies, forces, constraints and curves as plain data (issue #37): every built-in one gives its
// settings, make* builds an equal one from them, and a running model is edited through them.
//
// The round trip is checked on every shipped scene: a model rebuilt item by item from the settings
// of the loaded one (its beads' wires and driven points' paths rebuilt from theirs too) writes the
// same scene file, byte for byte, and steps to the same bits.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/make_constraint.hpp"
#include "tinkertoy/constraints/path.hpp"
#include "tinkertoy/curves/formula_curve.hpp"
#include "tinkertoy/curves/make_curve.hpp"
#include "tinkertoy/forces/formula_potential.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/make_force.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/model/chain.hpp"
#include "tinkertoy/model/make_body.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

namespace fs = std::filesystem;

// A curve made again from its settings; one without (written in C++) is kept.
std::shared_ptr<const Curve> rebuilt(const std::shared_ptr<const Curve>& curve) {
  const CurveSettings settings = curve->settings();
  if (std::holds_alternative<std::monostate>(settings)) return curve;
  auto again = makeCurve(settings);
  EXPECT_EQ(again->type(), curve->type());
  return again;
}

BodySettings rebuilt(BodySettings settings) {
  if (auto* bead = std::get_if<BeadSettings>(&settings)) bead->curve = rebuilt(bead->curve);
  return settings;
}

ConstraintSettings rebuilt(ConstraintSettings settings) {
  if (auto* driven = std::get_if<DrivenPointConstraintSettings>(&settings)) {
    const PathSettings path = driven->path->settings();
    const auto& along = std::get<CurvePathSettings>(path);
    driven->path = std::make_shared<CurvePath>(rebuilt(along.curve), along.speed, along.phase);
  }
  return settings;
}

// The scene with its model rebuilt from the settings of the original's items.
Scene fromSettings(const Scene& original) {
  const Model& model = original.model;
  Scene copy{.name = original.name,
             .model = Model(model.dimension()),
             .settings = original.settings,
             .duration = original.duration,
             .description = original.description,
             .period = original.period};
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    copy.model.addBody(makeBody(rebuilt(model.body(id).settings())), model.coordinates(id), model.velocities(id),
                       model.name(id));
  }
  for (std::size_t i = 0; i < model.forceCount(); ++i) {
    copy.model.addForce(makeForce(model.force(model.forceAt(i)).settings()));
  }
  for (std::size_t i = 0; i < model.constraintCount(); ++i) {
    const ConstraintId id = model.constraintAt(i);
    const ConstraintId again = copy.model.addConstraint(makeConstraint(rebuilt(model.constraint(id).settings())), model.name(id));
    copy.model.setBreakForce(again, model.breakForce(id));
    copy.model.setEnabled(again, model.isEnabled(id));
  }
  return copy;
}

TEST(Settings, EveryShippedSceneIsRebuiltFromItsSettings) {
  int scenes = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(TINKERTOY_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    Scene original = loadScene(entry.path());
    Scene copy = fromSettings(original);
    EXPECT_EQ(writeScene(copy), writeScene(original));
    Simulator a(original.model, original.settings), b(copy.model, copy.settings);
    for (int k = 0; k < 20; ++k) {
      a.step();
      b.step();
    }
    EXPECT_EQ(copy.model.q(), original.model.q());
    EXPECT_EQ(copy.model.v(), original.model.v());
    ++scenes;
  }
  EXPECT_GE(scenes, 20);
}

// Something defined outside the library has no settings, and nothing is made from none.
TEST(Settings, NothingIsMadeFromNoSettings) {
  EXPECT_THROW((void)makeBody(std::monostate{}), std::invalid_argument);
  EXPECT_THROW((void)makeForce(std::monostate{}), std::invalid_argument);
  EXPECT_THROW((void)makeCurve(std::monostate{}), std::invalid_argument);
  EXPECT_THROW((void)makeConstraint(std::monostate{}), std::invalid_argument);
  // Written in C++, a formula is a function: it has no text to give as settings.
  const auto wire = formulaCurve([](auto u) {
    using std::cos, std::sin;
    return std::array{cos(u), sin(u)};
  });
  EXPECT_TRUE(std::holds_alternative<std::monostate>(wire->settings()));
  Model model(2);
  const BodyId ball = model.addParticle(1.0, Eigen::Vector2d(1.0, 0.0));
  const auto well = formulaPotential({{"p", ball}}, {"xp"}, [](auto x) { return x * x; });
  EXPECT_TRUE(std::holds_alternative<std::monostate>(well->settings()));
}

TEST(Settings, ABodyIsEditedThroughItsSettings) {
  Model model(2);
  const BodyId ball = model.addParticle(1.0, Eigen::Vector2d(1.0, 0.0), Eigen::Vector2d(0.0, 2.0), "ball");
  const std::uint64_t structure = model.structureVersion(), revision = model.revision();
  model.editBody<ParticleSettings>(ball, [](ParticleSettings& s) { s.mass = 3.0; });
  EXPECT_EQ(model.mass(ball), 3.0);
  EXPECT_GT(model.revision(), revision);
  EXPECT_EQ(model.structureVersion(), structure) << "new values keep the layout";
  EXPECT_EQ(model.velocities(ball), Eigen::Vector2d(0.0, 2.0));  // the state stays
  model.setMass(ball, 4.0);
  EXPECT_EQ(std::get<ParticleSettings>(model.body(ball).settings()).mass, 4.0);

  // Refused, changing nothing: another kind (even of as many coordinates), a bad mass, a 3D
  // particle in a 2D model.
  const std::uint64_t before = model.revision(), layout = model.structureVersion();
  try {
    model.editBody<ChainSettings>(ball, [](ChainSettings&) {});
    FAIL() << "a particle was edited as a chain";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "particle 'ball' is a particle body, not a chain one");
  }
  try {
    model.setBodySettings(ball, ChainSettings{.pivot = Eigen::Vector2d::Zero(), .lengths = {1, 1}, .masses = {1, 1}});
    FAIL() << "a particle became a chain of as many coordinates";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("keeps its kind"), std::string::npos) << e.what();
  }
  EXPECT_THROW(model.editBody<ParticleSettings>(ball, [](ParticleSettings& s) { s.mass = -1.0; }),
               std::invalid_argument);
  EXPECT_THROW(model.editBody<ParticleSettings>(ball, [](ParticleSettings& s) { s.dimension = 3; }),
               std::invalid_argument);
  EXPECT_EQ(model.mass(ball), 4.0);
  EXPECT_EQ(model.body(ball).type(), "particle");
  EXPECT_EQ(model.revision(), before);
  EXPECT_EQ(model.structureVersion(), layout);
}

// A rigid pendulum: a plank on a rod to a fixed point, at the acceleration level, where nothing
// but the state carries from step to step.
struct Plank {
  Model model{2};
  BodyId plank = model.addBody(makeBody(RigidBodySettings{.mass = 2.0, .shape = Shape::box(1.0, 0.2)}),
                               Eigen::Vector3d(0.5, 0.0, 0.0), Eigen::Vector3d::Zero(), "plank");
  ForceId gravity = model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -9.81)));
  ConstraintId rod = model.addConstraint(makeConstraint(DistanceConstraintSettings{
      .a = BodyPoint(plank, Eigen::Vector2d(-0.4, 0.0)), .anchor = Eigen::Vector2d(-0.5, 0.3), .length = std::sqrt(0.1)}));
};

// A mass edited mid-run keeps the layout, and the run goes on exactly as a fresh one of the heavier
// plank from that state: the constraint system finds the replaced body. The inertia, derived from
// the shape, follows the mass.
TEST(Settings, ABodyEditedMidRunStepsAsAFreshOne) {
  const SimulationSettings settings{.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4};
  Plank edited;
  Simulator simulator(edited.model, settings);
  for (int k = 0; k < 50; ++k) simulator.step();
  const std::uint64_t layout = edited.model.structureVersion();
  edited.model.editBody<RigidBodySettings>(edited.plank, [](RigidBodySettings& s) { s.mass = 3.0; });
  EXPECT_EQ(edited.model.structureVersion(), layout);
  EXPECT_DOUBLE_EQ(edited.model.body(edited.plank).totalMass(), 3.0);
  const auto heavy = std::get<RigidBodySettings>(edited.model.body(edited.plank).settings());
  EXPECT_FALSE(heavy.inertia.has_value()) << "the inertia is the shape's, derived again for the new mass";

  Plank fresh;
  fresh.model.editBody<RigidBodySettings>(fresh.plank, [](RigidBodySettings& s) { s.mass = 3.0; });
  fresh.model.setState(edited.model.time(), edited.model.q(), edited.model.v());
  Simulator newcomer(fresh.model, settings);
  for (int k = 0; k < 50; ++k) {
    simulator.step();
    newcomer.step();
  }
  EXPECT_EQ(edited.model.q(), fresh.model.q());
  EXPECT_EQ(edited.model.v(), fresh.model.v());
}

// A rigid body made static is laid out anew: it stops, and the rod that now joins only immovable
// things has no rows.
TEST(Settings, ABodyThatChangesItsMotionChangesTheLayout) {
  Plank p;
  Simulator simulator(p.model, SimulationSettings{.dt = 1e-3});
  for (int k = 0; k < 20; ++k) simulator.step();
  const std::uint64_t structure = p.model.structureVersion();
  // A static body cannot move: refused while the plank swings, taken once it is stopped.
  EXPECT_THROW(p.model.editBody<RigidBodySettings>(p.plank, [](RigidBodySettings& s) { s.motion = RigidBodyMotion::Static; }),
               std::invalid_argument);
  EXPECT_EQ(p.model.structureVersion(), structure);
  p.model.setVelocities(p.plank, Eigen::Vector3d::Zero());
  p.model.editBody<RigidBodySettings>(p.plank, [](RigidBodySettings& s) { s.motion = RigidBodyMotion::Static; });
  EXPECT_GT(p.model.structureVersion(), structure);
  const Eigen::VectorXd q = p.model.q();
  for (int k = 0; k < 20; ++k) simulator.step();
  EXPECT_EQ(p.model.q(), q);
  EXPECT_EQ(simulator.lambda(p.rod).size(), 0);
}

TEST(Settings, AForceIsEditedThroughItsSettings) {
  Model model(2);
  const BodyId ball = model.addParticle(1.0, Eigen::Vector2d(1.0, 0.0));
  const ForceId hand = model.addForce(std::make_unique<MouseSpring>(ball, Eigen::Vector2d(0.0, 0.0), 10.0, 1.0));
  const ForceId gravity = model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -9.81)));
  const std::uint64_t revision = model.revision();
  model.editForce<MouseSpringSettings>(hand, [](MouseSpringSettings& s) { s.target = Eigen::Vector2d(2.0, 0.0); });
  EXPECT_GT(model.revision(), revision);
  const auto target = std::get<MouseSpringSettings>(model.force(hand).settings()).target;
  EXPECT_EQ(target, Eigen::Vector2d(2.0, 0.0));
  // The spring pulls toward its new target: k (2 − 1) = 10 N along x.
  const Eigen::Vector3d f =
      mouseSpringForce(std::get<MouseSpringSettings>(model.force(hand).settings()), model.bodies(), model.state());
  EXPECT_EQ(f, Eigen::Vector3d(10.0, 0.0, 0.0));

  EXPECT_THROW(model.editForce<MouseSpringSettings>(gravity, [](MouseSpringSettings&) {}), std::invalid_argument);
  EXPECT_THROW(model.editForce<GravitySettings>(gravity, [](GravitySettings& g) { g.acceleration = Eigen::Vector3d::Zero(); }),
               std::invalid_argument);  // a 3D gravity in a 2D model
  EXPECT_EQ(std::get<GravitySettings>(model.force(gravity).settings()).acceleration, Eigen::Vector2d(0.0, -9.81));
  EXPECT_THROW(model.setForceSettings(hand, std::monostate{}), std::invalid_argument);
}

}  // namespace
}  // namespace tinkertoy
