// Box2D v3's soft step (PositionCorrection::SoftStep, docs/theory.md, "The soft step") against closed forms,
// with tolerances derived from the substep rate.
//
// Each constraint becomes an implicit spring of frequency f = min(joint hertz, 1/(4h)) and
// damping ratio ζ on C, followed by a rigid relax pass. Two consequences are tested:
//
//   * a hanging rope at rest stretches by exactly what those springs give: at the fixed point
//     each row's accumulated impulse is λ = −h ω² K⁻¹ C (the soft pass's update vanishes), so
//     segment i, holding the mass M_i below it, has C_i = −g M_i K_i / ω², K_i = Σ 1/m of the
//     particles it moves;
//   * a hinged pendulum swings with the closed-form period up to symplectic Euler's error,
//     (ω₀ h)² / 24 relative, and the hinge's compliance, which lengthens the pendulum by the hinge
//     force over the spring's stiffness, about g / ω² (half of that, relative, in the period).
#include <gtest/gtest.h>

#include <numbers>

#include "physics/rigid_models.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/velocity_targets.hpp"

namespace tinkertoy::test {
namespace {

SimulationSettings softStep(int substeps, int iterations = 1) {
  return velocityLevel(1.0 / 60.0, SolverKind::SequentialImpulses, PositionCorrection::SoftStep, substeps, iterations);
}

// The joint spring's ω for a substep of h at the default settings.
double jointOmega(const SimulationSettings& s) {
  const double h = s.dt / s.velocity.substeps;
  return 2.0 * std::numbers::pi * VelocityTargets::softHertz(s.velocity, h);
}

// N particles of mass m hanging straight down from the origin, `spacing` apart, at rest, each
// segment a rod, or a rope (a maximum length: an inequality row, taut here).
struct HangingRope {
  static constexpr int kParticles = 10;
  static constexpr double kMass = 0.5, kSpacing = 0.25;
  Model model{2};
  std::vector<BodyId> particles;
  std::vector<ConstraintId> segments;

  explicit HangingRope(bool slack) {
    for (int i = 0; i < kParticles; ++i) {
      particles.push_back(model.addParticle(kMass, Eigen::Vector2d(0.0, -kSpacing * (i + 1))));
      DistanceConstraintSettings settings{.a = particles.back()};
      if (i == 0) {
        settings.anchor = Eigen::Vector2d::Zero();
      } else {
        settings.b = particles[static_cast<std::size_t>(i - 1)];
      }
      if (slack) {
        settings.maxLength = kSpacing;
      } else {
        settings.length = kSpacing;
      }
      segments.push_back(model.addConstraint(std::make_unique<DistanceConstraint>(settings)));
    }
    addGravity(model);
  }

  // The length of segment i now.
  [[nodiscard]] double length(int i) const {
    const Eigen::Vector2d below = model.coordinates(particles[static_cast<std::size_t>(i)]);
    const Eigen::Vector2d above =
        i == 0 ? Eigen::Vector2d::Zero() : Eigen::Vector2d(model.coordinates(particles[static_cast<std::size_t>(i - 1)]));
    return (below - above).norm();
  }
  // Segment i's stretch at the soft step's fixed point: g M_i K_i / ω².
  [[nodiscard]] static double stretch(int i, double omega) {
    const double below = kMass * (kParticles - i);
    const double K = (i == 0 ? 1.0 : 2.0) / kMass;
    return kGravity * below * K / (omega * omega);
  }
};

TEST(SoftStep, StretchesAHangingRopeByTheClosedForm) {
  for (const bool slack : {false, true}) {
    // Four substeps at 60 Hz: f = 60 Hz; two: f is capped at a quarter of 120 Hz, 30 Hz.
    for (const int substeps : {4, 2}) {
      HangingRope rope(slack);
      const SimulationSettings settings = softStep(substeps);
      Simulator sim(rope.model, settings);
      for (int i = 0; i < 600; ++i) sim.step();
      const double omega = jointOmega(settings);
      double total = 0.0, expected = 0.0;
      for (int i = 0; i < HangingRope::kParticles; ++i) {
        const double stretch = rope.length(i) - HangingRope::kSpacing;
        EXPECT_NEAR(stretch, HangingRope::stretch(i, omega), 1e-6 * HangingRope::stretch(i, omega))
            << "segment " << i << (slack ? ", rope" : ", rods") << ", " << substeps << " substeps";
        total += stretch;
        expected += HangingRope::stretch(i, omega);
      }
      report(std::string("rope stretch, ") + (slack ? "rope, " : "rods, ") + std::to_string(substeps) + " substeps",
             total);
      EXPECT_GT(expected, 1e-3);  // a measurable stretch: 6.8 mm at 60 Hz, 27 mm at 30 Hz
    }
  }
}

// The time between upward zero crossings of the swing angle, averaged over `periods` periods,
// interpolated linearly between steps.
double measuredPeriod(HingedRod& rod, Simulator& sim, int periods) {
  std::vector<double> crossings;
  double previous = rod.swingAngle(), time = 0.0;
  while (static_cast<int>(crossings.size()) <= periods && time < 60.0) {
    sim.step();
    const double now = rod.swingAngle();
    const double t = rod.model.time();
    if (previous < 0.0 && now >= 0.0) crossings.push_back(time + (t - time) * (-previous) / (now - previous));
    previous = now;
    time = t;
  }
  if (static_cast<int>(crossings.size()) <= periods) return 0.0;
  return (crossings.back() - crossings.front()) / periods;
}

TEST(SoftStep, SwingsAHingedPendulumWithTheClosedFormPeriod) {
  constexpr double kAmplitude = 0.3;  // rad from the downward vertical
  for (const int substeps : {4, 16}) {
    HingedRod rod(RodOptions{.angle = kAmplitude - std::numbers::pi / 2});
    const SimulationSettings settings = softStep(substeps);
    Simulator sim(rod.model, settings);
    const double period = measuredPeriod(rod, sim, 5);
    const double omega0 = rod.omega0();
    const double exact = 4.0 * std::comp_ellint_1(std::sin(0.5 * kAmplitude)) / omega0;
    // Symplectic Euler lengthens the period by (ω₀ h)² / 24; the hinge's spring lets the rod's
    // center sag by about g / ω² (the hinge force m g over a stiffness m ω²), which moves the
    // period by half that over the equivalent length's derivative ∂ℓ/∂d = 1 − I_c / (m d²)
    // divided by ℓ = I_p / (m d): (1/2)(g/ω²)(2/3)/(2/3) for a uniform rod.
    const double h = settings.dt / substeps;
    const double omega = jointOmega(settings);
    const double bound = std::pow(omega0 * h, 2) / 24.0 + 0.5 * kGravity / (omega * omega);
    report("pendulum period error, " + std::to_string(substeps) + " substeps", std::abs(period - exact) / exact);
    EXPECT_NEAR(period, exact, 2.0 * bound * exact) << substeps << " substeps";
  }
}

TEST(SoftStep, RefusesAGlobalSolve) {
  SimulationSettings settings = softStep(4);
  settings.solver.kind = SolverKind::SparseLdlt;
  EXPECT_THROW(settings.validate(), std::invalid_argument);
  settings = softStep(4);
  settings.velocity.jointHertz = 0.0;
  EXPECT_THROW(settings.validate(), std::invalid_argument);
  settings = softStep(4);
  settings.velocity.jointDampingRatio = -1.0;
  EXPECT_THROW(settings.validate(), std::invalid_argument);
}

}  // namespace
}  // namespace tinkertoy::test
