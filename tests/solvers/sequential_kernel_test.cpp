// The sequential impulses' kernel (SequentialKernel) against the generic passes over the
// system's blocks: at every step of a 100-step run of each shipped scene the kernel covers,
// both start from the same state and warm-start impulses, and after the velocity and the
// position passes their impulses and velocities agree to round-off.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/mouse_joint.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/dynamics/constraint_colouring.hpp"
#include "tinkertoy/dynamics/sequential_impulses.hpp"

namespace tinkertoy {
namespace {

constexpr double kRoundOff = 1e-12;

// max |a − b| / max(1, ‖a‖∞): agreement relative to the size of what is compared.
double relativeGap(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() == 0) return 0.0;
  return (a - b).lpNorm<Eigen::Infinity>() / std::max(1.0, a.lpNorm<Eigen::Infinity>());
}

bool hasRigidBody(const Model& model) {
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    if (dynamic_cast<const RigidBody*>(&model.body(model.bodyAt(i))) != nullptr) return true;
  }
  return false;
}

struct Gaps {
  double impulses = 0.0, velocities = 0.0, positionImpulses = 0.0, pseudoVelocities = 0.0;
};

// One substep's passes, from the model's state, by both paths: warm-started from `warm` [m].
// Returns the largest gaps and leaves the kernel's impulses in `warm`.
Gaps compareAt(const Model& model, const SimulationSettings& settings, Eigen::VectorXd& warm, bool& covered) {
  ConstraintSystem system;
  system.build(model);
  system.evaluate(model.state(), ConstraintSystem::Evaluation::WithoutJacobianDot);
  InverseMass inverseMass;
  inverseMass.build(model);
  inverseMass.update(model, model.q());
  const double h = settings.dt / settings.velocity.substeps;
  Eigen::VectorXd timeRate, Jv;
  VelocityTargets::timeRate(system, model.v(), timeRate);
  system.jacobian().multiply(model.v(), Jv);
  const Eigen::VectorXd predicted = system.value() + h * (Jv + timeRate);
  VelocityTargets targets;
  targets.resize(system.rows());
  targets.compute(system, model.v(), system.value(), timeRate, predicted, h, settings.velocity);

  SequentialImpulses kernel(SequentialImpulses::Path::Kernel), generic(SequentialImpulses::Path::Generic);
  Gaps gaps;
  Eigen::VectorXd v[2], pseudo[2];
  for (SequentialImpulses* si : {&kernel, &generic}) {
    const int i = si == &kernel ? 0 : 1;
    si->build(system);
    si->prepare(system, inverseMass.matrix(), targets);
    si->impulses() = warm.size() == system.rows() ? warm : Eigen::VectorXd::Zero(system.rows());
    v[i] = model.v();
    si->solve(v[i], ImpulsePass::Velocity, settings.velocity.iterations);
    pseudo[i].setZero(model.v().size());
    si->solve(pseudo[i], ImpulsePass::Position, settings.velocity.iterations);
  }
  covered = kernel.usesKernel();
  EXPECT_FALSE(generic.usesKernel());
  gaps.impulses = relativeGap(kernel.impulses(), generic.impulses());
  gaps.positionImpulses = relativeGap(kernel.impulses(ImpulsePass::Position), generic.impulses(ImpulsePass::Position));
  gaps.velocities = relativeGap(v[0], v[1]);
  gaps.pseudoVelocities = relativeGap(pseudo[0], pseudo[1]);
  warm = kernel.impulses();
  return gaps;
}

void expectSameImpulses(Model& model, SimulationSettings settings, const std::string& name) {
  settings.formulation = FormulationKind::Velocity;
  settings.solver.kind = SolverKind::SequentialImpulses;
  settings.velocity.positionCorrection = PositionCorrection::Baumgarte;
  Simulator simulator(model, settings);
  Eigen::VectorXd warm;
  Gaps worst;
  for (int step = 0; step < 100; ++step) {
    bool covered = false;
    const Gaps gaps = compareAt(model, settings, warm, covered);
    ASSERT_TRUE(covered) << name << ": the kernel should take every constraint";
    worst.impulses = std::max(worst.impulses, gaps.impulses);
    worst.velocities = std::max(worst.velocities, gaps.velocities);
    worst.positionImpulses = std::max(worst.positionImpulses, gaps.positionImpulses);
    worst.pseudoVelocities = std::max(worst.pseudoVelocities, gaps.pseudoVelocities);
    simulator.step();
  }
  EXPECT_LE(worst.impulses, kRoundOff) << name;
  EXPECT_LE(worst.velocities, kRoundOff) << name;
  EXPECT_LE(worst.positionImpulses, kRoundOff) << name;
  EXPECT_LE(worst.pseudoVelocities, kRoundOff) << name;
}

TEST(SequentialKernel, GivesTheGenericImpulsesOnEveryShippedScene) {
  int rigidScenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    Scene scene = loadScene(entry.path());
    ConstraintSystem system;
    system.build(scene.model);
    if (!SequentialKernel::covers(system)) {
      // Only models the kernel was not made for: a 3D rigid body or a constraint on three bodies.
      EXPECT_FALSE(hasRigidBody(scene.model) && scene.model.dimension() == 2) << entry.path();
      continue;
    }
    rigidScenes += hasRigidBody(scene.model) ? 1 : 0;
    expectSameImpulses(scene.model, scene.settings, entry.path().filename().string());
  }
  EXPECT_GE(rigidScenes, 5);  // the rigid pendulum, chain of boxes, crank, strandbeest, bridge, …
}

// The spring block (a mouse joint's two rows, bounded in norm) on a dragged chain of boxes.
TEST(SequentialKernel, GivesTheGenericImpulsesWhileAMouseJointDrags) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "chain_of_boxes.json");
  const BodyId last = scene.model.bodyAt(scene.model.bodyCount() - 1);
  scene.model.addConstraint(std::make_unique<MouseJoint>(BodyPoint{last}, Eigen::Vector2d(3.0, 2.0),
                                                         JointSpring{5.0, 0.7}, 20.0));
  expectSameImpulses(scene.model, scene.settings, "dragged chain_of_boxes");
}

// No two constraints of a colour share a moving body; a chain alternates two colours; a hub in
// more constraints than there are colours sends the rest to the overflow colour, last.
TEST(ConstraintColouring, NoColourSharesABody) {
  Model model(2);
  const BodyId hub = model.addParticle(1.0, Eigen::Vector2d::Zero());
  BodyId previous = hub;
  for (int i = 0; i < 70; ++i) {  // a star of 70 spokes, then a chain of 5 from the last
    const BodyId spoke = model.addParticle(1.0, Eigen::Vector2d(std::cos(i * 0.1), std::sin(i * 0.1)));
    model.addConstraint(std::make_unique<DistanceConstraint>(hub, spoke, 1.0));
    previous = spoke;
  }
  for (int i = 0; i < 5; ++i) {
    const BodyId link = model.addParticle(1.0, Eigen::Vector2d(2.0 + i, 0.0));
    model.addConstraint(std::make_unique<DistanceConstraint>(previous, link, 1.0));
    previous = link;
  }
  ConstraintSystem system;
  system.build(model);
  ConstraintColouring colouring;
  colouring.build(system);
  ASSERT_EQ(colouring.count(), ConstraintColouring::kMostColours + 1);
  EXPECT_TRUE(colouring.isOverflow(colouring.count() - 1));
  EXPECT_EQ(colouring.members(colouring.count() - 1).size(), 70u - ConstraintColouring::kMostColours);
  std::size_t seen = 0;
  for (std::size_t c = 0; c < colouring.count(); ++c) {
    seen += colouring.members(c).size();
    if (colouring.isOverflow(c)) continue;
    std::set<Eigen::Index> columns;
    for (const std::size_t k : colouring.members(c)) {
      const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
      for (std::size_t i = 0; i < b.count; ++i) EXPECT_TRUE(columns.insert(b.column[i]).second) << "colour " << c;
    }
  }
  EXPECT_EQ(seen, system.constraintCount());
  // The chain's five links alternate between two colours.
  Model chain(2);
  BodyId last = chain.addParticle(1.0, Eigen::Vector2d::Zero());
  for (int i = 0; i < 5; ++i) {
    const BodyId next = chain.addParticle(1.0, Eigen::Vector2d(i + 1.0, 0.0));
    chain.addConstraint(std::make_unique<DistanceConstraint>(last, next, 1.0));
    last = next;
  }
  system.build(chain);
  colouring.build(system);
  EXPECT_EQ(colouring.count(), 2u);
  EXPECT_FALSE(colouring.isOverflow(1));
}

TEST(SequentialKernel, LeavesAModelItDoesNotCoverToTheGenericPasses) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "pendulum.json");
  ConstraintSystem system;
  system.build(scene.model);
  ASSERT_TRUE(SequentialKernel::covers(system));
  SequentialImpulses springsOnly;
  springsOnly.build(system, true);  // a global solve's spring rows: the generic passes
  EXPECT_FALSE(springsOnly.usesKernel());
}

}  // namespace
}  // namespace tinkertoy
