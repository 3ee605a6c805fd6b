// The N-four-bar mechanism (IFToMM / Universidade da Coruña MBS benchmark A02): N four-bar
// windows of 2N + 1 uniform links, 1 m and 1 kg each, under gravity. At the horizontal position
// every link lies on one line and the degrees of freedom jump from 1 to N + 1: J W Jᵀ is
// singular there. The test runs through that configuration about twenty times in 20 s, at eight
// step sizes from 2 ms to 0.1 ms, and holds the first crank's tip within the benchmark's
// high-precision bar (1e-3 m) of the reduced-coordinate reference, with no step changing the
// energy by more than 1e-6 of the total (docs/theory.md, "Singular configurations").
//
// The reference. All cranks stay parallel (the windows are parallelograms), so one angle θ of
// the cranks from +x describes the mechanism. A crank turns about its ground pivot (moment of
// inertia m L²/3 there, center at height ½ L sin θ); a coupler translates with the crank tips
// (speed L θ̇, center at height L sin θ). With N + 1 cranks and N couplers:
//   T = ½ M θ̇²,   M = (N + 1) m L²/3 + N m L²
//   V = K sin θ,  K = m g L ((N + 1)/2 + N)
// so M θ̈ = −K cos θ, from θ = π/2 (cranks vertical), θ̇ = −1 rad/s (the tip B₀ moving at +1 m/s
// along x), integrated by RK4 at a step of at most 1e-5 s (NFourBarReference, bench/n_four_bar_reference.hpp,
// which the accuracy benchmark shares). B₀ = L (cos θ, sin θ).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "n_four_bar_reference.hpp"
#include "physics/rigid_models.hpp"

namespace tinkertoy::test {
namespace {

constexpr double kDuration = 20.0;  // s, the benchmark's

struct NFourBar {
  explicit NFourBar(int n) : windows(n), model(2) {
    const Shape bar = Shape::box(1.0, 0.04);
    const double inertia = 1.0 / 12.0;  // a uniform 1 kg, 1 m rod about its center
    for (int i = 0; i <= n; ++i) {
      cranks.push_back(addRigid(model, 1.0, inertia, bar, Eigen::Vector3d(i, 0.5, pi / 2), Eigen::Vector3d(0.5, 0, -1)));
    }
    for (int i = 0; i < n; ++i) {
      couplers.push_back(addRigid(model, 1.0, inertia, bar, Eigen::Vector3d(i + 0.5, 1, 0), Eigen::Vector3d(1, 0, 0)));
    }
    for (int i = 0; i <= n; ++i) {
      model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, cranks[i], Eigen::Vector2d(i, 0))));
    }
    for (int i = 0; i < n; ++i) {
      model.addConstraint(std::make_unique<RevoluteJoint>(between(model, cranks[i], couplers[i], Eigen::Vector2d(i, 1))));
      model.addConstraint(
          std::make_unique<RevoluteJoint>(between(model, couplers[i], cranks[i + 1], Eigen::Vector2d(i + 1, 1))));
    }
    addGravity(model);
  }

  // B₀, the tip of the first crank.
  [[nodiscard]] Eigen::Vector2d tip() const {
    const Eigen::VectorXd q = model.coordinates(cranks[0]);
    return Eigen::Vector2d(q[0], q[1]) + 0.5 * Eigen::Vector2d(std::cos(q[2]), std::sin(q[2]));
  }

  int windows;
  Model model;
  std::vector<BodyId> cranks, couplers;
};

TEST(NFourBar, StartsOnTheReferenceAndCarriesItsEnergy) {
  NFourBar bar(40);
  Simulator sim(bar.model, accelerationLevel(1e-3));
  const NFourBarReference reference(40);
  EXPECT_EQ(bar.model.constraintCount(), 121u);
  EXPECT_LT((bar.tip() - reference.tip()).norm(), 1e-15);
  EXPECT_LT(sim.diagnostics().constraintError, 1e-15);
  EXPECT_LT(sim.diagnostics().velocityError, 1e-15);
  EXPECT_NEAR(sim.diagnostics().totalEnergy(), reference.energy(), 1e-12 * reference.energy());
}

// The shipped scene is this model at N = 40.
TEST(NFourBar, TheShippedSceneIsTheBenchmark) {
  Scene scene = loadScene(std::string(TINKERTOY_SOURCE_DIR) + "/scenes/benchmarks/n_four_bar.json");
  NFourBar bar(40);
  EXPECT_EQ(scene.duration, kDuration);
  EXPECT_EQ(scene.settings.dt, 1e-3);
  EXPECT_EQ(scene.settings.solver.kind, SolverKind::SparseLdlt);
  EXPECT_EQ(scene.settings.integrator, IntegratorKind::RungeKutta4);
  EXPECT_TRUE(scene.settings.projection.enabled);
  EXPECT_EQ(scene.model.constraintCount(), bar.model.constraintCount());
  ASSERT_EQ(scene.model.q().size(), bar.model.q().size());
  EXPECT_LT((scene.model.q() - bar.model.q()).lpNorm<Eigen::Infinity>(), 1e-15);
  EXPECT_LT((scene.model.v() - bar.model.v()).lpNorm<Eigen::Infinity>(), 1e-15);
  Simulator fromScene(scene.model, scene.settings);
  Simulator built(bar.model, accelerationLevel(1e-3));
  EXPECT_NEAR(fromScene.diagnostics().totalEnergy(), built.diagnostics().totalEnergy(), 1e-12);
}

struct SweepCase {
  int windows;
  double dt;
  IntegratorKind integrator = IntegratorKind::RungeKutta4;
};

class NFourBarSweep : public ::testing::TestWithParam<SweepCase> {};

// RK4 with the default projection and damping, the direct solver (the sweep's 2·10⁵ steps at
// 0.1 ms take CG minutes); and RATTLE at 2 and 1 ms, whose steps across the singular position
// are redone as halves where its position stage does not converge.
TEST_P(NFourBarSweep, StaysOnTheReferenceThroughEverySingularCrossing) {
  const auto [windows, dt, integrator] = GetParam();
  NFourBar bar(windows);
  NFourBarReference reference(windows);
  SimulationSettings settings = accelerationLevel(dt);
  settings.integrator = integrator;
  Simulator sim(bar.model, settings);
  const double total = sim.diagnostics().totalEnergy();
  double energy = total, worstTip = 0.0, worstJump = 0.0;
  int crossings = 0;  // of the simulated mechanism through the horizontal position
  double sine = 1.0;
  const long steps = std::lround(kDuration / dt);
  for (long n = 1; n <= steps; ++n) {
    sim.step();
    reference.advance(dt);
    worstTip = std::max(worstTip, (bar.tip() - reference.tip()).norm());
    worstJump = std::max(worstJump, std::abs(sim.diagnostics().totalEnergy() - energy));
    energy = sim.diagnostics().totalEnergy();
    const double now = std::sin(angleOf(bar.model, bar.cranks[0]));
    crossings += (now > 0) != (sine > 0) ? 1 : 0;
    sine = now;
  }
  std::ostringstream name;
  name << "n" << windows << "_dt" << dt << "_" << integratorName(integrator);
  report(name.str() + "_tip_error_m", worstTip);
  report(name.str() + "_energy_jump_relative", worstJump / total);
  EXPECT_GE(crossings, 15) << "the run should pass the singular (horizontal) position many times";
  EXPECT_LT(worstTip, 1e-3);
  EXPECT_LT(worstJump, 1e-6 * total);
}

// "N20_dt200us" for N = 20 at 0.2 ms with RK4, "N20_dt1000us_rattle" with RATTLE.
std::string sweepName(const ::testing::TestParamInfo<SweepCase>& info) {
  std::ostringstream name;
  name << "N" << info.param.windows << "_dt" << std::lround(info.param.dt * 1e6) << "us";
  if (info.param.integrator != IntegratorKind::RungeKutta4) name << "_" << integratorName(info.param.integrator);
  return name.str();
}

std::vector<SweepCase> sweepCases() {
  std::vector<SweepCase> cases;
  for (int windows : {20, 40}) {
    for (double dt : {2e-3, 1.5e-3, 1e-3, 7.5e-4, 5e-4, 3e-4, 2e-4, 1e-4}) cases.push_back({windows, dt});
    for (double dt : {2e-3, 1e-3}) cases.push_back({windows, dt, IntegratorKind::Rattle});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Benchmark, NFourBarSweep, ::testing::ValuesIn(sweepCases()), sweepName);

}  // namespace
}  // namespace tinkertoy::test
