// The work ledger (dynamics/work_ledger.hpp): each source's entry against what it must be, and
// E(t) − E(0) − W(t) as the numerical error.
//
//   1  a damped spring's ledger is its closed-form dissipation
//   2  a conservative model's ledger is empty, so its error is its drift
//   3  a body resting on a joint gets no impulse work, step after step
//   4  a motor's work is the kinetic energy it gave a free wheel
//   5  a driven crank: the driven constraint's work accounts for the energy it changes
//   6  the mouse is outside the model: its work balances the model's energy
//   7  the velocity level's numerical error shrinks with the step
//   8  a kinematic belt's friction: what the belt put in is driven work, m v², half of it lost
#include <cmath>
#include <filesystem>

#include "physics/rigid_models.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::test {
namespace {

RunStatistics run(Simulator& sim, int steps) {
  RunStatistics stats(sim.diagnostics());
  for (int n = 0; n < steps; ++n) {
    sim.step();
    stats.add(sim.diagnostics());
  }
  return stats;
}

double everyEntryBut(const WorkLedger& ledger, WorkSource source) {
  double sum = 0.0;
  for (std::size_t k = 0; k < kWorkSources; ++k) {
    if (WorkSource(k) != source) sum += std::abs(ledger.work[k]);
  }
  return sum;
}

// 1. A particle (m = 1 kg) on a spring (k = 40 N/m, c = 0.8 N·s/m, rest 1 m) anchored at the
// origin, stretched by u₀ = 0.5 m along x and let go; no gravity. It stays on the x axis at
// x = 1 + u, with ü = −(k/m) u − (c/m) u̇: underdamped, ω₀ = √(k/m), ζ = c / (2√(km)) = 0.063,
// ω_d = ω₀ √(1 − ζ²), and
//   u(t) = e^(−ζω₀t) (u₀ cos ω_d t + (ζω₀u₀/ω_d) sin ω_d t)
// so the energy it lost by t is E(t) − E(0) with E = ½ m u̇² + ½ k u². The ledger sums the
// damping's power P = −c u̇² by the trapezoid rule, whose error over [0, t] is, to leading
// order, (h²/12)(Ṗ(t) − Ṗ(0)): at most (h²/6) max|Ṗ| = (h²/6) 2c max|u̇ ü| ≈ 1.7e-5 J along the
// way (Ṗ(0) = 0, and at T = 3 s the swing has decayed to a third, so 1e-6 J there). RK4's own
// error is far smaller. Bounds: 1e-6 J at T against a dissipation of 2.8 J, 2e-5 J throughout.
TEST(WorkLedger, ADampedSpringsLedgerIsItsClosedFormDissipation) {
  const double m = 1.0, k = 40.0, c = 0.8, u0 = 0.5, h = 1e-3, T = 3.0;
  Model model(2);
  const BodyId p = model.addParticle(m, Eigen::Vector2d(1.0 + u0, 0.0), Eigen::Vector2d::Zero());
  model.addForce(std::make_unique<Spring>(p, Eigen::Vector2d::Zero(),
                                          SpringParameters{.stiffness = k, .damping = c, .rest_length = 1.0}));
  Simulator sim(model, accelerationLevel(h));
  const RunStatistics stats = run(sim, static_cast<int>(std::lround(T / h)));

  const double w0 = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m)), wd = w0 * std::sqrt(1.0 - zeta * zeta);
  const double t = model.time(), decay = std::exp(-zeta * w0 * t);
  const double u = decay * (u0 * std::cos(wd * t) + zeta * w0 * u0 / wd * std::sin(wd * t));
  const double du = -decay * (w0 * w0 * u0 / wd) * std::sin(wd * t);
  const double dissipated = 0.5 * m * du * du + 0.5 * k * u * u - 0.5 * k * u0 * u0;
  report("damped_spring_ledger_error_J", std::abs(stats.work[WorkSource::Damping] - dissipated));
  EXPECT_LT(dissipated, -2.0);
  EXPECT_NEAR(stats.work[WorkSource::Damping], dissipated, 1e-6);
  EXPECT_EQ(everyEntryBut(stats.work, WorkSource::Damping), 0.0);
  EXPECT_LT(stats.energyErrorMax, 2e-5);
  EXPECT_GT(stats.energyDriftMax, 2.0);
}

// 2. A physical pendulum swinging under gravity on a hinge at the acceleration level: nothing
// in it does work, so every entry is exactly zero and the error is the drift itself.
TEST(WorkLedger, AConservativeModelsLedgerIsEmpty) {
  Model model(2);
  const Shape rod = Shape::box(1.0, 0.1);
  const BodyId body = addRigid(model, 1.0, rod.inertia(1.0), rod, Eigen::Vector3d(0.5, 0.0, 0.0));
  model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, body, Eigen::Vector2d::Zero())));
  addGravity(model);
  Simulator sim(model, accelerationLevel(1e-3));
  const RunStatistics stats = run(sim, 2000);
  for (double w : stats.work.work) EXPECT_EQ(w, 0.0);
  EXPECT_EQ(stats.energyErrorMax, stats.energyDriftMax);
  EXPECT_GT(std::abs(stats.energyFinal - stats.energyInitial), 0.0);  // the run did something
}

// 3. The same rod hanging straight down at rest, at the velocity level: each substep gravity's
// kick gives it a downward velocity that the hinge's impulse cancels. Kinetic energy comes and
// goes, but no energy changes hands, so the impulses' entry must stay zero (a measure of the
// impulse's own ΔK would book −½ h² m g² per substep: −4.8e-3 J over this run).
TEST(WorkLedger, ABodyAtRestOnAJointGetsNoImpulseWork) {
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const Shape rod = Shape::box(0.1, 1.0);
    const BodyId body = addRigid(model, 1.0, rod.inertia(1.0), rod, Eigen::Vector3d(0.0, -0.5, 0.0));
    model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, body, Eigen::Vector2d::Zero())));
    addGravity(model);
    Simulator sim(model, velocityLevel(1.0 / 60.0, variant, 4));
    const RunStatistics stats = run(sim, 600);
    EXPECT_LT(std::abs(stats.work[WorkSource::Impulses]), 1e-9) << variant.name;
    EXPECT_LT(stats.energyErrorMax, 1e-9) << variant.name;
  }
}

// 4. The disk of rigid_limits_test's motor test (I = 0.25 kg m², pinned at its center, no
// gravity) spun up from rest by a motor (ω = 3 rad/s, T = 0.5 N·m): all the kinetic energy it
// ends with, ½ I ω² = 1.125 J, came from the motor, and the pin at the center does nothing.
TEST(WorkLedger, AMotorsWorkIsTheEnergyItGaveAFreeWheel) {
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const Shape disk = Shape::circle(0.5);
    const BodyId wheel = addRigid(model, 2.0, disk.inertia(2.0), disk, Eigen::Vector3d::Zero());
    model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, wheel, Eigen::Vector2d::Zero()), 0.0,
                                                        JointLimits{}, JointMotor{.speed = 3.0, .maxForce = 0.5}));
    Simulator sim(model, velocityLevel(1e-3, variant));
    const RunStatistics stats = run(sim, 2000);
    EXPECT_NEAR(stats.work[WorkSource::Motors], 0.5 * 0.25 * 3.0 * 3.0, 1e-9) << variant.name;
    EXPECT_LT(std::abs(stats.work[WorkSource::Impulses]), 1e-12) << variant.name;
    EXPECT_LT(stats.energyErrorMax, 1e-9) << variant.name;
  }
}

// 5. The shipped crank: a point driven round a circle drags a rod about, at the acceleration
// level with RK4. The driven constraint puts in and takes out several joules; once its work is
// counted, what is left is RK4's error plus the trapezoid rule's, O(h²) = 1e-6 of it.
TEST(WorkLedger, ADrivenConstraintsWorkAccountsForTheEnergyItChanges) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "crank.json");
  Simulator sim(scene.model, scene.settings);
  const RunStatistics stats = run(sim, static_cast<int>(std::lround(2.0 / scene.settings.dt)));
  report("crank_energy_error_J", stats.energyErrorMax);
  EXPECT_GT(std::abs(stats.work[WorkSource::Driven]), 1.0);
  EXPECT_GT(stats.energyDriftMax, 1.0);
  EXPECT_LT(stats.energyErrorMax, 1e-4 * stats.energyDriftMax);
}

// 6. A particle under gravity pulled by the mouse spring toward a fixed point: the spring is
// the user's hand, not the model's, so its energy is not in V and its work is the mouse entry.
// The model's energy swings by some 30 J; what the ledger leaves is the trapezoid rule's error,
// at most (h²/6) max|dP/dt| with P = f·v changing at up to k|v|² + |f||a| ≈ 5000 W/s here:
// 8e-4 J. Bound: 1.5e-3 J.
TEST(WorkLedger, TheMouseIsOutsideTheModel) {
  Model model(2);
  const BodyId p = model.addParticle(1.0, Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 0.0));
  const ForceId mouse = model.addForce(std::make_unique<MouseSpring>(p, Eigen::Vector2d(1.0, 1.0), 50.0, 2.0));
  addGravity(model);
  EXPECT_EQ(model.force(mouse).potentialEnergy(model.bodies(), {0.0, model.q(), model.v()}), 0.0);
  Simulator sim(model, accelerationLevel(1e-3));
  const RunStatistics stats = run(sim, 2000);
  EXPECT_GT(std::abs(stats.work[WorkSource::Mouse]), 1.0);
  EXPECT_EQ(everyEntryBut(stats.work, WorkSource::Mouse), 0.0);
  EXPECT_GT(stats.energyDriftMax, 10.0);
  EXPECT_LT(stats.energyErrorMax, 1.5e-3);
}

// 7. The physical pendulum let go from horizontal at the velocity level (global solve with
// projection): the impulses take energy out, and what is left is symplectic Euler's error,
// first order in h: a quarter of the step leaves about a quarter of it (ratio ≥ 3 asked).
TEST(WorkLedger, TheVelocityLevelsNumericalErrorShrinksWithTheStep) {
  auto errorWith = [](int substeps) {
    Model model(2);
    const Shape rod = Shape::box(1.0, 0.1);
    const BodyId body = addRigid(model, 1.0, rod.inertia(1.0), rod, Eigen::Vector3d(0.5, 0.0, 0.0));
    model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, body, Eigen::Vector2d::Zero())));
    addGravity(model);
    Simulator sim(model, velocityLevel(1.0 / 60.0, kLdltProjection, substeps));
    const RunStatistics stats = run(sim, 120);
    EXPECT_LT(stats.work[WorkSource::Impulses], 0.0);
    return stats.energyErrorMax;
  };
  const double coarse = errorWith(2), fine = errorWith(8);
  report("velocity_level_error_ratio", coarse / fine);
  EXPECT_GT(coarse / fine, 3.0);
}

// 8. A box (m = 2 kg, μ = 0.5) set at rest on a kinematic belt that runs at V = 3 m/s: friction
// drags it up to the belt's speed in V / (μ g) = 0.61 s. The belt moves its side of the contact
// at V throughout, so it puts in F · V t = m V² (its force m μ g for that time), of which the box
// keeps ½ m V² and sliding loses the other half: the ledger's driven entry is m V² = 18 J and its
// impulses' −½ m V² = −9 J (measured 18.000 and −9.002: the last substep of sliding overshoots a
// little), and what the ledger leaves of the model's energy change is the step's own error
// (measured 6e-5 J; before kinematic bodies' contacts were booked, all 9 J of it).
TEST(WorkLedger, AKinematicBeltsWorkIsDrivenAndHalfOfItIsLostToSliding) {
  constexpr double kMass = 2.0, kBelt = 3.0;
  Scene scene = parseScene(R"({"dimension": 2, "gravity": [0, -9.81],
    "settings": {"dt": 0.016666666666666666, "formulation": "velocity", "solver": "sequential", "iterations": 1,
                 "substeps": 4, "position_correction": "soft", "collisions": true, "friction": 0.5},
    "bodies": [
      {"id": "belt", "type": "rigid", "mass": 1, "position": [0, -0.5], "kinematic": true, "velocity": [3, 0],
       "shape": {"type": "box", "size": [200, 1]}},
      {"id": "box", "type": "rigid", "mass": 2, "position": [0, 0.25], "shape": {"type": "box", "size": [0.5, 0.5]}}]})");
  const BodyId box = *scene.model.findBody("box");
  Simulator sim(scene.model, scene.settings);
  const RunStatistics stats = run(sim, 90);  // 1.5 s: slid for 0.61 s, then carried
  EXPECT_NEAR(scene.model.velocities(box)[0], kBelt, 1e-6);
  EXPECT_NEAR(stats.work[WorkSource::Driven], kMass * kBelt * kBelt, 1e-3 * kMass * kBelt * kBelt);
  EXPECT_NEAR(stats.work[WorkSource::Impulses], -0.5 * kMass * kBelt * kBelt, 1e-3 * kMass * kBelt * kBelt);
  report("belt_energy_error_J", stats.energyErrorMax);
  report("belt_driven_J", stats.work[WorkSource::Driven]);
  report("belt_impulses_J", stats.work[WorkSource::Impulses]);
  EXPECT_LT(stats.energyErrorMax, 2e-4);
}

}  // namespace
}  // namespace tinkertoy::test
