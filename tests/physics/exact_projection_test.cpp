// The exact mode's projection (velocity level, global solve, projection onto C = 0): Newton
// steps whose solves reuse the step's factorization, a line search, substeps split in half when
// a projection runs out of iterations, and a clear report when the constraints cannot all hold.
#include <gtest/gtest.h>

#include <random>

#include "bench_models.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy {
namespace {

SimulationSettings exactSettings(double dt) {
  SimulationSettings s{.dt = dt, .formulation = FormulationKind::Velocity};
  s.solver.kind = SolverKind::SparseLdlt;
  s.velocity.positionCorrection = PositionCorrection::Projection;
  return s;
}

// cloth-64 of the benchmark (8 064 rods), every particle moved by up to 0.5 % of a rod and given
// a random velocity: one step's projection takes it back to C = 0 within 1e-10 of a rod.
TEST(ExactProjection, ConvergesOnAPerturbedCloth64) {
  const bench::Scenario scenario = bench::clothScenario(64);
  Model model = bench::tinkertoyModel(scenario);
  std::mt19937 rng(64);
  std::uniform_real_distribution<double> jitter(-0.005 * scenario.length, 0.005 * scenario.length);
  std::uniform_real_distribution<double> speed(-0.5, 0.5);
  Eigen::VectorXd q = model.q(), v = model.v();
  for (double& x : q) x += jitter(rng);
  for (double& x : v) x = speed(rng);
  model.setState(model.time(), q, v);
  SimulationSettings settings = exactSettings(scenario.dt);
  settings.projection.tolerance = 1e-10 * scenario.length;
  Simulator sim(model, settings);
  ASSERT_GT(sim.diagnostics().constraintError, 1e-4 * scenario.length) << "the start should be well off C = 0";
  sim.step();
  const StepDiagnostics& d = sim.diagnostics();
  EXPECT_TRUE(d.projectionConverged);
  EXPECT_LE(d.constraintError, 1e-10 * scenario.length);
  EXPECT_GE(d.projectionIterations, 1);
  EXPECT_LE(d.projectionIterations, 10);
  EXPECT_EQ(d.substepSplits, 0);
}

// A double pendulum flung at 10 m/s with dt = 0.02 s: each step moves the bob a fifth of a rod,
// and two Newton iterations cannot always close what the linearized velocity step leaves. Those
// substeps are redone as halves, and every step ends on C = 0.
TEST(ExactProjection, SplitsASubstepThatMovesTooFarAndStaysExact) {
  Model model(2);
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 10));
  const BodyId b = model.addParticle(1.0, Eigen::Vector2d(2, 0), Eigen::Vector2d(0, -10));
  model.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector2d(0, 0), 1.0));
  model.addConstraint(std::make_unique<DistanceConstraint>(a, b, 1.0));
  SimulationSettings settings = exactSettings(0.02);
  settings.projection.maxIterations = 2;
  Simulator sim(model, settings);
  RunStatistics stats(sim.diagnostics());
  for (int i = 0; i < 100; ++i) {
    sim.step();
    stats.add(sim.diagnostics());
  }
  EXPECT_GT(stats.substepSplits, 0);
  EXPECT_EQ(stats.unconvergedProjections, 0);
  EXPECT_LE(stats.constraintErrorMax, settings.projection.tolerance);
  // The velocity level only loses energy (it has no gravity here): impulses remove the motion
  // normal to the constraints, and a split substep does not add any.
  EXPECT_LE(stats.energyFinal, stats.energyInitial);
  EXPECT_GT(stats.energyFinal, 0.1 * stats.energyInitial);
}

// One particle on three rods to three anchors that no point can satisfy at once (anchors 3 m
// apart, rods 1.2 m): the projection stalls, says so, does not split (halving cannot help), and
// the simulation goes on from a finite state.
TEST(ExactProjection, ReportsAnInconsistentModelWithoutSplitting) {
  Model model(2);
  const BodyId p = model.addParticle(1.0, Eigen::Vector2d(1.5, 1.0));
  for (const Eigen::Vector2d& anchor : {Eigen::Vector2d(0, 0), Eigen::Vector2d(3, 0), Eigen::Vector2d(1.5, 2.6)}) {
    model.addConstraint(std::make_unique<DistanceConstraint>(p, anchor, 1.2));
  }
  SimulationSettings settings = exactSettings(0.01);
  settings.solver.regularization = 1e-9;  // three rows on two coordinates
  Simulator sim(model, settings);
  for (int i = 0; i < 5; ++i) {
    sim.step();
    const StepDiagnostics& d = sim.diagnostics();
    EXPECT_FALSE(d.projectionConverged) << "step " << i + 1;
    EXPECT_EQ(d.substepSplits, 0) << "step " << i + 1;
    EXPECT_GT(d.constraintError, 0.1);
    EXPECT_TRUE(model.q().allFinite());
  }
}

// cloth-16 of the benchmark swings through its bottom fast enough that some substeps' solves,
// linearized at the substep's start, do positive work through the rods: the energy safeguard
// redoes them at the predicted state (tests/physics/energy_safeguard_test.cpp shows it stays
// quiet for motors, springs and kinematic bodies), and the cloth stays exact.
TEST(ExactProjection, TheEnergySafeguardCatchesAWhippingCloth) {
  const bench::Scenario scenario = bench::clothScenario(16);
  Model model = bench::tinkertoyModel(scenario);
  Simulator sim(model, exactSettings(scenario.dt));
  RunStatistics stats(sim.diagnostics());
  int redone = 0;
  for (int i = 0; i < 1200; ++i) {
    sim.step();
    stats.add(sim.diagnostics());
    redone += sim.diagnostics().relinearizedSolves;
  }
  EXPECT_GT(redone, 0);
  EXPECT_LE(stats.constraintErrorMax, 1e-8 * scenario.length);
}

}  // namespace
}  // namespace tinkertoy
