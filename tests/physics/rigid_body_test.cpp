// Rigid bodies and joints, as whole simulations checked against physics: closed forms where
// they exist (the physical pendulum, a slider on an incline, a pulley, a geared pendulum, the
// hinge force of a falling rod), conservation laws (free flight of a welded pair, a pulley's
// rope length, a gear's angle relation), and the promises of the velocity level (ropes that
// never stretch, limits that hold, motors bounded by their torque, warm starting, breaking).
//
//   1  the physical pendulum against the exact large-amplitude solution, both formulations,
//      and scenes/rigid_pendulum.json
//   2  the velocity level converges to the acceleration level at first order in h
//   3  a rope (distance joints with a maximum only) never stretches, and does go slack
//   4  revolute limits hold, and are reached
//   5  a revolute motor: speed reached at the torque bound; a too-weak motor stalls
//   6  a weld keeps the relative pose of a spinning, thrown pair
//   7  reaction forces: a hanging mass, and the m g / 4 of a rod released horizontally
//   8  warm starting reduces the error of a few sequential-impulse passes
//   9  a joint breaks at the step its closed-form hinge force crosses the limit, once
//  10  a prismatic joint on an incline: g sin α, rotation locked, limits hold
//  11  pulley and gear (angle) joints: conserved quantities and closed forms
//  12  joints between static bodies, and kinematic bodies that drag dynamic ones
//
// Every tolerance is derived in a comment beside its test from the integrator's order, the
// step and the solver's tolerance; measured errors are printed ("[ info ]") and recorded as
// test properties. All runs are short: the whole file runs in well under a second in Release.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "physics/jacobi_elliptic.hpp"
#include "tinkertoy/constraints/angle_joint.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/prismatic_joint.hpp"
#include "tinkertoy/constraints/pulley_joint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/constraints/weld_joint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/model/shape.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::test {
namespace {

using std::numbers::pi;
using Motion = RigidBody::Motion;

constexpr double kGravity = 9.81;

// ---- settings ------------------------------------------------------------------------

SimulationSettings accelerationLevel(double dt, SolverKind solver = SolverKind::SparseLdlt) {
  SimulationSettings s;
  s.dt = dt;
  s.formulation = FormulationKind::Acceleration;
  s.integrator = IntegratorKind::RungeKutta4;
  s.solver.kind = solver;
  return s;
}

SimulationSettings velocityLevel(double dt, SolverKind solver, PositionCorrection correction, int substeps = 1,
                                 int iterations = 10, bool warmStart = true) {
  SimulationSettings s;
  s.dt = dt;
  s.formulation = FormulationKind::Velocity;
  s.solver.kind = solver;
  s.velocity.substeps = substeps;
  s.velocity.iterations = iterations;
  s.velocity.warmStart = warmStart;
  s.velocity.positionCorrection = correction;
  return s;
}

// The two velocity-level set-ups most tests run: the global solve with exact projection, and
// the game-engine default, sequential impulses with Baumgarte.
struct VelocityVariant {
  const char* name;
  SolverKind solver;
  PositionCorrection correction;
};
constexpr VelocityVariant kLdltProjection{"ldlt+projection", SolverKind::SparseLdlt, PositionCorrection::Projection};
constexpr VelocityVariant kSequentialBaumgarte{"sequential+baumgarte", SolverKind::SequentialImpulses,
                                               PositionCorrection::Baumgarte};

SimulationSettings velocityLevel(double dt, const VelocityVariant& variant, int substeps = 1, int iterations = 10) {
  return velocityLevel(dt, variant.solver, variant.correction, substeps, iterations);
}

using NamedSettings = std::vector<std::pair<std::string, SimulationSettings>>;

// The acceleration level (with LDLᵀ, and also CG if `bothSolvers`) at step acceleration, and
// both velocity-level variants at step velocity.
NamedSettings everyFormulation(double acceleration, double velocity, bool bothSolvers) {
  NamedSettings cases = {{"acceleration/ldlt", accelerationLevel(acceleration, SolverKind::SparseLdlt)}};
  if (bothSolvers) cases.emplace_back("acceleration/cg", accelerationLevel(acceleration, SolverKind::ConjugateGradient));
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    cases.emplace_back(std::string("velocity/") + variant.name, velocityLevel(velocity, variant));
  }
  return cases;
}

// Prints a measured quantity and records it as a test property (in the XML report).
void report(const std::string& key, double value) {
  std::ostringstream text;
  text << std::setprecision(3) << std::scientific << value;
  ::testing::Test::RecordProperty(key, text.str());
  std::cout << "[ info ] " << key << " = " << text.str() << "\n";
}

// ---- building models -------------------------------------------------------------------

BodyId addRigid(Model& model, double mass, double inertia, const Shape& shape, const Eigen::Vector3d& pose,
                const Eigen::Vector3d& velocity = Eigen::Vector3d::Zero(), Motion motion = Motion::Dynamic,
                std::string name = {}) {
  return model.addBody(std::make_unique<RigidBody>(mass, inertia, shape, motion), pose, velocity, std::move(name));
}

// The point of `body` at world position `anchor` in its current pose, as a site in its frame
// (what the scene loader does with a joint's anchor).
BodyPoint pointAt(const Model& model, BodyId body, const Eigen::Vector2d& anchor) {
  const Eigen::VectorXd q = model.coordinates(body);
  return {body, Eigen::Vector2d(Eigen::Rotation2Dd(-q[2]) * (anchor - Eigen::Vector2d(q[0], q[1])))};
}

JointConnection toWorld(const Model& model, BodyId a, const Eigen::Vector2d& anchor) {
  return {.a = pointAt(model, a, anchor), .ground = anchor};
}

JointConnection between(const Model& model, BodyId a, BodyId b, const Eigen::Vector2d& anchor) {
  return {.a = pointAt(model, a, anchor), .b = pointAt(model, b, anchor)};
}

double angleOf(const Model& model, BodyId body) { return model.coordinates(body)[2]; }

Eigen::Vector2d worldPoint(const Model& model, const BodyPoint& point) {
  const Eigen::VectorXd x = model.position(point);
  return {x[0], x[1]};
}

Eigen::Vector2d centerOf(const Model& model, BodyId body) { return model.coordinates(body).head<2>(); }

void addGravity(Model& model) { model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kGravity))); }

// A uniform rod of length L and mass m (I = m L² / 12 about its center), hinged at one end to
// the world at the origin and lying at angle θ₀ from +x: the physical pendulum. Its hinge angle
// is the rod's angle θ; measured from the downward vertical it is φ = θ + π/2. About the hinge
// I_p = m L² / 3 and the center is d = L / 2 away, so it swings like a point pendulum of length
// I_p / (m d) = 2L/3: ω₀² = m g d / I_p = 3g / (2L).
struct RodOptions {
  double length = 1.0;
  double mass = 1.0;
  double angle = 0.0;  // θ₀, rad from +x
  JointLimits limits;
  std::optional<JointMotor> motor;
  bool gravity = true;
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
};

struct HingedRod {
  Model model{2};
  BodyId rod;
  ConstraintId hinge;
  double length, mass, referenceAngle;

  explicit HingedRod(const RodOptions& o = {}) : length(o.length), mass(o.mass), referenceAngle(o.angle) {
    const Eigen::Vector2d direction(std::cos(o.angle), std::sin(o.angle));
    const Eigen::Vector2d center = 0.5 * o.length * direction;
    rod = addRigid(model, o.mass, o.mass * o.length * o.length / 12.0, Shape::box(o.length, 0.05),
                   Eigen::Vector3d(center.x(), center.y(), o.angle), o.velocity, Motion::Dynamic, "rod");
    // The scene loader's reference angle: the initial relative angle.
    hinge = model.addConstraint(
        std::make_unique<RevoluteJoint>(toWorld(model, rod, Eigen::Vector2d::Zero()), o.angle, o.limits, o.motor),
        "hinge");
    if (o.gravity) addGravity(model);
  }

  [[nodiscard]] double hingeInertia() const { return mass * length * length / 3.0; }
  [[nodiscard]] double omega0() const { return std::sqrt(mass * kGravity * 0.5 * length / hingeInertia()); }
  // The joint coordinate the limits and motor act on: θ − θ_ref.
  [[nodiscard]] double jointAngle() const { return angleOf(model, rod) - referenceAngle; }
  [[nodiscard]] double swingAngle() const { return angleOf(model, rod) + pi / 2; }  // φ
  [[nodiscard]] double angularVelocity() const { return model.velocities(rod)[2]; }
  [[nodiscard]] Eigen::Vector2d hingeSeparation() const {
    return worldPoint(model, BodyPoint{rod, Eigen::Vector2d(-0.5 * length, 0.0)});
  }
};

// ---- closed forms ----------------------------------------------------------------------

// The exact large-amplitude pendulum θ̈ = −ω₀² sin θ released from rest at φ₀ (angles from the
// downward vertical): sin(φ/2) = k sn(K(k) − ω₀ t, k), k = sin(φ₀/2) (closed_form_test.cpp).
double exactSwing(double t, double phi0, double omega0) {
  const double k = std::sin(0.5 * phi0);
  const double K = std::comp_ellint_1(k);
  return 2.0 * std::asin(k * jacobiElliptic(K - omega0 * t, k * k).sn);
}

// The time the pendulum above first reaches φ (0 ≤ φ ≤ φ₀), inverting sn with the incomplete
// integral F: K − ω₀ t = F(asin(sin(φ/2) / k), k).
double timeToReach(double phi, double phi0, double omega0) {
  const double k = std::sin(0.5 * phi0);
  return (std::comp_ellint_1(k) - std::ellint_1(k, std::asin(std::sin(0.5 * phi) / k))) / omega0;
}

// The hinge force on a uniform rod released horizontally from rest, at swing angle φ. Energy
// gives ω² = (3g/L) cos φ and the torque α = −(3g/2L) sin φ, so the center (d = L/2) accelerates
// by d ω² = (3/2) g cos φ toward the hinge and d α = −(3/4) g sin φ along the swing; m a = F + m g
// then gives the hinge force F = m g (−(5/2) cos φ radially, (1/4) sin φ tangentially):
//   |F| = m g √((25/4) cos² φ + (1/16) sin² φ),   from m g / 4 at release to (5/2) m g at the bottom.
double hingeForce(double phi, double mass) {
  const double c = std::cos(phi), s = std::sin(phi);
  return mass * kGravity * std::sqrt(25.0 / 4.0 * c * c + s * s / 16.0);
}

// ============================================================================================
// 1. The physical pendulum against the closed form
// ============================================================================================

// The rod released horizontally (φ₀ = π/2) swings as a pendulum of length 2L/3. Runs `seconds`
// and returns the largest |φ − φ_exact| at the steps.
double worstSwingError(const SimulationSettings& settings, double seconds, double* worstHinge = nullptr) {
  HingedRod p;
  Simulator sim(p.model, settings);
  const int steps = static_cast<int>(std::lround(seconds / settings.dt));
  double worst = 0.0, hinge = 0.0;
  for (int n = 1; n <= steps; ++n) {
    sim.step();
    const double exact = exactSwing(n * settings.dt, pi / 2, p.omega0());
    worst = std::max(worst, std::abs(std::remainder(p.swingAngle() - exact, 2 * pi)));
    hinge = std::max(hinge, p.hingeSeparation().norm());
  }
  if (worstHinge) *worstHinge = hinge;
  return worst;
}

// Acceleration level, RK4, h = 1e-3. The fastest motion is at the bottom, ω_max = √(3g/L) ≈ 5.4
// rad/s, so h ω_max ≈ 5e-3 and RK4's local error is ≈ (h ω)⁵ / 5! ≈ 4e-14 rad per step; over
// 10⁴ steps (10 s, ≈ 5 periods of 1.93 s), even adding up without cancelling, ≲ 4e-10 rad. The
// LDLᵀ solve is exact to round-off. Bound: 2e-9 rad, 5× that estimate. The hinge is held only
// by C̈ = 0 (no projection, no feedback), so RK4's error in Ċ integrates into a drift of C of
// the same order per unit time: bound 1e-8 m over the 10 s.
TEST(PhysicalPendulum, AccelerationLevelRk4MatchesTheExactSolution) {
  double hinge = 0.0;
  const double worst = worstSwingError(accelerationLevel(1e-3), 10.0, &hinge);
  report("swing_error_rad", worst);
  report("hinge_separation_m", hinge);
  EXPECT_LT(worst, 2e-9);
  EXPECT_LT(hinge, 1e-8);
}

// The same swing at a few isolated times, and the period: the physical pendulum's is
// T = 4 K(sin(φ₀/2)) / ω₀ = 4 K(1/√2) √(2L/3g) ≈ 1.933 s, against 2.37 s for a point mass at the
// rod's end and 1.67 s for one at its center, so a rod simulated with the wrong inertia would
// miss by far more than the tolerance (RK4's, as above: 1e-8 rad). At t = T/4 the rod hangs
// straight down, at T/2 it is horizontal on the other side (φ = −π/2), at T back at the start.
TEST(PhysicalPendulum, ReachesTheOtherSideAtHalfAPeriod) {
  HingedRod p;
  const double h = 1e-3;
  Simulator sim(p.model, accelerationLevel(h));
  const double period = 4.0 * std::comp_ellint_1(std::sin(pi / 4)) / p.omega0();
  EXPECT_NEAR(period, 1.9333, 1e-4);
  // Sample at the steps nearest to T/4, T/2 and T, comparing with the closed form at that step.
  for (const double fraction : {0.25, 0.5, 1.0}) {
    const int target = static_cast<int>(std::lround(fraction * period / h));
    while (static_cast<int>(sim.stepCount()) < target) sim.step();
    const double exact = exactSwing(target * h, pi / 2, p.omega0());
    EXPECT_NEAR(p.swingAngle(), exact, 1e-8) << "at " << fraction << " of a period";
  }
  // The step nearest T is at most h/2 from it, where the rod is at rest at φ = π/2 with
  // |φ̈| = 3g/2L: it is within ½ (3g/2L) (h/2)² ≈ 1.8e-6 rad of horizontal. Bound 1e-5.
  EXPECT_NEAR(p.swingAngle(), pi / 2, 1e-5);
}

// Velocity level, h = 1e-4 (dt = 1e-3, 10 substeps). Symplectic Euler is first order, and its
// leading error is a shift in time: from rest under a constant a, v_n = n h a and
// q_n = h Σ v_k = ½ a (t² + h t) = ½ a (t + h/2)² − a h²/8, so the positions run half a substep
// ahead of the exact motion, and in general φ_n = φ(t_n + h/2) + O(h²). The O(h²) rest is led by
// symplectic Euler's frequency error, ω̃ = ω (1 + (h ω)²/24 + …), whose phase error after t is
// ≈ ω t (h ω)²/24 ≈ 2.7e-7 rad for ω = ω_max = √(3g/L) ≈ 5.42 rad/s over 4 s: bound ε₂ = 1e-6
// rad against the shifted exact solution. Against the unshifted one the error is then
//   |φ_n − φ(t_n)| = (h/2) |φ̇| ± ε₂ ≤ (h/2) ω_max + ε₂ ≈ 2.7e-4 rad,
// reached at the bottom, so it must also be at least (h/2) ω_max − ε₂: the first-order error
// is really there, with the predicted constant. The solve is exact for one body (the 2 × 2 pin
// block is inverted directly), so both solvers must meet these bounds. The hinge stays closed
// to the projection tolerance (1e-12 m) with projection; with Baumgarte, the targets aim at
// C = 0 at the end of the substep through the prediction q + h v*, leaving a third-order
// residual ≈ (h ω_max)³ d ≈ 1e-10 m per substep, of which 20 % is removed per substep: bound 1e-9.
TEST(PhysicalPendulum, VelocityLevelLeadsTheExactSolutionByHalfASubstep) {
  const double dt = 1e-3, seconds = 4.0;
  const int substeps = 10;
  const double h = dt / substeps;
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    HingedRod p;
    const double omegaMax = std::sqrt(3.0 * kGravity / p.length), epsilon2 = 1e-6;
    Simulator sim(p.model, velocityLevel(dt, variant, substeps));
    double plain = 0.0, shifted = 0.0, hinge = 0.0;
    for (int n = 1; n <= static_cast<int>(std::lround(seconds / dt)); ++n) {
      sim.step();
      const double t = n * dt;
      plain = std::max(plain, std::abs(p.swingAngle() - exactSwing(t, pi / 2, p.omega0())));
      shifted = std::max(shifted, std::abs(p.swingAngle() - exactSwing(t + h / 2, pi / 2, p.omega0())));
      hinge = std::max(hinge, p.hingeSeparation().norm());
    }
    report(std::string("swing_error_rad_") + variant.name, plain);
    report(std::string("swing_error_vs_half_substep_later_rad_") + variant.name, shifted);
    report(std::string("hinge_separation_m_") + variant.name, hinge);
    EXPECT_LT(shifted, epsilon2) << variant.name;
    EXPECT_LT(plain, 0.5 * h * omegaMax + epsilon2) << variant.name;
    EXPECT_GT(plain, 0.5 * h * omegaMax - epsilon2) << variant.name;
    EXPECT_LT(hinge, variant.correction == PositionCorrection::Projection ? 1e-11 : 1e-9) << variant.name;
  }
}

// scenes/rigid_pendulum.json is the same rod (inertia given as 1/12, hinge anchored at the world
// origin, acceleration level, RK4, LDLᵀ, dt = 1e-3): loaded through the scene reader, whose
// anchors become sites and whose reference angle is the initial one, it must swing exactly as
// the hand-built rod, within test 1's RK4 bound (2e-9 rad over 4 s).
TEST(PhysicalPendulum, TheRigidPendulumSceneIsThePhysicalPendulum) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "rigid_pendulum.json");
  const std::optional<BodyId> rod = scene.model.findBody("rod");
  ASSERT_TRUE(rod.has_value());
  ASSERT_EQ(scene.settings.formulation, FormulationKind::Acceleration);
  const HingedRod reference;  // for ω₀ of a 1 m, 1 kg rod
  Simulator sim(scene.model, scene.settings);
  double worst = 0.0;
  const double h = scene.settings.dt;
  for (int n = 1; n <= static_cast<int>(std::lround(4.0 / h)); ++n) {
    sim.step();
    const double phi = angleOf(scene.model, *rod) + pi / 2;
    worst = std::max(worst, std::abs(phi - exactSwing(n * h, pi / 2, reference.omega0())));
  }
  report("scene_swing_error_rad", worst);
  EXPECT_LT(worst, 2e-9);
}

// ============================================================================================
// 2. The velocity level converges to the acceleration level at first order
// ============================================================================================

// The swing angle at every outer step (dt = 1e-3) over 2 s.
std::vector<double> swingHistory(const SimulationSettings& settings, double seconds) {
  HingedRod p;
  Simulator sim(p.model, settings);
  std::vector<double> phi;
  const int steps = static_cast<int>(std::lround(seconds / settings.dt));
  for (int n = 1; n <= steps; ++n) {
    sim.step();
    phi.push_back(p.swingAngle());
  }
  return phi;
}

// The reference is the acceleration level with RK4 at h = 1e-3, within 2e-9 rad of the exact
// solution (test 1), far below the velocity level's errors here (≳ 1e-4). The velocity level
// at h = dt / s for s = 2, 4, 8 substeps: a first-order method's error e(h) ≈ c h halves with
// h (here c ≈ ω_max / 2, the half-substep lead of test 1), so log₂(e(h) / e(h/2)) ≈ 1; accepted
// band [0.7, 1.5] (a second-order method would give 2, an error floor from the solver 0).
TEST(FormulationsAgree, VelocityLevelErrorShrinksLinearlyWithTheStep) {
  const double dt = 1e-3, seconds = 2.0;
  const std::vector<double> reference = swingHistory(accelerationLevel(dt), seconds);
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    std::vector<double> errors;
    for (const int substeps : {2, 4, 8}) {
      const std::vector<double> phi = swingHistory(velocityLevel(dt, variant, substeps), seconds);
      double worst = 0.0;
      for (std::size_t i = 0; i < phi.size(); ++i) worst = std::max(worst, std::abs(phi[i] - reference[i]));
      errors.push_back(worst);
      report(std::string("error_vs_acceleration_level_") + variant.name + "_h=" + std::to_string(dt / substeps),
             worst);
    }
    for (std::size_t i = 0; i + 1 < errors.size(); ++i) {
      const double order = std::log2(errors[i] / errors[i + 1]);
      report(std::string("observed_order_") + variant.name + "_" + std::to_string(i), order);
      EXPECT_GT(order, 0.7) << variant.name;
      EXPECT_LT(order, 1.5) << variant.name;
    }
  }
}

// ============================================================================================
// 3. A rope never stretches, and does go slack
// ============================================================================================

// A rope of `count` distance joints with a maximum length only, from the world point at the
// origin through light beads (0.1 kg circles) to a 2 kg weight, hanging straight down and taut
// (each segment exactly at its maximum), at rest, when the weight is kicked up and sideways at
// `kick`: it flies up, the rope folds slack below it, and it falls back and snaps the rope taut,
// the hardest moment for the solver. Segment i joins bead i−1 (the origin for i = 0) to bead i,
// by their centers.
struct Rope {
  Model model{2};
  std::vector<BodyId> beads;  // the last is the weight
  std::vector<ConstraintId> segments;
  double segmentLength;

  Rope(int count, double segment, const Eigen::Vector2d& kick) : segmentLength(segment) {
    for (int i = 1; i <= count; ++i) {
      const bool weight = i == count;
      const double mass = weight ? 2.0 : 0.1, radius = weight ? 0.2 : 0.05;
      const Shape shape = Shape::circle(radius);
      const Eigen::Vector3d velocity = weight ? Eigen::Vector3d(kick.x(), kick.y(), 0.0) : Eigen::Vector3d::Zero();
      beads.push_back(
          addRigid(model, mass, shape.inertia(mass), shape, Eigen::Vector3d(0.0, -i * segment, 0.0), velocity));
    }
    const DistanceSettings rope{.maxLength = segment};
    segments.push_back(
        model.addConstraint(std::make_unique<DistanceConstraint>(BodyPoint{beads[0]}, Eigen::Vector2d(0, 0), rope)));
    for (int i = 1; i < count; ++i) {
      segments.push_back(model.addConstraint(
          std::make_unique<DistanceConstraint>(BodyPoint{beads[i - 1]}, BodyPoint{beads[i]}, rope)));
    }
    addGravity(model);
  }

  // The length of segment i.
  [[nodiscard]] double length(std::size_t i) const {
    const Eigen::Vector2d from = i == 0 ? Eigen::Vector2d::Zero() : centerOf(model, beads[i - 1]);
    return (centerOf(model, beads[i]) - from).norm();
  }
};

struct RopeRun {
  double worstStretch = 0.0;  // max over steps and segments of length − max length, m
  double mostSlack = 0.0;     // max over steps and segments of max length − length, m
  double worstDiagnostic = 0.0;  // max ‖C‖∞ the simulator reported (counts only stretch)
  double reachAfterSlack = 0.0;  // the weight's furthest distance from the anchor once the rope
                                 // had gone 10 cm slack somewhere: the rope snapping taut again
};

RopeRun runRope(const SimulationSettings& settings, double seconds) {
  Rope rope(12, 0.25, Eigen::Vector2d(2.0, 5.0));
  Simulator sim(rope.model, settings);
  RopeRun run;
  const int steps = static_cast<int>(std::lround(seconds / settings.dt));
  for (int n = 1; n <= steps; ++n) {
    sim.step();
    for (std::size_t i = 0; i < rope.segments.size(); ++i) {
      run.worstStretch = std::max(run.worstStretch, rope.length(i) - rope.segmentLength);
      run.mostSlack = std::max(run.mostSlack, rope.segmentLength - rope.length(i));
    }
    run.worstDiagnostic = std::max(run.worstDiagnostic, sim.diagnostics().constraintError);
    if (run.mostSlack > 0.1) run.reachAfterSlack = std::max(run.reachAfterSlack, centerOf(rope.model, rope.beads.back()).norm());
  }
  return run;
}

// The global solve with projection: after every substep the positions are projected onto the
// active rope rows until ‖C‖∞ ≤ the projection tolerance, 1e-12 m (Gauss–Newton converges
// quadratically from the small violation a substep leaves, its targets already aiming at C = 0
// through the prediction, well within the 10 iterations allowed). Distances are recomputed
// here from positions of size ≤ 3 m, with round-off ≈ 1e-15 m. Bound: 1e-12 + 1e-14 m.
TEST(Rope, NeverStretchesWithTheGlobalSolveAndProjection) {
  const SimulationSettings settings = velocityLevel(1.0 / 60, kLdltProjection, 4);
  const RopeRun run = runRope(settings, 4.0);
  report("rope_stretch_m", run.worstStretch);
  report("rope_slack_m", run.mostSlack);
  EXPECT_LE(run.worstStretch, settings.projection.tolerance + 1e-14);
  EXPECT_LE(run.worstDiagnostic, settings.projection.tolerance);
  // The rope went slack somewhere by at least 10 cm (40 % of a segment): the max-only rows
  // really were inequalities, not rods. And afterwards the weight fell back and pulled the
  // rope (3 m in all) nearly straight again.
  EXPECT_GT(run.mostSlack, 0.1);
  report("weight_reach_after_slack_m", run.reachAfterSlack);
  EXPECT_GT(run.reachAfterSlack, 2.8);
}

// Sequential impulses with Baumgarte (the scene's dt = 1/60, 4 substeps, 10 passes) has no
// exact bound: the Gauss–Seidel passes leave a velocity residual that the 12-segment chain,
// with its 20:1 mass ratio at the weight, converges slowly on, and Baumgarte removes only
// β = 20 % of the stretch per substep; the worst moment is the weight snapping the rope taut.
// Measured: ≈ 4.8e-3 m at worst (2 % of a segment). Bound: 1e-2 m (4 % of a segment), which
// still catches a rope that stops holding (unheld, the weight would fall 3 m past it).
TEST(Rope, StaysWithinAMeasuredBoundWithSequentialImpulses) {
  const RopeRun run = runRope(velocityLevel(1.0 / 60, kSequentialBaumgarte, 4), 4.0);
  report("rope_stretch_m", run.worstStretch);
  report("rope_slack_m", run.mostSlack);
  EXPECT_LE(run.worstStretch, 1e-2);
  EXPECT_GT(run.mostSlack, 0.1);
  EXPECT_GT(run.reachAfterSlack, 2.8);
}

// ============================================================================================
// 4. Revolute limits hold, and are reached
// ============================================================================================

// The rod hangs straight down (θ_ref = −π/2) and is kicked at 6 rad/s: unlimited it would swing
// to ±2.2 rad. With limits at ±0.4 rad about the bottom it slams into the upper one, stops
// (limits are inelastic), falls back through the bottom and swings up to the lower one, and so
// on. Returns the worst violation beyond either limit and how close it came to each.
struct LimitRun {
  double worstViolation = 0.0;
  double closestUpper = INFINITY, closestLower = INFINITY;
};

LimitRun runLimitedPendulum(const SimulationSettings& settings, const JointLimits& limits, double seconds) {
  // Center at L/2 along −y moving at ω L/2 along +x: θ̇ = +6 rad/s counter-clockwise.
  HingedRod p({.angle = -pi / 2, .limits = limits, .velocity = Eigen::Vector3d(3.0, 0.0, 6.0)});
  Simulator sim(p.model, settings);
  LimitRun run;
  const int steps = static_cast<int>(std::lround(seconds / settings.dt));
  for (int n = 1; n <= steps; ++n) {
    sim.step();
    const double s = p.jointAngle();
    run.worstViolation = std::max({run.worstViolation, s - limits.upper, limits.lower - s});
    run.closestUpper = std::min(run.closestUpper, std::abs(s - limits.upper));
    run.closestLower = std::min(run.closestLower, std::abs(s - limits.lower));
  }
  return run;
}

void reportLimitRun(const std::string& name, const LimitRun& run) {
  report("limit_violation_rad_" + name, run.worstViolation);
  report("closest_to_upper_rad_" + name, run.closestUpper);
  report("closest_to_lower_rad_" + name, run.closestLower);
}

constexpr JointLimits kBothLimits{.lower = -0.4, .upper = 0.4};

// Sequential impulses with Baumgarte, h = 1e-3. The limit row is linear in θ, so meeting its
// target J v⁺ ≥ −b would land the rod exactly on the limit (C = 0) when it would cross. But the
// limit row and the pin block are relaxed alternately, and the pin's impulse changes θ̇ through
// its lever arm r = L/2. Block Gauss–Seidel on K = J W Jᵀ contracts the limit row's error by
// ρ = K_lp K_pp⁻¹ K_pl / K_ll = 12 r² / (1 + 12 r²) = 3/4 per pass (m = 1, I = 1/12), so 10
// passes leave ρ¹⁰ ≈ 0.056 of the impact: the rod passes the limit by ≈ ρ¹⁰ h θ̇ with θ̇ ≈ 5.8
// rad/s at impact (energy), ≈ 3.3e-4 rad, which Baumgarte then removes at 20 % per substep.
// Bound: 5e-4 rad. (The impact is a physical requirement of an inelastic limit; a solver that
// ignored the limit would pass it by more than 1 rad.) It must come within 1e-3 rad of both
// limits: it stops on the upper one, and reaches the lower one with the energy the upper
// impact left, exactly enough to return to the same height.
TEST(RevoluteLimits, HoldAndAreReachedSequentialImpulses) {
  const LimitRun run = runLimitedPendulum(velocityLevel(1e-3, kSequentialBaumgarte), kBothLimits, 3.0);
  reportLimitRun(kSequentialBaumgarte.name, run);
  EXPECT_LT(run.worstViolation, 5e-4);
  EXPECT_LT(run.closestUpper, 1e-3);
  EXPECT_LT(run.closestLower, 1e-3);
}

// The global solve with projection: the active set holds the limit row at the limit, and the
// projection includes it, so the limit holds to the projection tolerance (1e-12) plus round-off
// in θ (≈ 1e-16): bound 1e-11 rad. With one limit only (upper, +0.4 rad): the rod stops on it,
// falls back, swings over to ≈ −0.4 rad and returns to it, again and again.
TEST(RevoluteLimits, OneLimitHoldsWithTheGlobalSolve) {
  const LimitRun run =
      runLimitedPendulum(velocityLevel(1e-3, kLdltProjection), JointLimits{.upper = kBothLimits.upper}, 3.0);
  reportLimitRun(std::string(kLdltProjection.name) + "_upper_only", run);
  EXPECT_LT(run.worstViolation, 1e-11);
  EXPECT_LT(run.closestUpper, 1e-3);
}

// The same rod with both limits under the global velocity solve. The lower and upper limit rows
// have Jacobians [0 0 1] and [0 0 −1]: if both took part in one solve, J_B W J_Bᵀ would be
// singular and LDLᵀ would throw; the active set starts with the inequality rows held out.
// Bounds as for one limit: 1e-11 rad, and both limits reached.
TEST(RevoluteLimits, BothLimitsHoldWithTheGlobalSolve) {
  LimitRun run;
  ASSERT_NO_THROW(run = runLimitedPendulum(velocityLevel(1e-3, kLdltProjection), kBothLimits, 3.0));
  reportLimitRun(kLdltProjection.name, run);
  EXPECT_LT(run.worstViolation, 1e-11);
  EXPECT_LT(run.closestUpper, 1e-3);
  EXPECT_LT(run.closestLower, 1e-3);
}

// The global solve with CG in place of LDLᵀ (CG tolerates the redundant pair of limit rows in
// any case: its Krylov iterates stay in the range of J W Jᵀ); CG converges to its 1e-10
// relative residual, and the projection then holds the limits to 1e-12: bound 1e-11 rad.
TEST(RevoluteLimits, BothLimitsHoldWithConjugateGradients) {
  const LimitRun run = runLimitedPendulum(
      velocityLevel(1e-3, SolverKind::ConjugateGradient, PositionCorrection::Projection), kBothLimits, 3.0);
  reportLimitRun("cg+projection", run);
  EXPECT_LT(run.worstViolation, 1e-11);
  EXPECT_LT(run.closestUpper, 1e-3);
  EXPECT_LT(run.closestLower, 1e-3);
}

// ============================================================================================
// 5. Motors
// ============================================================================================

// A disk (m = 2 kg, r = 0.5 m, I = ½ m r² = 0.25 kg m²) pinned at its center, no gravity, with
// a motor of target ω = 3 rad/s and at most T = 0.5 N·m. The motor row's impulse per substep is
// bounded by T h, and the pin (at the center) has no lever arm, so the disk spins up at exactly
// α = T / I = 2 rad/s² until it reaches ω at t = 1.5 s, then holds it: after n substeps
//   ω_n = min(ω, n h T / I)
// exactly, up to the round-off of adding n impulses (≈ n ε ω ≈ 1e-13 rad/s). Bound: 1e-10
// rad/s, which also leaves room for a global solve that regularizes its bounded rows by a
// relative 1e-9 (≈ 1e-9 of the last increment T h / I = 2e-3 rad/s).
TEST(Motor, SpinsUpAtItsTorqueBoundAndHoldsItsSpeed) {
  const double mass = 2.0, radius = 0.5, omega = 3.0, torque = 0.5, h = 1e-3;
  const Shape disk = Shape::circle(radius);
  const double inertia = disk.inertia(mass);
  ASSERT_DOUBLE_EQ(inertia, 0.25);
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const BodyId wheel = addRigid(model, mass, inertia, disk, Eigen::Vector3d::Zero());
    model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, wheel, Eigen::Vector2d::Zero()), 0.0,
                                                        JointLimits{}, JointMotor{.speed = omega, .maxForce = torque}));
    Simulator sim(model, velocityLevel(h, variant));
    double worst = 0.0;
    for (int n = 1; n <= 2000; ++n) {
      sim.step();
      const double expected = std::min(omega, n * h * torque / inertia);
      worst = std::max(worst, std::abs(model.velocities(wheel)[2] - expected));
    }
    report(std::string("motor_speed_error_rad_per_s_") + variant.name, worst);
    EXPECT_LT(worst, 1e-10) << variant.name;
    EXPECT_NEAR(model.velocities(wheel)[2], omega, 1e-10) << variant.name;
    EXPECT_LT(centerOf(model, wheel).norm(), 1e-12) << variant.name << ": the pinned center moved";
  }
}

// The same disk and motor (ω = 3 rad/s, T = 0.5 N·m, α = T / I = 2 rad/s²) with an upper limit
// at 0.6 rad, which it reaches at t = √(2 · 0.6 / α) ≈ 0.77 s, still accelerating. Until then
// θ_n = h² α n (n + 1) / 2 exactly (symplectic Euler, as for the incline); the limit row is
// linear in θ, so the disk lands on 0.6 rad and stays there, at rest, the motor pushing with
// all of T and the limit pushing back with as much: the motor row's λ is T, the limit row's T,
// and the net couple on the disk is 0. The motor and the limit act on the same coordinate, so
// they cannot both meet their targets; the solver must settle on this, not on a compromise.
// (Against the committed engine the global LDLᵀ solve threw at step 1 here: the limit row and
// the motor row, both [0 0 ±1], made J_B W J_Bᵀ singular.)
// Sequential impulses: the limit row comes before the motor row in each pass, and the motor's
// accumulated impulse is already at its clamp T h after the first pass, so the passes end
// exact. Bounds: round-off, 1e-11 (rad, rad/s) and 1e-9 T for the torques.
TEST(Motor, DrivesIntoItsLimitAndIsHeldThere) {
  const double mass = 2.0, radius = 0.5, omega = 3.0, torque = 0.5, upper = 0.6, h = 1e-3;
  const Shape disk = Shape::circle(radius);
  const double inertia = disk.inertia(mass), alpha = torque / inertia;
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const BodyId wheel = addRigid(model, mass, inertia, disk, Eigen::Vector3d::Zero());
    const ConstraintId joint = model.addConstraint(
        std::make_unique<RevoluteJoint>(toWorld(model, wheel, Eigen::Vector2d::Zero()), 0.0,
                                        JointLimits{.upper = upper}, JointMotor{.speed = omega, .maxForce = torque}));
    Simulator sim(model, velocityLevel(h, variant));
    double worstFree = 0.0, furthest = -INFINITY;
    for (int n = 1; n <= 1500; ++n) {
      ASSERT_NO_THROW(sim.step()) << variant.name << ", step " << n;
      const double free = h * h * alpha * n * (n + 1) / 2;
      if (free < upper) worstFree = std::max(worstFree, std::abs(angleOf(model, wheel) - free));
      furthest = std::max(furthest, angleOf(model, wheel));
    }
    const auto lambda = sim.lambda(joint);  // pin x, pin y, upper limit, motor
    report(std::string("motor_into_limit_free_error_rad_") + variant.name, worstFree);
    report(std::string("motor_into_limit_past_limit_rad_") + variant.name, furthest - upper);
    report(std::string("motor_into_limit_final_speed_rad_per_s_") + variant.name, model.velocities(wheel)[2]);
    EXPECT_LT(worstFree, 1e-11) << variant.name;
    EXPECT_LT(furthest - upper, 1e-11) << variant.name;
    EXPECT_NEAR(angleOf(model, wheel), upper, 1e-11) << variant.name;
    EXPECT_NEAR(model.velocities(wheel)[2], 0.0, 1e-11) << variant.name;
    ASSERT_EQ(lambda.size(), 4u);
    EXPECT_NEAR(lambda[3], torque, 1e-9 * torque) << variant.name << ": the motor should push with all it has";
    EXPECT_NEAR(lambda[2], torque, 1e-9 * torque) << variant.name << ": the limit should push back as much";
    EXPECT_NEAR(sim.reaction(joint).torque, 0.0, 1e-9 * torque) << variant.name;
  }
}

// The hinged rod held horizontal against gravity needs m g L/2 = 4.905 N·m; a motor asking for
// +1 rad/s (upward) with only T = 2 N·m cannot hold it. The rod falls, the motor stays
// saturated, and its reaction torque on the rod is exactly +T (the motor row's λ is its
// impulse / h, clamped at T h; the pin rows give no couple). At release the rod accelerates at
// α = (T − m g L/2) / I_p exactly (= −8.7 rad/s²), so after the first step
// θ̇ = α h to round-off.
TEST(Motor, TooWeakToHoldTheLoadNeverReachesItsSpeed) {
  const double torque = 2.0, speed = 1.0, h = 1e-3;
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    HingedRod p({.motor = JointMotor{.speed = speed, .maxForce = torque}});
    Simulator sim(p.model, velocityLevel(h, variant));
    const double alpha0 = (torque - p.mass * kGravity * 0.5 * p.length) / p.hingeInertia();
    double fastest = -INFINITY, worstTorque = 0.0;
    for (int n = 1; n <= 500; ++n) {
      sim.step();
      if (n == 1) {
        EXPECT_NEAR(p.angularVelocity(), alpha0 * h, 1e-12) << variant.name;
      }
      fastest = std::max(fastest, p.angularVelocity());
      worstTorque = std::max(worstTorque, std::abs(sim.reaction(p.hinge).torque - torque));
    }
    report(std::string("motor_torque_error_Nm_") + variant.name, worstTorque);
    EXPECT_LT(fastest, 0.0) << variant.name << ": the rod should only ever fall";
    EXPECT_LT(p.jointAngle(), -0.5) << variant.name;
    EXPECT_LT(worstTorque, 1e-9 * torque) << variant.name;
  }
}

// ============================================================================================
// 6. A weld keeps the relative pose
// ============================================================================================

// Two boxes welded at a shared point, thrown upward while spinning at 3 rad/s about their joint
// center of mass, under gravity. The weld must hold the relative pose; and since its forces are
// internal, the pair's center of mass must fly the parabola X₀ + V t + ½ g t² and its angular
// momentum about that center must stay constant.
struct WeldedPair {
  Model model{2};
  BodyId a, b;
  ConstraintId weld;
  BodyPoint siteA, siteB;
  double massA = 1.0, massB = 2.0, inertiaA = 0.0, inertiaB = 0.0, reference = 0.0;
  Eigen::Vector2d center0, velocity0 = Eigen::Vector2d(1.0, 4.0);
  double spin = 3.0;

  WeldedPair() {
    const Shape boxA = Shape::box(1.0, 0.2), boxB = Shape::box(0.4, 0.6);
    inertiaA = boxA.inertia(massA);
    inertiaB = boxB.inertia(massB);
    const Eigen::Vector2d cA(0.0, 0.0), cB(0.6, 0.2);
    const double thetaA = 0.1, thetaB = -0.4;
    center0 = (massA * cA + massB * cB) / (massA + massB);
    // A rigid motion of the pair: v_i = V + ω ẑ × (c_i − X).
    const auto rigid = [&](const Eigen::Vector2d& c) {
      const Eigen::Vector2d r = c - center0;
      return Eigen::Vector3d(velocity0.x() - spin * r.y(), velocity0.y() + spin * r.x(), spin);
    };
    a = addRigid(model, massA, inertiaA, boxA, Eigen::Vector3d(cA.x(), cA.y(), thetaA), rigid(cA));
    b = addRigid(model, massB, inertiaB, boxB, Eigen::Vector3d(cB.x(), cB.y(), thetaB), rigid(cB));
    const JointConnection link = between(model, a, b, Eigen::Vector2d(0.45, 0.1));
    siteA = link.a;
    siteB = *link.b;
    reference = thetaA - thetaB;
    weld = model.addConstraint(std::make_unique<WeldJoint>(link, reference), "weld");
    addGravity(model);
  }

  [[nodiscard]] double positionError() const { return (worldPoint(model, siteA) - worldPoint(model, siteB)).norm(); }
  [[nodiscard]] double angleError() const {
    return std::abs(std::remainder(angleOf(model, a) - angleOf(model, b) - reference, 2 * pi));
  }
  [[nodiscard]] Eigen::Vector2d center() const {
    return (massA * centerOf(model, a) + massB * centerOf(model, b)) / (massA + massB);
  }
  // Angular momentum about the pair's center of mass: Σ I ω + m (r × v) with r, v relative.
  [[nodiscard]] double angularMomentum() const {
    const Eigen::Vector2d X = center();
    const Eigen::Vector2d V = (massA * model.velocities(a).head<2>() + massB * model.velocities(b).head<2>()) /
                              (massA + massB);
    double L = 0.0;
    for (const auto& [body, m, I] : {std::tuple{a, massA, inertiaA}, std::tuple{b, massB, inertiaB}}) {
      const Eigen::VectorXd q = model.coordinates(body), v = model.velocities(body);
      const Eigen::Vector2d r = q.head<2>() - X, u = v.head<2>() - V;
      L += I * v[2] + m * (r.x() * u.y() - r.y() * u.x());
    }
    return L;
  }
};

// Acceleration level, RK4, h = 1e-3, 2 s. The fastest point moves at |V| + ω r ≈ 6 m/s with
// ω = 3 rad/s, h ω = 3e-3: RK4's local error ≈ (h ω)⁵/5! ≈ 2e-15 per step relative, so the
// relative pose, held only by C̈ = 0, drifts ≲ 2000 × 2e-15 × (scale ≈ 1) ≈ 1e-11; bound 1e-9 (m
// and rad). The parabola is a quadratic, which RK4 integrates exactly, and the weld forces
// cancel in the total, so the center of mass is exact to round-off: bound 1e-10 m. The angular
// momentum changes only through the drift of the weld point (a lever arm error ≈ 1e-11 m):
// bound 1e-9 relative.
TEST(Weld, KeepsTheRelativePoseAccelerationLevel) {
  WeldedPair pair;
  const double h = 1e-3;
  Simulator sim(pair.model, accelerationLevel(h));
  const double L0 = pair.angularMomentum();
  double worstPosition = 0.0, worstAngle = 0.0, worstCenter = 0.0, worstMomentum = 0.0;
  for (int n = 1; n <= 2000; ++n) {
    sim.step();
    const double t = n * h;
    const Eigen::Vector2d parabola = pair.center0 + pair.velocity0 * t + 0.5 * Eigen::Vector2d(0, -kGravity) * t * t;
    worstPosition = std::max(worstPosition, pair.positionError());
    worstAngle = std::max(worstAngle, pair.angleError());
    worstCenter = std::max(worstCenter, (pair.center() - parabola).norm());
    worstMomentum = std::max(worstMomentum, std::abs(pair.angularMomentum() / L0 - 1.0));
  }
  report("weld_position_error_m", worstPosition);
  report("weld_angle_error_rad", worstAngle);
  report("center_of_mass_error_m", worstCenter);
  report("angular_momentum_relative_error", worstMomentum);
  EXPECT_LT(worstPosition, 1e-9);
  EXPECT_LT(worstAngle, 1e-9);
  EXPECT_LT(worstCenter, 1e-10);
  EXPECT_LT(worstMomentum, 1e-9);
  // It really spun: more than half a turn in 2 s at 3 rad/s.
  EXPECT_GT(std::abs(angleOf(pair.model, pair.a) - 0.1), pi);
}

// Velocity level, dt = 1/60 with 4 substeps (h = 4.2e-3, h ω = 0.0125). The weld is one 3 × 3
// block, solved exactly by either solver. Its angle row is linear in the state, so the relative
// angle is kept to round-off: bound 1e-11 rad. Its point rows aim, through the prediction
// q + h v*, at C = 0 at the end of the substep; what the linearization misses is the change of J
// over the substep (its θ columns turn by h ω) times the velocity change, ≲ (h ω)³ r ≈ 1e-6 m per
// substep for r ≈ 0.5 m (far less in fact, since a steady spin needs almost no angular impulse).
// Projection removes it to 1e-12 (bound 1e-11 m); Baumgarte removes 20 % per substep, a steady
// state ≲ 1e-6 / 0.2 ≈ 5e-6 m (bound 1e-5 m). The weld's impulses are equal and opposite, so
// the center of mass follows symplectic Euler's parabola exactly,
// X_n = X₀ + V t + ½ g t² + ½ g h t (t = n h): bound 1e-10 m.
TEST(Weld, KeepsTheRelativePoseVelocityLevel) {
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    WeldedPair pair;
    const double dt = 1.0 / 60;
    const int substeps = 4;
    const double h = dt / substeps;
    Simulator sim(pair.model, velocityLevel(dt, variant, substeps));
    double worstPosition = 0.0, worstAngle = 0.0, worstCenter = 0.0;
    for (int n = 1; n <= 120; ++n) {
      sim.step();
      const double t = n * dt;
      const Eigen::Vector2d g(0, -kGravity);
      const Eigen::Vector2d parabola = pair.center0 + pair.velocity0 * t + 0.5 * g * t * t + 0.5 * g * h * t;
      worstPosition = std::max(worstPosition, pair.positionError());
      worstAngle = std::max(worstAngle, pair.angleError());
      worstCenter = std::max(worstCenter, (pair.center() - parabola).norm());
    }
    report(std::string("weld_position_error_m_") + variant.name, worstPosition);
    report(std::string("weld_angle_error_rad_") + variant.name, worstAngle);
    report(std::string("center_of_mass_error_m_") + variant.name, worstCenter);
    EXPECT_LT(worstPosition, variant.correction == PositionCorrection::Projection ? 1e-11 : 1e-5) << variant.name;
    EXPECT_LT(worstAngle, 1e-11) << variant.name;
    EXPECT_LT(worstCenter, 1e-10) << variant.name;
  }
}

// ============================================================================================
// 7. Reaction forces
// ============================================================================================

// A 3 kg box hanging at rest below a revolute joint at its top edge, and a second 3 kg box
// hanging at rest from a distance joint (a rod) at its top corner, so that its center is
// below the anchor. At rest the joint carries the weight exactly: the reaction on the box is
// (0, +m g), and no couple. At the acceleration level λ solves J W Jᵀ λ = −J W Q directly (LDLᵀ
// exact to round-off; CG to its 1e-10 relative residual); at the velocity level the impulse
// of a substep is m g h and λ = impulse / h. Bound: 1e-9 m g for all.
TEST(Reaction, HangingMassAtRestCarriesItsWeight) {
  const double mass = 3.0;
  const double weight = mass * kGravity;
  for (const auto& [name, settings] : everyFormulation(1e-3, 1e-3, true)) {
    Model model(2);
    const Shape box = Shape::box(0.4, 1.0);
    const BodyId pinned = addRigid(model, mass, box.inertia(mass), box, Eigen::Vector3d(0, -0.5, 0));
    const ConstraintId pin =
        model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, pinned, Eigen::Vector2d(0, 0))));
    // The second box hangs from its top-right corner, rotated so that the corner is straight
    // above its center: angle atan(0.2 / 0.5) turns the corner (0.2, 0.5) onto +y.
    const double tilt = std::atan2(0.2, 0.5);
    const BodyId roped = addRigid(model, mass, box.inertia(mass), box, Eigen::Vector3d(3.0, -1.0, tilt));
    const BodyPoint corner{roped, Eigen::Vector2d(0.2, 0.5)};
    const Eigen::Vector2d cornerAt = worldPoint(model, corner);
    ASSERT_NEAR(cornerAt.x(), 3.0, 1e-15);
    const ConstraintId rod = model.addConstraint(
        std::make_unique<DistanceConstraint>(corner, Eigen::VectorXd(cornerAt + Eigen::Vector2d(0, 0.7)), 0.7));
    addGravity(model);
    Simulator sim(model, settings);
    for (int n = 0; n < 5; ++n) sim.step();
    for (const ConstraintId id : {pin, rod}) {
      const Reaction r = sim.reaction(id);
      report("reaction_error_N_" + name + (id == pin ? "_pin" : "_rod"), (r.force - Eigen::Vector2d(0, weight)).norm());
      EXPECT_NEAR(r.force[0], 0.0, 1e-9 * weight) << name;
      EXPECT_NEAR(r.force[1], weight, 1e-9 * weight) << name << ": the joint must hold the box up";
      EXPECT_NEAR(r.torque, 0.0, 1e-9 * weight) << name;
    }
    EXPECT_LT(model.velocities(pinned).norm(), 1e-9) << name << ": it should hang at rest";
  }
}

// The rod released horizontally: at the instant of release the hinge carries only m g / 4
// (hingeForce(π/2), derived above), straight up. The acceleration level's λ is the solve at
// the start of the step, i.e. at the release state itself: exact to round-off. At the velocity
// level the first substep starts at rest, v* = h g, and the pin block (solved exactly) cancels
// the pin's velocity: J W Jᵀ λ h = −J v* is the release-state equation times h, so λ is m g / 4
// to round-off as well. Bound: 1e-9 m g.
TEST(Reaction, RodReleasedHorizontallyFeelsAQuarterOfItsWeight) {
  for (const auto& [name, settings] : everyFormulation(1e-3, 1e-4, false)) {
    HingedRod p;
    Simulator sim(p.model, settings);
    sim.step();
    const Reaction r = sim.reaction(p.hinge);
    const double weight = p.mass * kGravity;
    report("release_reaction_error_N_" + name, (r.force - Eigen::Vector2d(0, weight / 4)).norm());
    EXPECT_NEAR(hingeForce(pi / 2, p.mass), weight / 4, 1e-15);
    EXPECT_NEAR(r.force[0], 0.0, 1e-9 * weight) << name;
    EXPECT_NEAR(r.force[1], weight / 4, 1e-9 * weight) << name;
  }
}

// ============================================================================================
// 8. Warm starting
// ============================================================================================

// chain_of_boxes.json (ten planks pinned end to end, released horizontally; dt = 1/60, 8
// substeps) with only 3 sequential-impulse passes per substep. Ten pins in series need far
// more than 3 Gauss–Seidel passes to converge from zero, so without warm starting most of the
// chain's tension is missing every substep and the pins pull apart; warm started, each
// substep begins from the previous one's (nearly right) impulses. Compared: the largest
// ‖C‖∞ over 3 s. Measured: ≈ 2e-2 m cold, ≈ 4e-4 m warm, a ratio ≈ 55; required: at least 10.
double chainError(bool warmStart) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "chain_of_boxes.json");
  SimulationSettings settings = scene.settings;
  EXPECT_EQ(settings.solver.kind, SolverKind::SequentialImpulses);
  settings.velocity.iterations = 3;
  settings.velocity.warmStart = warmStart;
  Simulator sim(scene.model, settings);
  double worst = 0.0;
  while (scene.model.time() < 3.0) {
    sim.step();
    worst = std::max(worst, sim.diagnostics().constraintError);
  }
  return worst;
}

TEST(WarmStart, ReducesTheErrorOfAFewPasses) {
  const double cold = chainError(false), warm = chainError(true);
  report("chain_error_cold_m", cold);
  report("chain_error_warm_m", warm);
  report("cold_over_warm", cold / warm);
  EXPECT_GT(cold / warm, 10.0);
}

// ============================================================================================
// 9. Breaking joints
// ============================================================================================

// The rod released horizontally with a break force of 1.5 m g on its hinge. The hinge force
// rises from m g / 4 to 5/2 m g as the rod swings down (hingeForce), crossing 1.5 m g at
//   (25/4 − 1/16) cos² φ* = 2.25 − 1/16   ⇒   φ* = acos √(2.1875 / 6.1875) ≈ 0.9339 rad,
// reached at t* = timeToReach(φ*). The acceleration level's λ, and so the reaction checked
// after step n, is the solve at the start of the step, at t_{n−1}: the joint breaks after the
// first step n with t_{n−1} > t*, i.e. n = ⌊t* / h⌋ + 2. (RK4's ≲ 2e-9 rad error moves t* by
// ≲ 2e-9 / φ̇ ≈ 5e-10 s, far less than the distance of t* from a step boundary, which is
// checked to be ≥ 1e-3 h.) The event is reported once, names the hinge, and gives the force the closed form
// predicts at t_{n−1}, to the RK4 error (1e-6 relative). Then the rod flies freely: its center
// accelerates at exactly g (RK4 integrates constant acceleration exactly) and it spins at
// constant ω, to round-off (1e-10).
TEST(Break, HingeBreaksAtTheClosedFormStepOnceAndTheRodFallsFreely) {
  HingedRod p;
  const double h = 1e-3;
  const double breakForce = 1.5 * p.mass * kGravity;
  p.model.setBreakForce(p.hinge, breakForce);
  const double phiStar = std::acos(std::sqrt(2.1875 / 6.1875));
  EXPECT_NEAR(hingeForce(phiStar, p.mass), breakForce, 1e-12);
  const double tStar = timeToReach(phiStar, pi / 2, p.omega0());
  EXPECT_NEAR(exactSwing(tStar, pi / 2, p.omega0()), phiStar, 1e-12);
  const double fraction = tStar / h - std::floor(tStar / h);
  ASSERT_GT(std::min(fraction, 1.0 - fraction), 1e-3) << "t* too close to a step boundary for an exact step";
  const auto expectedStep = static_cast<std::uint64_t>(std::floor(tStar / h)) + 2;

  Simulator sim(p.model, accelerationLevel(h));
  while (sim.breaks().empty() && sim.stepCount() < 2000) sim.step();
  ASSERT_EQ(sim.breaks().size(), 1u) << "the hinge never broke";
  const BreakEvent event = sim.breaks()[0];
  report("t_star_s", tStar);
  report("break_step", static_cast<double>(event.step));
  report("expected_break_step", static_cast<double>(expectedStep));
  EXPECT_EQ(event.step, expectedStep);
  EXPECT_NEAR(event.time, static_cast<double>(event.step) * h, 1e-12);
  EXPECT_EQ(event.constraint, p.hinge);
  EXPECT_FALSE(p.model.isEnabled(p.hinge));
  const double tBefore = static_cast<double>(event.step - 1) * h;
  const double forceThen = hingeForce(exactSwing(tBefore, pi / 2, p.omega0()), p.mass);
  EXPECT_NEAR(event.force / forceThen, 1.0, 1e-6);
  EXPECT_GT(event.force, breakForce);

  // Free flight from here.
  const Eigen::VectorXd v0 = p.model.velocities(p.rod);
  const Eigen::Vector2d x0 = centerOf(p.model, p.rod);
  ASSERT_GT(v0.head<2>().norm(), 1.0) << "the rod should be moving when it breaks";
  double worstVelocity = 0.0, worstPosition = 0.0;
  for (int n = 1; n <= 500; ++n) {
    sim.step();
    const double t = n * h;
    const Eigen::Vector2d g(0, -kGravity);
    const Eigen::VectorXd v = p.model.velocities(p.rod);
    worstVelocity = std::max({worstVelocity, (v.head<2>() - (v0.head<2>() + g * t)).norm(), std::abs(v[2] - v0[2])});
    worstPosition = std::max(worstPosition, (centerOf(p.model, p.rod) - (x0 + v0.head<2>() * t + 0.5 * g * t * t)).norm());
  }
  report("free_flight_velocity_error", worstVelocity);
  report("free_flight_position_error_m", worstPosition);
  EXPECT_EQ(sim.breaks().size(), 1u) << "a broken joint must be reported once";
  EXPECT_LT(worstVelocity, 1e-10);
  EXPECT_LT(worstPosition, 1e-10);
  EXPECT_GT(p.hingeSeparation().norm(), 1.0) << "the rod should have left the hinge";
}

// The same break at the velocity level (sequential impulses, h = dt = 1e-3). λ is the last
// substep's impulse / h, the mean hinge force over the step on a trajectory that runs h/2
// ahead of the exact one (test 1), so the check after step n sees F(t_n) up to O(h) terms: the
// break comes within two steps of t* / h. The force rises by dF/dt · h ≈ 0.08 N per step
// there (dF/dφ ≈ −19 N/rad at φ* times φ̇ ≈ −4.2 rad/s), so the recorded force exceeds the limit
// by less than 0.2 N. After the break there are no constraints: each step adds exactly g h to
// the velocity and keeps ω, and the center follows symplectic Euler's x₀ + v₀ t + g h² k(k+1)/2,
// to round-off (1e-10).
TEST(Break, HingeBreaksOnceAtTheVelocityLevel) {
  HingedRod p;
  const double h = 1e-3;
  const double breakForce = 1.5 * p.mass * kGravity;
  p.model.setBreakForce(p.hinge, breakForce);
  const double tStar = timeToReach(std::acos(std::sqrt(2.1875 / 6.1875)), pi / 2, p.omega0());
  Simulator sim(p.model, velocityLevel(h, kSequentialBaumgarte));
  while (sim.breaks().empty() && sim.stepCount() < 2000) sim.step();
  ASSERT_EQ(sim.breaks().size(), 1u) << "the hinge never broke";
  const BreakEvent event = sim.breaks()[0];
  report("break_step", static_cast<double>(event.step));
  report("t_star_over_h", tStar / h);
  EXPECT_NEAR(static_cast<double>(event.step), tStar / h, 2.0);
  EXPECT_EQ(event.constraint, p.hinge);
  EXPECT_GT(event.force, breakForce);
  EXPECT_LT(event.force, breakForce + 0.2);
  EXPECT_FALSE(p.model.isEnabled(p.hinge));

  const Eigen::VectorXd v0 = p.model.velocities(p.rod);
  const Eigen::Vector2d x0 = centerOf(p.model, p.rod), g(0, -kGravity);
  double worstVelocity = 0.0, worstPosition = 0.0;
  for (int k = 1; k <= 500; ++k) {
    sim.step();
    const Eigen::VectorXd v = p.model.velocities(p.rod);
    const Eigen::Vector2d x = x0 + v0.head<2>() * (k * h) + g * (h * h * k * (k + 1) / 2.0);
    worstVelocity = std::max({worstVelocity, (v.head<2>() - (v0.head<2>() + g * (k * h))).norm(), std::abs(v[2] - v0[2])});
    worstPosition = std::max(worstPosition, (centerOf(p.model, p.rod) - x).norm());
  }
  report("free_flight_velocity_error", worstVelocity);
  report("free_flight_position_error_m", worstPosition);
  EXPECT_EQ(sim.breaks().size(), 1u) << "a broken joint must be reported once";
  EXPECT_LT(worstVelocity, 1e-10);
  EXPECT_LT(worstPosition, 1e-10);
}

// ============================================================================================
// 10. Prismatic joint on an incline
// ============================================================================================

// A 2 kg box (0.4 × 0.2 m, I = 1/30 kg m²), turned by θ₀ = 0.3 rad, slides along a world axis
// inclined α = 30° below +x, held at its lower-left corner (so the joint's forces have a lever
// arm and the rotation lock carries a couple). Along the axis it accelerates at a = g sin α; across it, and in rotation,
// it must not move.
struct Incline {
  Model model{2};
  BodyId box;
  ConstraintId slider;
  BodyPoint site;
  Eigen::Vector2d anchor, axis;
  double theta0 = 0.3, acceleration = 0.0;

  explicit Incline(const JointLimits& limits = {}) {
    const double alpha = pi / 6;
    axis = Eigen::Vector2d(std::cos(alpha), -std::sin(alpha));
    acceleration = kGravity * std::sin(alpha);
    const Shape shape = Shape::box(0.4, 0.2);
    box = addRigid(model, 2.0, shape.inertia(2.0), shape, Eigen::Vector3d(0.3, 0.7, theta0));
    site = BodyPoint{box, Eigen::Vector2d(-0.2, -0.1)};
    anchor = worldPoint(model, site);
    slider = model.addConstraint(std::make_unique<PrismaticJoint>(JointConnection{.a = site, .ground = anchor}, axis,
                                                                  theta0, limits));
    addGravity(model);
  }
  [[nodiscard]] double travel() const { return axis.dot(worldPoint(model, site) - anchor); }
  [[nodiscard]] double offAxis() const {
    const Eigen::Vector2d d = worldPoint(model, site) - anchor;
    return std::abs(d.x() * axis.y() - d.y() * axis.x());
  }
  [[nodiscard]] double rotation() const { return std::abs(angleOf(model, box) - theta0); }
};

// Acceleration level, RK4, h = 1e-3, 1 s. The constraint force is constant along the slide, so
// the motion is the quadratic s = ½ a t², which RK4 integrates exactly: the error is round-off
// (≈ 1e-15 m per step, 1e-12 after 1000): bound 1e-10 m, and 1e-10 off the axis and in angle.
TEST(Prismatic, SlidesDownAnInclineAtGSinAlphaAccelerationLevel) {
  Incline incline;
  const double h = 1e-3;
  Simulator sim(incline.model, accelerationLevel(h));
  double worstTravel = 0.0, worstOff = 0.0, worstRotation = 0.0;
  for (int n = 1; n <= 1000; ++n) {
    sim.step();
    const double t = n * h;
    worstTravel = std::max(worstTravel, std::abs(incline.travel() - 0.5 * incline.acceleration * t * t));
    worstOff = std::max(worstOff, incline.offAxis());
    worstRotation = std::max(worstRotation, incline.rotation());
  }
  report("travel_error_m", worstTravel);
  report("off_axis_m", worstOff);
  report("rotation_rad", worstRotation);
  EXPECT_LT(worstTravel, 1e-10);
  EXPECT_LT(worstOff, 1e-10);
  EXPECT_LT(worstRotation, 1e-10);
  EXPECT_NEAR(incline.travel(), 0.5 * incline.acceleration, 1e-9);  // 2.45 m after 1 s
}

// Velocity level, h = 1e-3, with an upper limit at 0.5 m. Each substep adds g h to the
// velocity, and the 2 × 2 block (normal, angle) removes exactly the normal part (the rows are
// linear in the state while θ stays at θ₀), so symplectic Euler gives v_n = n h a and
//   s_n = h² a n (n + 1) / 2 = ½ a t² + ½ a h t
// exactly until the upper limit, which it reaches at t ≈ √(2 · 0.5 / a) ≈ 0.45 s, at v ≈ 2.2
// m/s; the limit row is linear in s, so an exact solve lands the slider on s = 0.5, where it
// stays. `limitTolerance` bounds the error along the axis and past the limit, `lockTolerance`
// that off the axis and in angle.
void slideIntoTheLimit(const SimulationSettings& settings, const JointLimits& limits, double limitTolerance,
                       double lockTolerance, const std::string& name) {
  const double h = settings.dt;
  Incline incline(limits);
  Simulator sim(incline.model, settings);
  double worstTravel = 0.0, worstOff = 0.0, worstRotation = 0.0, furthest = -INFINITY;
  for (int n = 1; n <= 1000; ++n) {
    ASSERT_NO_THROW(sim.step()) << name << ", step " << n;
    const double exact = h * h * incline.acceleration * n * (n + 1) / 2;
    if (exact < limits.upper) worstTravel = std::max(worstTravel, std::abs(incline.travel() - exact));
    worstOff = std::max(worstOff, incline.offAxis());
    worstRotation = std::max(worstRotation, incline.rotation());
    furthest = std::max(furthest, incline.travel());
  }
  report("travel_error_m_" + name, worstTravel);
  report("past_limit_m_" + name, furthest - limits.upper);
  report("off_axis_m_" + name, worstOff);
  report("rotation_rad_" + name, worstRotation);
  EXPECT_LT(worstTravel, limitTolerance) << name;
  EXPECT_LT(furthest - limits.upper, limitTolerance) << name;
  EXPECT_NEAR(incline.travel(), limits.upper, limitTolerance) << name << ": it should rest on the limit";
  EXPECT_LT(worstOff, lockTolerance) << name;
  EXPECT_LT(worstRotation, lockTolerance) << name;
}

// Sequential impulses, limits [−0.1, 0.5] m. The equality block (normal, angle) is solved last
// in every pass, so the rotation lock and the axis hold to round-off (bound 1e-11). The limit
// row is relaxed alternately with that block, coupled through the corner's lever arm: with
// k = (r⊥·u)² / I for the corner r and the axis u, block Gauss–Seidel contracts the limit's
// error by ρ = k / (1/m + k) ≈ 0.73 per pass, leaving ρ¹⁰ ≈ 0.045 of the impact, ≈ ρ¹⁰ h v ≈
// 1.0e-4 m past the limit, which Baumgarte removes at 20 % per substep. Bound: 2e-4 m. Before
// the impact no row is violated and the sliding is the exact discrete motion (the same bound).
TEST(Prismatic, SlidesDownAnInclineAndStopsAtItsLimitSequentialImpulses) {
  slideIntoTheLimit(velocityLevel(1e-3, kSequentialBaumgarte), {.lower = -0.1, .upper = 0.5}, 2e-4, 1e-11,
                    kSequentialBaumgarte.name);
}

// The global solve with projection, upper limit only: every row exact to round-off and the
// projection tolerance: bound 1e-11 m (and rad).
TEST(Prismatic, SlidesDownAnInclineAndStopsAtItsLimitGlobalSolve) {
  slideIntoTheLimit(velocityLevel(1e-3, kLdltProjection), {.upper = 0.5}, 1e-11, 1e-11,
                    std::string(kLdltProjection.name) + "_upper_only");
}

// As RevoluteLimits.BothLimitsHoldWithTheGlobalSolve: a prismatic joint with a lower and an
// upper limit has two opposite limit rows (J and −J), which the global LDLᵀ solve must not put
// in one factorization. Expected: the round-off bounds of the one-limit case.
TEST(Prismatic, BothLimitsWithTheGlobalSolve) {
  slideIntoTheLimit(velocityLevel(1e-3, kLdltProjection), {.lower = -0.1, .upper = 0.5}, 1e-11, 1e-11,
                    kLdltProjection.name);
}

// ============================================================================================
// 11. Pulley and gear joints
// ============================================================================================

// Two boxes hanging straight below two fixed pulleys at height 2, the rope |x_a − g_a| +
// r |x_b − g_b| = L with r = 2. With ℓ_a the length on a's side, ℓ_b = (L − ℓ_a) / r, and
// Lagrange in ℓ_a gives a constant acceleration
//   (m_a + m_b / r²) ℓ̈_a = g (m_a − m_b / r)
// (m_a = 1, m_b = 3: ℓ̈_a = −2.80 m/s², a rises and b sinks half as fast). The motion stays
// vertical, where each distance is affine in y, so the velocity level is exact up to
// symplectic Euler's ½ a h t, and RK4 is exact.
struct PulleyRig {
  Model model{2};
  BodyId a, b;
  ConstraintId rope;
  Eigen::Vector2d groundA{-1.0, 2.0}, groundB{1.0, 2.0};
  double ratio = 2.0, length = 0.0, massA = 1.0, massB = 3.0;

  PulleyRig() {
    const Shape box = Shape::box(0.3, 0.3);
    a = addRigid(model, massA, box.inertia(massA), box, Eigen::Vector3d(-1.0, 0.0, 0.0));
    b = addRigid(model, massB, box.inertia(massB), box, Eigen::Vector3d(1.0, 0.5, 0.0));
    length = lengthA() + ratio * lengthB();
    rope = model.addConstraint(std::make_unique<PulleyJoint>(BodyPoint{a}, BodyPoint{b}, groundA, groundB, ratio, length));
    addGravity(model);
  }
  [[nodiscard]] double lengthA() const { return (centerOf(model, a) - groundA).norm(); }
  [[nodiscard]] double lengthB() const { return (centerOf(model, b) - groundB).norm(); }
  [[nodiscard]] double acceleration() const {
    return kGravity * (massA - massB / ratio) / (massA + massB / (ratio * ratio));
  }
};

// Bounds: the acceleration level (RK4, exact for a quadratic) and the velocity level (exact
// discrete form) both to round-off, 1e-10 m for ℓ_a and for the conserved ℓ_a + r ℓ_b − L.
TEST(Pulley, ConservesTheRopeAndFollowsTheClosedForm) {
  for (const auto& [name, settings] : everyFormulation(1e-3, 1e-3, false)) {
    PulleyRig rig;
    const double h = settings.dt, l0 = rig.lengthA(), a = rig.acceleration();
    const bool symplectic = settings.formulation == FormulationKind::Velocity;
    Simulator sim(rig.model, settings);
    double worstRope = 0.0, worstMotion = 0.0;
    for (int n = 1; n <= 600; ++n) {
      sim.step();
      const double t = n * h;
      const double expected = l0 + 0.5 * a * t * t + (symplectic ? 0.5 * a * h * t : 0.0);
      worstRope = std::max(worstRope, std::abs(rig.lengthA() + rig.ratio * rig.lengthB() - rig.length));
      worstMotion = std::max(worstMotion, std::abs(rig.lengthA() - expected));
    }
    report("rope_length_error_m_" + name, worstRope);
    report("pulley_motion_error_m_" + name, worstMotion);
    EXPECT_LT(worstRope, 1e-10) << name;
    EXPECT_LT(worstMotion, 1e-10) << name;
    EXPECT_LT(rig.lengthA(), l0 - 0.4) << name << ": a should have risen ≈ 0.5 m";
  }
}

// A gear (angle joint, ratio r = −2) couples the hinged rod to a disk pinned at its center
// (I_d = 0.2 kg m²): φ_rod − r φ_disk stays constant, so φ̇_disk = φ̇_rod / r and the disk adds
// I_d / r² to the rod's inertia about the hinge. The rod then swings as a physical pendulum
// with I = m L²/3 + I_d / r² and ω₀² = m g (L/2) / I: the closed form of test 1, with a slower
// period. Acceleration level, RK4, h = 1e-3, 4 s: the same budget as test 1, 1e-8 rad for the
// swing and for the gear relation (held by C̈ = 0 only).
TEST(Gear, CouplesTwoBodiesAndAddsReflectedInertia) {
  HingedRod p;
  const double ratio = -2.0, diskMass = 1.6;
  const Shape disk = Shape::circle(0.5);
  const double diskInertia = disk.inertia(diskMass);
  ASSERT_DOUBLE_EQ(diskInertia, 0.2);
  const BodyId wheel = addRigid(p.model, diskMass, diskInertia, disk, Eigen::Vector3d(3.0, 0.0, 0.0));
  p.model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(p.model, wheel, Eigen::Vector2d(3.0, 0.0))));
  const double reference = angleOf(p.model, p.rod) - ratio * angleOf(p.model, wheel);
  p.model.addConstraint(
      std::make_unique<AngleJoint>(JointConnection{.a = BodyPoint{p.rod}, .b = BodyPoint{wheel}}, ratio, reference));
  const double inertia = p.hingeInertia() + diskInertia / (ratio * ratio);
  const double omega0 = std::sqrt(p.mass * kGravity * 0.5 * p.length / inertia);
  const double h = 1e-3;
  Simulator sim(p.model, accelerationLevel(h));
  double worstSwing = 0.0, worstGear = 0.0, widest = 0.0;
  for (int n = 1; n <= 4000; ++n) {
    sim.step();
    widest = std::max(widest, std::abs(angleOf(p.model, wheel)));
    worstSwing = std::max(worstSwing, std::abs(p.swingAngle() - exactSwing(n * h, pi / 2, omega0)));
    worstGear = std::max(worstGear, std::abs(angleOf(p.model, p.rod) - ratio * angleOf(p.model, wheel) - reference));
  }
  report("geared_swing_error_rad", worstSwing);
  report("gear_relation_error_rad", worstGear);
  EXPECT_LT(worstSwing, 1e-8);
  EXPECT_LT(worstGear, 1e-8);
  // The disk turned: half the rod's swing of π, the other way.
  EXPECT_NEAR(widest, pi / 2, 1e-6);
}

// The same geared pendulum at the velocity level. The gear row is linear in the angles, so the
// prediction's target b = (C̃ − C)/h − J v* is 0 and every substep ends with J v⁺ = 0, C
// unchanged: with the global solve the relation holds to round-off (bound 1e-11 rad). With
// sequential impulses the gear is the last constraint of each pass, so every pass, and the
// substep, ends with its row met exactly whatever the hinge's impulses did to the rod's spin:
// the same bound.
TEST(Gear, RelationHoldsAtTheVelocityLevel) {
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    HingedRod p;
    const double ratio = -2.0;
    const Shape disk = Shape::circle(0.5);
    const BodyId wheel = addRigid(p.model, 1.6, disk.inertia(1.6), disk, Eigen::Vector3d(3.0, 0.0, 0.0));
    p.model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(p.model, wheel, Eigen::Vector2d(3.0, 0.0))));
    const double reference = angleOf(p.model, p.rod) - ratio * angleOf(p.model, wheel);
    p.model.addConstraint(
        std::make_unique<AngleJoint>(JointConnection{.a = BodyPoint{p.rod}, .b = BodyPoint{wheel}}, ratio, reference));
    Simulator sim(p.model, velocityLevel(1.0 / 60, variant, 4));
    double worstGear = 0.0, widest = 0.0;
    for (int n = 1; n <= 240; ++n) {
      sim.step();
      widest = std::max(widest, std::abs(angleOf(p.model, wheel)));
      worstGear = std::max(worstGear, std::abs(angleOf(p.model, p.rod) - ratio * angleOf(p.model, wheel) - reference));
    }
    report(std::string("gear_relation_error_rad_") + variant.name, worstGear);
    EXPECT_LT(worstGear, 1e-11) << variant.name;
    EXPECT_GT(widest, 1.4) << variant.name << ": the disk should turn by ≈ π/2";
  }
}

// ============================================================================================
// 12. Static and kinematic bodies
// ============================================================================================

// Two static boxes at x = −3 and −2 (the second turned by `angle`) pinned together at x = −2.5:
// a joint that no body can move.
struct StaticPair {
  BodyId first, second;
  ConstraintId pin;
};

StaticPair addPinnedStaticPair(Model& model, double angle) {
  const Shape box = Shape::box(1.0, 0.5);
  const BodyId first = addRigid(model, 1.0, box.inertia(1.0), box, Eigen::Vector3d(-3, 0, 0), Eigen::Vector3d::Zero(),
                                Motion::Static);
  const BodyId second = addRigid(model, 1.0, box.inertia(1.0), box, Eigen::Vector3d(-2, 0, angle),
                                 Eigen::Vector3d::Zero(), Motion::Static);
  const ConstraintId pin =
      model.addConstraint(std::make_unique<RevoluteJoint>(between(model, first, second, Eigen::Vector2d(-2.5, 0))));
  return {first, second, pin};
}

// Two static boxes joined by a revolute and a weld (which no body can move, so they get no
// rows), added before the hinged rod's own joint, in every formulation and solver. The rod's
// motion must be that of the same model without them (the same arithmetic on the same rows, so
// equal to round-off: bound 1e-14), the static bodies must not move, and the immovable joints
// carry no force, and so never break.
TEST(StaticBodies, JointsBetweenStaticBodiesChangeNothing) {
  for (const auto& [name, settings] : everyFormulation(1e-3, 1e-3, true)) {
    // With the static pair.
    Model model(2);
    const auto [s1, s2, pin] = addPinnedStaticPair(model, 0.2);
    const ConstraintId weld =
        model.addConstraint(std::make_unique<WeldJoint>(between(model, s1, s2, Eigen::Vector2d(-2.5, 0)), -0.2));
    model.setBreakForce(weld, 1e-6);  // no rows, no force: must never break
    const BodyId rod = addRigid(model, 1.0, 1.0 / 12, Shape::box(1.0, 0.05), Eigen::Vector3d(0.5, 0, 0));
    const ConstraintId hinge =
        model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, rod, Eigen::Vector2d::Zero())));
    addGravity(model);
    // Without it.
    HingedRod plain;

    Simulator sim(model, settings), reference(plain.model, settings);
    double worst = 0.0;
    for (int n = 1; n <= 500; ++n) {
      ASSERT_NO_THROW(sim.step()) << name << ", step " << n;
      reference.step();
      worst = std::max(worst, (model.coordinates(rod) - plain.model.coordinates(plain.rod)).cwiseAbs().maxCoeff());
    }
    report("static_pair_trajectory_difference_" + name, worst);
    EXPECT_LT(worst, 1e-14) << name;
    EXPECT_EQ(model.coordinates(s1), Eigen::Vector3d(-3, 0, 0)) << name;
    EXPECT_EQ(model.coordinates(s2), Eigen::Vector3d(-2, 0, 0.2)) << name;
    EXPECT_TRUE(sim.breaks().empty()) << name;
    EXPECT_EQ(sim.reaction(pin).force.norm(), 0.0) << name;
    EXPECT_EQ(sim.reaction(weld).force.norm(), 0.0) << name;
    EXPECT_GT(sim.reaction(hinge).force.norm(), 1.0) << name;
  }
}

// λ of a joint that has no rows in the system (between two static bodies, or disabled as a
// broken joint is) is empty (Simulator::lambda). Each is listed before a working hinge, so a
// span taken at its row offset with the joint's own row count would show that hinge's λ
// instead (m g / 4, the hinge's λ_y at release), and one listed last would read past the end
// of the λ vector.
TEST(StaticBodies, LambdaOfAJointWithoutRowsIsEmpty) {
  Model model(2);
  const ConstraintId pin = addPinnedStaticPair(model, 0.0).pin;
  const BodyId rod = addRigid(model, 1.0, 1.0 / 12, Shape::box(1.0, 0.05), Eigen::Vector3d(0.5, 0, 0));
  model.addConstraint(std::make_unique<RevoluteJoint>(toWorld(model, rod, Eigen::Vector2d::Zero())));
  addGravity(model);
  Simulator sim(model, accelerationLevel(1e-3));
  sim.step();
  const auto lambda = sim.lambda(pin);
  EXPECT_TRUE(lambda.empty()) << "immovable joint: " << lambda.size() << " rows";
  for (std::size_t r = 0; r < lambda.size(); ++r) EXPECT_EQ(lambda[r], 0.0) << "immovable joint, row " << r;

  // The same for a disabled joint (as a broken one is): a second rod whose hinge is switched
  // off, listed before the first rod's hinge.
  Model two(2);
  const BodyId loose = addRigid(two, 1.0, 1.0 / 12, Shape::box(1.0, 0.05), Eigen::Vector3d(0.5, 2, 0));
  const ConstraintId off =
      two.addConstraint(std::make_unique<RevoluteJoint>(toWorld(two, loose, Eigen::Vector2d(0, 2))));
  const BodyId held = addRigid(two, 1.0, 1.0 / 12, Shape::box(1.0, 0.05), Eigen::Vector3d(0.5, 0, 0));
  two.addConstraint(std::make_unique<RevoluteJoint>(toWorld(two, held, Eigen::Vector2d::Zero())));
  addGravity(two);
  two.setEnabled(off, false);
  Simulator sim2(two, accelerationLevel(1e-3));
  sim2.step();
  const auto lambda2 = sim2.lambda(off);
  EXPECT_TRUE(lambda2.empty()) << "disabled joint: " << lambda2.size() << " rows";
  for (std::size_t r = 0; r < lambda2.size(); ++r) EXPECT_EQ(lambda2[r], 0.0) << "disabled joint, row " << r;
}

// The rod hinged to a kinematic body that moves at a constant V = (1.5, 0.5) m/s, starting
// with the same velocity: in the frame moving with V, which is inertial, it is the physical
// pendulum of test 1, so its swing angle follows the same closed form (Galilean invariance),
// while the kinematic body keeps its velocity and flies x₀ + V t. Acceleration level, RK4,
// h = 1e-3, 4 s: the budget of test 1, 1e-8 rad; the kinematic body is integrated exactly
// (constant velocity): 1e-12 m.
TEST(KinematicBodies, PendulumOnAMovingSupportFollowsTheClosedForm) {
  const Eigen::Vector2d V(1.5, 0.5);
  HingedRod p({.velocity = Eigen::Vector3d(V.x(), V.y(), 0.0)});
  // Replace the world hinge by one to a kinematic carrier at the origin.
  p.model.removeConstraint(p.hinge);
  const Shape plate = Shape::box(0.3, 0.3);
  const BodyId carrier =
      addRigid(p.model, 5.0, plate.inertia(5.0), plate, Eigen::Vector3d::Zero(), Eigen::Vector3d(V.x(), V.y(), 0.0),
               Motion::Kinematic);
  p.hinge = p.model.addConstraint(
      std::make_unique<RevoluteJoint>(between(p.model, p.rod, carrier, Eigen::Vector2d::Zero())));
  const double h = 1e-3;
  Simulator sim(p.model, accelerationLevel(h));
  double worstSwing = 0.0, worstCarrier = 0.0, worstHinge = 0.0;
  for (int n = 1; n <= 4000; ++n) {
    sim.step();
    const double t = n * h;
    worstSwing = std::max(worstSwing, std::abs(p.swingAngle() - exactSwing(t, pi / 2, p.omega0())));
    worstCarrier = std::max(worstCarrier, (centerOf(p.model, carrier) - V * t).norm());
    worstHinge = std::max(worstHinge, (p.hingeSeparation() - centerOf(p.model, carrier)).norm());
  }
  report("moving_support_swing_error_rad", worstSwing);
  report("carrier_path_error_m", worstCarrier);
  report("moving_hinge_separation_m", worstHinge);
  EXPECT_LT(worstSwing, 1e-8);
  EXPECT_LT(worstCarrier, 1e-12);
  EXPECT_LT(worstHinge, 1e-8);
  EXPECT_EQ(p.model.velocities(carrier), Eigen::Vector3d(V.x(), V.y(), 0.0));
}

// A disk at rest pinned at its center to a kinematic body moving at V, no gravity, at the
// velocity level: the first substep's pin block (solved exactly: the kinematic side has W = 0)
// gives the disk exactly V, after which both move together. The pin's target is affine in the
// state, so it holds to round-off: bounds 1e-12 m/s and 1e-12 m. The kinematic body is not
// pushed back: its velocity stays V exactly.
TEST(KinematicBodies, DragAPinnedDynamicBody) {
  const Eigen::Vector2d V(2.0, -1.0);
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    Model model(2);
    const Shape plate = Shape::box(0.3, 0.3), disk = Shape::circle(0.2);
    const BodyId carrier = addRigid(model, 5.0, plate.inertia(5.0), plate, Eigen::Vector3d(0, 0, 0),
                                    Eigen::Vector3d(V.x(), V.y(), 0.0), Motion::Kinematic);
    const BodyId wheel = addRigid(model, 1.0, disk.inertia(1.0), disk, Eigen::Vector3d(0.5, 0, 0));
    model.addConstraint(std::make_unique<RevoluteJoint>(between(model, wheel, carrier, Eigen::Vector2d(0.5, 0))));
    Simulator sim(model, velocityLevel(1e-3, variant));
    double worstVelocity = 0.0, worstPosition = 0.0;
    for (int n = 1; n <= 1000; ++n) {
      sim.step();
      worstVelocity = std::max(worstVelocity, (model.velocities(wheel).head<2>() - V).norm());
      worstPosition = std::max(worstPosition,
                               (centerOf(model, wheel) - centerOf(model, carrier) - Eigen::Vector2d(0.5, 0)).norm());
    }
    report(std::string("dragged_velocity_error_") + variant.name, worstVelocity);
    report(std::string("dragged_position_error_m_") + variant.name, worstPosition);
    EXPECT_LT(worstVelocity, 1e-12) << variant.name;
    EXPECT_LT(worstPosition, 1e-12) << variant.name;
    EXPECT_EQ(model.velocities(carrier), Eigen::Vector3d(V.x(), V.y(), 0.0)) << variant.name;
    EXPECT_NEAR(centerOf(model, carrier).x(), V.x(), 1e-12) << variant.name;  // 1 s at V
  }
}

}  // namespace
}  // namespace tinkertoy::test
