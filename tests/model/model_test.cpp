// Model tests: editing a running simulation (adding and removing particles, forces and
// constraints between steps), id stability and staleness, rejection of bad input with a
// useful message, energy bookkeeping of every force, and the handle table itself.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/constraints/point_on_plane_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/constant_force.hpp"
#include "tinkertoy/forces/drag.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/core/handles.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {
namespace {

constexpr double kG = 9.81;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Expects `f` to throw std::invalid_argument whose message contains `keyword`.
template <class F>
void expectInvalid(F&& f, const std::string& keyword) {
  try {
    f();
    ADD_FAILURE() << "expected std::invalid_argument mentioning '" << keyword << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(keyword), std::string::npos)
        << "message '" << e.what() << "' does not mention '" << keyword << "'";
  }
}

// ---- editing a running simulation --------------------------------------------------------

void expectLambdaSizesMatch(Simulator& sim, const Model& model) {
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const ConstraintId id = model.constraintAt(k);
    EXPECT_EQ(sim.lambda(id).size(), static_cast<std::size_t>(model.constraint(id).rows()))
        << model.describe(id);
  }
}

// Steps `steps` times; every step must keep ‖C‖∞ below 1e-6 (RK4, h = 1e-3: drift per step
// ~1e-12, so this bound only trips if an edit corrupted the layout or the state).
void stepChecked(Simulator& sim, int steps, const char* phase) {
  for (int i = 0; i < steps; ++i) {
    sim.step();
    ASSERT_LT(sim.diagnostics().constraintError, 1e-6) << phase << ", step " << i + 1;
    ASSERT_TRUE(sim.model().q().allFinite()) << phase;
  }
}

TEST(ModelEditing, AddAndRemoveBetweenStepsKeepsIdsStateAndConstraints) {
  const double h = 1e-3;
  Model model(2);
  std::vector<BodyId> p;
  for (int i = 0; i < 5; ++i) {
    // Distinct masses, so a mix-up of particle data after a removal would show.
    p.push_back(model.addParticle(1.0 + 0.5 * i, Eigen::Vector2d(0.3 * i, 0.0), {}, "p" + std::to_string(i)));
  }
  const ConstraintId nail = model.addConstraint(std::make_unique<FixedPointConstraint>(p[0], Eigen::Vector2d(0, 0)), "nail");
  std::vector<ConstraintId> rods;
  for (int i = 0; i + 1 < 5; ++i) {
    rods.push_back(model.addConstraint(std::make_unique<DistanceConstraint>(p[i], p[i + 1], 0.3),
                                       "rod" + std::to_string(i) + std::to_string(i + 1)));
  }
  const ForceId gravity = model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  // Forces that name p1, to be removed with it.
  const ForceId spring = model.addForce(std::make_unique<Spring>(p[1], p[3], SpringParameters{.stiffness = 5, .rest_length = 0.6}));
  const ForceId push = model.addForce(std::make_unique<ConstantForce>(p[1], Eigen::Vector2d(0.2, 0.0)));

  SimulationSettings settings;
  settings.dt = h;
  Simulator sim(model, settings);
  stepChecked(sim, 200, "initial chain");
  expectLambdaSizesMatch(sim, model);

  // 1. Add a particle and a rod at the end of the chain, moving with its neighbour so that
  //    C = 0 and Ċ = 0 from the start.
  const Eigen::VectorXd end = model.position(p[4]);
  const Eigen::VectorXd endDirection = (end - model.position(p[3])).normalized();
  std::vector<Eigen::VectorXd> before;
  for (BodyId id : p) before.push_back(model.position(id));
  p.push_back(model.addParticle(3.5, end + 0.3 * endDirection, model.velocity(p[4]), "p5"));
  rods.push_back(model.addConstraint(std::make_unique<DistanceConstraint>(p[4], p[5], 0.3), "rod45"));
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(model.position(p[i]), before[i]);
  EXPECT_EQ(sim.lambda(rods.back()).size(), 1u);
  expectLambdaSizesMatch(sim, model);
  stepChecked(sim, 200, "after adding p5");

  // 2. Remove the rod between p2 and p3: the chain splits in two.
  model.removeConstraint(rods[2]);
  EXPECT_FALSE(model.contains(rods[2]));
  EXPECT_THROW(model.removeConstraint(rods[2]), std::invalid_argument);
  EXPECT_THROW((void)sim.lambda(rods[2]), std::invalid_argument);
  expectLambdaSizesMatch(sim, model);
  stepChecked(sim, 200, "after removing rod23");

  // 3. Remove p1, which cascades to rod01, rod12, the spring and the constant force. p1 is
  //    in the middle of the dense arrays, so the last particle (p5) moves into its place.
  const std::size_t forcesBefore = model.forceCount();
  const std::size_t constraintsBefore = model.constraintCount();
  const std::size_t indexOfP1 = model.indexOf(p[1]);
  ASSERT_EQ(model.indexOf(p[5]), model.bodyCount() - 1);
  before.clear();
  std::vector<Eigen::VectorXd> velocities;
  for (BodyId id : p) {
    before.push_back(model.position(id));
    velocities.push_back(model.velocity(id));
  }
  model.removeBody(p[1]);
  EXPECT_FALSE(model.contains(p[1]));
  expectInvalid([&] { (void)model.indexOf(p[1]); }, "stale");
  EXPECT_THROW((void)model.position(p[1]), std::invalid_argument);
  EXPECT_THROW(model.removeBody(p[1]), std::invalid_argument);
  EXPECT_EQ(model.indexOf(p[5]), indexOfP1) << "swap-with-last: p5 takes p1's dense slot";
  EXPECT_EQ(model.bodyCount(), 5u);
  EXPECT_EQ(model.forceCount(), forcesBefore - 2);
  EXPECT_FALSE(model.contains(spring));
  EXPECT_FALSE(model.contains(push));
  EXPECT_TRUE(model.contains(gravity));
  EXPECT_EQ(model.constraintCount(), constraintsBefore - 2);
  EXPECT_FALSE(model.contains(rods[0]));
  EXPECT_FALSE(model.contains(rods[1]));
  EXPECT_TRUE(model.contains(nail));
  for (std::size_t i : {0u, 2u, 3u, 4u, 5u}) {
    ASSERT_TRUE(model.contains(p[i]));
    EXPECT_EQ(model.position(p[i]), before[i]) << model.describe(p[i]);
    EXPECT_EQ(model.velocity(p[i]), velocities[i]) << model.describe(p[i]);
    EXPECT_EQ(model.mass(p[i]), 1.0 + 0.5 * static_cast<double>(i)) << model.describe(p[i]);
    EXPECT_EQ(model.name(p[i]), "p" + std::to_string(i));
  }
  EXPECT_EQ(model.findBody("p5"), p[5]);
  EXPECT_FALSE(model.findBody("p1").has_value());
  expectInvalid([&] { model.addConstraint(std::make_unique<DistanceConstraint>(p[1], p[2], 1.0)); },
                "not in the model");
  expectLambdaSizesMatch(sim, model);

  // 4. Continue. p2 has lost all its constraints and forces but gravity, so it falls freely:
  //    x(t) = x₀ + v₀ t + ½ g t², which RK4 integrates exactly (to round-off). The chain
  //    p3–p4–p5 is held only by internal rods, so its centre of mass falls freely too.
  //    The nailed p0 must not move at all.
  auto centreOfMass = [&] {
    Eigen::VectorXd c = Eigen::VectorXd::Zero(2);
    double m = 0.0;
    for (std::size_t i : {3u, 4u, 5u}) {
      c += model.mass(p[i]) * model.position(p[i]);
      m += model.mass(p[i]);
    }
    return Eigen::Vector2d(c / m);
  };
  auto centreVelocity = [&] {
    Eigen::VectorXd c = Eigen::VectorXd::Zero(2);
    double m = 0.0;
    for (std::size_t i : {3u, 4u, 5u}) {
      c += model.mass(p[i]) * model.velocity(p[i]);
      m += model.mass(p[i]);
    }
    return Eigen::Vector2d(c / m);
  };
  const Eigen::Vector2d x2 = model.position(p[2]), v2 = model.velocity(p[2]);
  const Eigen::Vector2d c0 = centreOfMass(), cv0 = centreVelocity();
  const Eigen::Vector2d g(0.0, -kG);
  const int steps = 300;
  stepChecked(sim, steps, "after removing p1");
  const double t = steps * h;
  EXPECT_LT((model.position(p[2]) - (x2 + v2 * t + 0.5 * g * t * t)).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LT((centreOfMass() - (c0 + cv0 * t + 0.5 * g * t * t)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT(model.position(p[0]).cwiseAbs().maxCoeff(), 1e-12);
  expectLambdaSizesMatch(sim, model);
  // The remaining rods are the ones that do not name p1 or the removed rod23.
  EXPECT_TRUE(model.contains(rods[3]));
  EXPECT_TRUE(model.contains(rods[4]));
  EXPECT_NEAR((model.position(p[3]) - model.position(p[4])).norm(), 0.3, 1e-6);
  EXPECT_NEAR((model.position(p[4]) - model.position(p[5])).norm(), 0.3, 1e-6);
}

// Removing the particle that is last in dense order must also work (no swap needed), and a
// new particle must get a fresh id even though it reuses the slot.
TEST(ModelEditing, RemovingTheLastParticleAndReusingItsSlot) {
  Model model(3);
  const BodyId a = model.addParticle(1.0, Eigen::Vector3d(1, 2, 3));
  const BodyId b = model.addParticle(2.0, Eigen::Vector3d(4, 5, 6));
  model.removeBody(b);
  EXPECT_EQ(model.q().size(), 3);
  EXPECT_EQ(model.position(a), Eigen::Vector3d(1, 2, 3));
  const BodyId c = model.addParticle(3.0, Eigen::Vector3d(7, 8, 9));
  EXPECT_EQ(c.slot, b.slot);
  EXPECT_NE(c, b);
  EXPECT_FALSE(model.contains(b));
  EXPECT_TRUE(model.contains(c));
  EXPECT_THROW((void)model.indexOf(b), std::invalid_argument);
  EXPECT_EQ(model.position(c), Eigen::Vector3d(7, 8, 9));
  EXPECT_EQ(model.mass(c), 3.0);
  EXPECT_EQ(model.mass(a), 1.0);
}

// findBody looks names up in an index: of bodies sharing a name it finds the first added, and
// when that one goes another of the same name takes its place; an unnamed body is never found.
TEST(ModelEditing, FindBodyFollowsAddsAndRemovesOfSharedNames) {
  Model model(2);
  const BodyId first = model.addParticle(1.0, Eigen::Vector2d(0, 0), {}, "twin");
  const BodyId other = model.addParticle(1.0, Eigen::Vector2d(1, 0), {}, "solo");
  const BodyId second = model.addParticle(1.0, Eigen::Vector2d(2, 0), {}, "twin");
  (void)model.addParticle(1.0, Eigen::Vector2d(3, 0));
  EXPECT_EQ(model.findBody("twin"), first);
  EXPECT_EQ(model.findBody(std::string_view("solo")), other);
  EXPECT_FALSE(model.findBody("").has_value());
  EXPECT_FALSE(model.findBody("twi").has_value());
  model.removeBody(first);
  EXPECT_EQ(model.findBody("twin"), second);
  model.removeBody(other);
  EXPECT_FALSE(model.findBody("solo").has_value());
  EXPECT_EQ(model.findBody("twin"), second) << "removing another body leaves the entry alone";
  model.removeBody(second);
  EXPECT_FALSE(model.findBody("twin").has_value());
  const BodyId again = model.addParticle(1.0, Eigen::Vector2d(4, 0), {}, "twin");
  EXPECT_EQ(model.findBody("twin"), again);
}

// The simulator notices structural edits through structureVersion().
TEST(ModelEditing, StructureVersionChangesOnEveryStructuralEdit) {
  Model model(2);
  auto v = model.structureVersion();
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d(0, 0));
  EXPECT_GT(model.structureVersion(), v);
  v = model.structureVersion();
  const BodyId b = model.addParticle(1.0, Eigen::Vector2d(1, 0));
  const ConstraintId rod = model.addConstraint(std::make_unique<DistanceConstraint>(a, b, 1.0));
  EXPECT_GT(model.structureVersion(), v);
  v = model.structureVersion();
  model.setPosition(a, Eigen::Vector2d(0.1, 0));  // not structural
  EXPECT_EQ(model.structureVersion(), v);
  model.removeConstraint(rod);
  EXPECT_GT(model.structureVersion(), v);
  v = model.structureVersion();
  model.removeBody(a);
  EXPECT_GT(model.structureVersion(), v);
}

// ---- bad input -----------------------------------------------------------------------------

TEST(BadInput, ModelAndParticles) {
  expectInvalid([] { Model m(1); }, "dimension");
  expectInvalid([] { Model m(4); }, "dimension");
  expectInvalid([] { Model m(0); }, "dimension");
  Model model(2);
  const Eigen::Vector2d origin(0, 0);
  expectInvalid([&] { model.addParticle(0.0, origin); }, "mass");
  expectInvalid([&] { model.addParticle(-1.0, origin); }, "mass");
  expectInvalid([&] { model.addParticle(kNaN, origin); }, "mass");
  expectInvalid([&] { model.addParticle(kInf, origin); }, "mass");
  expectInvalid([&] { model.addParticle(1.0, Eigen::Vector3d(0, 0, 0)); }, "components");
  expectInvalid([&] { model.addParticle(1.0, Eigen::VectorXd()); }, "components");
  expectInvalid([&] { model.addParticle(1.0, Eigen::Vector2d(kNaN, 0)); }, "finite");
  expectInvalid([&] { model.addParticle(1.0, Eigen::Vector2d(0, kInf)); }, "finite");
  expectInvalid([&] { model.addParticle(1.0, origin, Eigen::Vector3d(1, 0, 0)); }, "velocity");
  expectInvalid([&] { model.addParticle(1.0, origin, Eigen::Vector2d(kNaN, 0)); }, "velocity");
  EXPECT_EQ(model.bodyCount(), 0u) << "failed additions must leave nothing behind";
  EXPECT_EQ(model.q().size(), 0);
  const BodyId a = model.addParticle(1.0, origin);
  expectInvalid([&] { model.setMass(a, 0.0); }, "mass");
  expectInvalid([&] { model.setPosition(a, Eigen::Vector2d(kNaN, 0)); }, "finite");
  expectInvalid([&] { model.setVelocity(a, Eigen::Vector3d(0, 0, 0)); }, "components");
  EXPECT_EQ(model.mass(a), 1.0);
}

TEST(BadInput, Constraints) {
  Model model(2);
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d(0, 0));
  const BodyId b = model.addParticle(1.0, Eigen::Vector2d(1, 0));
  const BodyId gone = model.addParticle(1.0, Eigen::Vector2d(2, 0));
  model.removeBody(gone);
  expectInvalid([&] { model.addConstraint(std::make_unique<DistanceConstraint>(a, b, 0.0)); }, "rod length");
  expectInvalid([&] { model.addConstraint(std::make_unique<DistanceConstraint>(a, b, -1.0)); }, "rod length");
  expectInvalid([&] { model.addConstraint(std::make_unique<DistanceConstraint>(a, b, kNaN)); }, "rod length");
  expectInvalid([&] { model.addConstraint(std::make_unique<DistanceConstraint>(a, a, 1.0)); }, "itself");
  expectInvalid([&] { model.addConstraint(std::make_unique<DistanceConstraint>(a, gone, 1.0)); }, "not in the model");
  expectInvalid([&] { model.addConstraint(std::make_unique<FixedPointConstraint>(gone, Eigen::Vector2d(0, 0))); },
                "not in the model");
  expectInvalid([&] { model.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector3d(0, 0, 0), 1.0)); },
                "anchor");
  expectInvalid([&] {
    model.addConstraint(std::make_unique<PointOnPlaneConstraint>(a, Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 1)));
  }, "3D");
  expectInvalid([&] {
    model.addConstraint(std::make_unique<PointOnLineConstraint>(a, Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 0)));
  }, "direction");
  expectInvalid([&] { model.addConstraint(std::make_unique<PointOnCircleConstraint>(a, Eigen::Vector2d(0, 0), 0.0)); },
                "radius");
  auto path3d = std::make_shared<CurvePath>(std::make_shared<CircleCurve>(Eigen::Vector3d(0, 0, 0), 1.0), 1.0);
  expectInvalid([&] { model.addConstraint(std::make_unique<DrivenPointConstraint>(a, path3d)); }, "path dimension");
  auto badRadius = std::make_shared<CurvePath>(std::make_shared<CircleCurve>(Eigen::Vector2d(0, 0), -1.0), 1.0);
  expectInvalid([&] { model.addConstraint(std::make_unique<DrivenPointConstraint>(a, badRadius)); }, "radius");
  expectInvalid([&] { (void)DrivenPointConstraint(a, nullptr); }, "path");
  expectInvalid([&] { model.addConstraint(nullptr); }, "null");
  EXPECT_EQ(model.constraintCount(), 0u) << "failed additions must leave nothing behind";

  Model model3(3);
  const BodyId c = model3.addParticle(1.0, Eigen::Vector3d(0, 0, 0));
  expectInvalid([&] {
    model3.addConstraint(std::make_unique<PointOnPlaneConstraint>(c, Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0, 0, 0)));
  }, "normal");
  EXPECT_NO_THROW(model3.addConstraint(
      std::make_unique<PointOnPlaneConstraint>(c, Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0, 2, 0))));
}

TEST(BadInput, Forces) {
  Model model(2);
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d(0, 0));
  expectInvalid([&] { model.addForce(std::make_unique<Gravity>(Eigen::Vector3d(0, -1, 0))); }, "gravity");
  expectInvalid([&] { model.addForce(std::make_unique<Spring>(a, a, SpringParameters{.stiffness = 1})); }, "itself");
  expectInvalid([&] { model.addForce(std::make_unique<Spring>(a, Eigen::Vector2d(0, 1), SpringParameters{.stiffness = -1})); },
                "stiffness");
  expectInvalid([&] { model.addForce(std::make_unique<Drag>(-0.1)); }, "drag");
  expectInvalid([&] { model.addForce(std::make_unique<MouseSpring>(a, Eigen::Vector2d(kNaN, 0), 1.0, 0.0)); }, "target");
  expectInvalid([&] { model.addForce(std::make_unique<ConstantForce>(a, Eigen::Vector3d(1, 0, 0))); }, "constant force");
  expectInvalid([&] { model.addForce(nullptr); }, "null");
  EXPECT_EQ(model.forceCount(), 0u);
}

TEST(BadInput, SimulationSettings) {
  auto with = [](auto edit) {
    SimulationSettings s;
    edit(s);
    return s;
  };
  EXPECT_NO_THROW(SimulationSettings{}.validate());
  expectInvalid([&] { with([](SimulationSettings& s) { s.dt = 0.0; }).validate(); }, "dt");
  expectInvalid([&] { with([](SimulationSettings& s) { s.dt = -1e-3; }).validate(); }, "dt");
  expectInvalid([&] { with([](SimulationSettings& s) { s.dt = kNaN; }).validate(); }, "dt");
  expectInvalid([&] { with([](SimulationSettings& s) { s.dt = kInf; }).validate(); }, "dt");
  expectInvalid([&] { with([](SimulationSettings& s) { s.ks = -1.0; }).validate(); }, "ks");
  expectInvalid([&] { with([](SimulationSettings& s) { s.kd = -1.0; }).validate(); }, "kd");
  expectInvalid([&] { with([](SimulationSettings& s) { s.ks = kNaN; }).validate(); }, "ks");
  expectInvalid([&] { with([](SimulationSettings& s) { s.solver.tolerance = 0.0; }).validate(); }, "tolerance");
  expectInvalid([&] { with([](SimulationSettings& s) { s.solver.maxIterations = -1; }).validate(); }, "iteration");
  expectInvalid([&] { with([](SimulationSettings& s) { s.solver.regularization = -1e-9; }).validate(); }, "regularization");
  expectInvalid([&] { with([](SimulationSettings& s) { s.projection.maxIterations = 0; }).validate(); }, "projection");
  // The simulator refuses them too, before touching the model.
  Model model(2);
  model.addParticle(1.0, Eigen::Vector2d(0, 0));
  expectInvalid([&] { Simulator sim(model, with([](SimulationSettings& s) { s.dt = -1.0; })); }, "dt");
}

// ---- energy accounting ---------------------------------------------------------------------

// A 3D model with every force type, at a random-looking state. Potential energies are
// checked against hand computation, and the forces against −∇V by central differences
// (step 1e-6: truncation ~1e-12 · |V'''|, round-off ~1e-16 · |V| / 1e-6 ≈ 1e-9).
struct AllForces {
  Model model{3};
  BodyId a, b, c;
  ForceId gravity, spring, anchored, constant, mouse, drag;
  const Eigen::Vector3d g{0.3, -9.81, 0.1};
  const Eigen::Vector3d F{1.5, -0.5, 2.0};
  const Eigen::Vector3d target{0.2, 1.0, -0.4};
  const Eigen::Vector3d anchor{-1.0, 2.0, 0.5};

  AllForces() {
    a = model.addParticle(1.5, Eigen::Vector3d(0.1, 0.7, -0.3), Eigen::Vector3d(0.4, -1.0, 0.2));
    b = model.addParticle(0.5, Eigen::Vector3d(1.2, -0.4, 0.8), Eigen::Vector3d(-0.3, 0.6, 1.1));
    c = model.addParticle(2.5, Eigen::Vector3d(-0.6, 0.3, 1.4), Eigen::Vector3d(0.0, 0.0, -0.7));
    gravity = model.addForce(std::make_unique<Gravity>(g));
    spring = model.addForce(std::make_unique<Spring>(a, b, SpringParameters{.stiffness = 30, .damping = 0.7, .rest_length = 0.5}));
    anchored = model.addForce(std::make_unique<Spring>(c, anchor, SpringParameters{.stiffness = 12, .rest_length = 1.0}));
    constant = model.addForce(std::make_unique<ConstantForce>(b, F));
    mouse = model.addForce(std::make_unique<MouseSpring>(c, target, 200.0, 5.0));
    drag = model.addForce(std::make_unique<Drag>(0.25));
  }
  [[nodiscard]] Eigen::Vector3d x(BodyId id) const { return model.position(id); }
  [[nodiscard]] double potential(ForceId id, const Eigen::VectorXd& q) const {
    return model.force(id).potentialEnergy(model.bodies(), {0.0, q, model.v()});
  }
};

TEST(EnergyAccounting, PotentialEnergiesMatchHandComputation) {
  AllForces m;
  const Eigen::VectorXd& q = m.model.q();
  const double Vg = -(1.5 * m.g.dot(m.x(m.a)) + 0.5 * m.g.dot(m.x(m.b)) + 2.5 * m.g.dot(m.x(m.c)));
  const double stretch = (m.x(m.a) - m.x(m.b)).norm() - 0.5;
  const double stretchAnchored = (m.x(m.c) - m.anchor).norm() - 1.0;
  EXPECT_NEAR(m.potential(m.gravity, q), Vg, 1e-13);
  EXPECT_NEAR(m.potential(m.spring, q), 0.5 * 30 * stretch * stretch, 1e-13);
  EXPECT_NEAR(m.potential(m.anchored, q), 0.5 * 12 * stretchAnchored * stretchAnchored, 1e-13);
  EXPECT_NEAR(m.potential(m.constant, q), -m.F.dot(m.x(m.b)), 1e-13);
  EXPECT_EQ(m.potential(m.mouse, q), 0.0);  // the user's hand, outside the model (its work is in the ledger)
  EXPECT_EQ(m.potential(m.drag, q), 0.0);

  // The simulator's diagnostics add them up, with T = Σ ½ m |v|².
  Simulator sim(m.model);
  const double T = 0.5 * (1.5 * m.model.velocity(m.a).squaredNorm() + 0.5 * m.model.velocity(m.b).squaredNorm() +
                          2.5 * m.model.velocity(m.c).squaredNorm());
  const double V = Vg + 0.5 * 30 * stretch * stretch + 0.5 * 12 * stretchAnchored * stretchAnchored -
                   m.F.dot(m.x(m.b));
  EXPECT_NEAR(sim.diagnostics().kineticEnergy, T, 1e-13);
  EXPECT_NEAR(sim.diagnostics().potentialEnergy, V, 1e-12);
  EXPECT_NEAR(sim.diagnostics().totalEnergy(), T + V, 1e-12);
}

// Conservative forces must be the negative gradient of their potential (with the velocity
// set to zero so the damping terms vanish); drag is −c v and has no potential.
TEST(EnergyAccounting, ForcesAreMinusTheGradientOfThePotential) {
  AllForces m;
  const Eigen::VectorXd q0 = m.model.q();
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(q0.size());
  for (ForceId id : {m.gravity, m.spring, m.anchored, m.constant}) {
    Eigen::VectorXd Q = Eigen::VectorXd::Zero(q0.size());
    m.model.force(id).accumulate(m.model.bodies(), {0.0, q0, zero}, Q);
    Eigen::VectorXd gradient(q0.size());
    const double eps = 1e-6;
    for (Eigen::Index i = 0; i < q0.size(); ++i) {
      Eigen::VectorXd qp = q0, qm = q0;
      qp[i] += eps;
      qm[i] -= eps;
      gradient[i] = (m.model.force(id).potentialEnergy(m.model.bodies(), {0.0, qp, zero}) -
                     m.model.force(id).potentialEnergy(m.model.bodies(), {0.0, qm, zero})) / (2 * eps);
    }
    EXPECT_LT((Q + gradient).cwiseAbs().maxCoeff(), 1e-6 * std::max(1.0, Q.cwiseAbs().maxCoeff()))
        << m.model.force(id).type();
  }
  // Damping: the spring's damping acts along the spring only, the mouse spring's against v.
  Eigen::VectorXd Q = Eigen::VectorXd::Zero(q0.size());
  m.model.force(m.drag).accumulate(m.model.bodies(), {0.0, q0, m.model.v()}, Q);
  EXPECT_LT((Q + 0.25 * m.model.v()).cwiseAbs().maxCoeff(), 1e-15);
  Q.setZero();
  m.model.force(m.mouse).accumulate(m.model.bodies(), {0.0, q0, m.model.v()}, Q);
  const Eigen::Vector3d mouseForce = 200.0 * (m.target - m.x(m.c)) - 5.0 * Eigen::Vector3d(m.model.velocity(m.c));
  EXPECT_LT((Q.segment<3>(6) - mouseForce).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT(Q.head<6>().cwiseAbs().maxCoeff(), 1e-15);
  Q.setZero();
  m.model.force(m.spring).accumulate(m.model.bodies(), {0.0, q0, m.model.v()}, Q);
  const Eigen::Vector3d d = m.x(m.a) - m.x(m.b);
  const Eigen::Vector3d n = d.normalized();
  const Eigen::Vector3d dv = m.model.velocity(m.a) - m.model.velocity(m.b);
  const Eigen::Vector3d fa = -(30 * (d.norm() - 0.5) + 0.7 * n.dot(dv)) * n;
  EXPECT_LT((Q.segment<3>(0) - fa).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((Q.segment<3>(3) + fa).cwiseAbs().maxCoeff(), 1e-12);
}

// ---- handle table --------------------------------------------------------------------------

TEST(HandleTable, GenerationMakesAStaleIdFailAfterItsSlotIsReused) {
  HandleTable<BodyTag> table;
  const BodyId a = table.insert();
  const BodyId b = table.insert();
  const BodyId c = table.insert();
  EXPECT_EQ(table.at(a), 0u);
  EXPECT_EQ(table.at(c), 2u);
  // Erasing a moves the last item (c) into its dense index.
  EXPECT_EQ(table.erase(a), 0u);
  EXPECT_EQ(table.at(c), 0u);
  EXPECT_EQ(table.at(b), 1u);
  EXPECT_EQ(table.idAt(0), c);
  EXPECT_EQ(table.size(), 2u);
  // The next insert reuses a's slot with a new generation.
  const BodyId d = table.insert();
  EXPECT_EQ(d.slot, a.slot);
  EXPECT_NE(d.generation, a.generation);
  EXPECT_FALSE(table.contains(a));
  EXPECT_TRUE(table.contains(d));
  EXPECT_FALSE(table.find(a).has_value());
  EXPECT_EQ(table.find(d), std::optional<std::size_t>(2));
  EXPECT_THROW((void)table.at(a), std::invalid_argument);
  EXPECT_THROW(table.erase(a), std::invalid_argument);
  // Ids that were never issued, and the default (invalid) id, are rejected too.
  EXPECT_FALSE(table.contains(BodyId{}));
  EXPECT_FALSE(BodyId{}.valid());
  EXPECT_FALSE(table.contains(BodyId{57, 0}));
  // Many reuse cycles of one slot: every old id stays stale.
  std::vector<BodyId> old;
  BodyId cur = d;
  for (int i = 0; i < 20; ++i) {
    old.push_back(cur);
    table.erase(cur);
    cur = table.insert();
    EXPECT_EQ(cur.slot, a.slot);
  }
  for (const BodyId& id : old) EXPECT_FALSE(table.contains(id));
  EXPECT_TRUE(table.contains(cur));
  EXPECT_TRUE(table.contains(b));
  EXPECT_TRUE(table.contains(c));
}

}  // namespace
}  // namespace tinkertoy
