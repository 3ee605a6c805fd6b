// Long runs at default settings (issue #14): a scene with no settings at all must not drift to
// failure. The simple pendulum of the IFToMM / Universidade da Coruña multibody benchmark
// library (scenes/benchmarks/simple_pendulum_2000s.json: 1 kg, a massless 1 m link, released
// horizontally from rest) must stay within the benchmark's high-precision bar, 1e-3 m, of the
// closed form over its 2000 s.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <numbers>

#include "physics/physics_models.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::test {
namespace {

TEST(DefaultSettings, SimplePendulumHoldsTheHighPrecisionBarOver2000Seconds) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes/benchmarks/simple_pendulum_2000s.json");
  const SimulationSettings defaults;
  ASSERT_EQ(scene.settings.dt, defaults.dt);  // the scene has no settings block
  ASSERT_EQ(scene.settings.integrator, defaults.integrator);
  ASSERT_EQ(scene.settings.projection.enabled, defaults.projection.enabled);
  const BodyId mass = scene.model.bodyAt(0);
  Simulator sim(scene.model, scene.settings);
  const long steps = std::lround(2000.0 / scene.settings.dt);
  double worst = 0.0;
  for (long i = 1; i <= steps; ++i) {
    sim.step();
    if (i % 100 != 0) continue;  // every 0.1 s
    const Eigen::Vector2d x = scene.model.position(mass);
    worst = std::max(worst, (x - exactPendulum(sim.diagnostics().time, std::numbers::pi / 2, 1.0)).norm());
  }
  std::cout << "[ info ] simple pendulum at default settings: max position error over 2000 s = " << worst << " m\n";
  EXPECT_LT(worst, 1e-3);
}

// The velocity level as game engines run it (sequential impulses, Baumgarte, dt = 1 ms) over the same
// 2000 s. Symplectic Euler is first order and its energy error drifts, so it misses even the
// benchmark's low-precision bar, 0.1 m (the control below). The Verlet scheme is second order and
// symmetric, with the position stage iterated until C(q + h v⁺) = C(q) (RATTLE's), so its energy
// error stays in a band of width O(h²) instead of drifting: the largest |E − E₀| over the 2000 s
// may not exceed twice the largest over the first 20 s, and the error that remains is a phase
// error growing like t h² (measured 1.2 cm after 2000 s), well inside the 0.1 m bar.
TEST(VelocityLevel, VerletHoldsTheLowPrecisionBarAndABoundedEnergyOver2000Seconds) {
  constexpr double kLowPrecisionBar = 0.1;  // m
  for (const VelocityScheme scheme : {VelocityScheme::Verlet, VelocityScheme::SymplecticEuler}) {
    Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes/benchmarks/simple_pendulum_2000s.json");
    scene.settings.formulation = FormulationKind::Velocity;
    scene.settings.solver.kind = SolverKind::SequentialImpulses;
    scene.settings.velocity.scheme = scheme;
    const BodyId mass = scene.model.bodyAt(0);
    Simulator sim(scene.model, scene.settings);
    const double E0 = sim.diagnostics().totalEnergy();
    const long steps = std::lround(2000.0 / scene.settings.dt), early = std::lround(20.0 / scene.settings.dt);
    double worst = 0.0, earlyBand = 0.0, band = 0.0;
    for (long i = 1; i <= steps; ++i) {
      sim.step();
      band = std::max(band, std::abs(sim.diagnostics().totalEnergy() - E0));
      if (i == early) earlyBand = band;
      if (i % 100 != 0) continue;  // every 0.1 s
      const Eigen::Vector2d x = scene.model.position(mass);
      worst = std::max(worst, (x - exactPendulum(sim.diagnostics().time, std::numbers::pi / 2, 1.0)).norm());
    }
    std::cout << "[ info ] velocity level, " << velocitySchemeName(scheme) << ": max position error over 2000 s = "
              << worst << " m; max |E - E0| " << earlyBand << " J over 20 s, " << band << " J over 2000 s\n";
    if (scheme == VelocityScheme::Verlet) {
      EXPECT_LT(worst, kLowPrecisionBar);
      EXPECT_LT(band, 2.0 * earlyBand) << "the energy error must stay in its band";
    } else {
      EXPECT_GT(worst, kLowPrecisionBar) << "the control: symplectic Euler misses the bar";
    }
  }
}

// The same pendulum on a rope (a distance joint with only a maximum length, an inequality row)
// under Verlet: the position stage holds the taut rope at its length as it holds a rod, so the
// energy error stays in its band over 200 s: the largest |E − E₀| over the run at most twice
// that over the first 20 s (without the inequality rows in the stage it drifted, 1.6e-5 J at
// 20 s and 1.6e-4 J at 200 s).
TEST(VelocityLevel, VerletRopePendulumKeepsABoundedEnergy) {
  Scene scene = parseScene(R"({"particles": [{"id": "bob", "mass": 1, "position": [1, 0]}],
    "constraints": [{"type": "distance", "a": "bob", "b": [0, 0], "max_length": 1}],
    "settings": {"formulation": "velocity", "solver": "sequential", "velocity_scheme": "verlet", "dt": 0.001}})");
  Simulator sim(scene.model, scene.settings);
  const double E0 = sim.diagnostics().totalEnergy();
  double earlyBand = 0.0, band = 0.0;
  for (long i = 1; i <= 200'000; ++i) {
    sim.step();
    band = std::max(band, std::abs(sim.diagnostics().totalEnergy() - E0));
    if (i == 20'000) earlyBand = band;
  }
  std::cout << "[ info ] rope pendulum, verlet: max |E - E0| " << earlyBand << " J over 20 s, " << band
            << " J over 200 s\n";
  EXPECT_LT(band, 2.0 * earlyBand);
  EXPECT_LT(band, 1e-4) << "the band of a rod's, O(h²)";
}

// What the CLI's warning about an illegal start rests on: which settings pull C back to 0.
TEST(DefaultSettings, CorrectDriftAndSayWhichSettingsDoNot) {
  SimulationSettings s;
  EXPECT_TRUE(s.correctsDrift());  // projection, by default
  s.projection.enabled = false;
  EXPECT_FALSE(s.correctsDrift());
  s.ks = 100.0;
  EXPECT_FALSE(s.correctsDrift());  // ks alone oscillates about C = 0 without settling
  s.kd = 20.0;
  EXPECT_TRUE(s.correctsDrift());
  s.ks = s.kd = 0.0;
  s.integrator = IntegratorKind::Rattle;
  EXPECT_TRUE(s.correctsDrift());
  s.formulation = FormulationKind::Velocity;
  EXPECT_TRUE(s.correctsDrift());  // Baumgarte, by default
  s.velocity.positionCorrection = PositionCorrection::None;
  EXPECT_FALSE(s.correctsDrift());
}

}  // namespace
}  // namespace tinkertoy::test
