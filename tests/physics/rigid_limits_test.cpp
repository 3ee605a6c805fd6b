// The one-sided rows of the velocity level, and motors, as whole simulations: ropes that never
// stretch, limits that hold and are reached, motors bounded by their torque, a slider that
// stops at its limit.
//
//   3  a rope (distance joints with a maximum only) never stretches, and does go slack
//   4  revolute limits hold, and are reached
//   5  a revolute motor: speed reached at the torque bound; a too-weak motor stalls
//  10  a prismatic joint on an incline: g sin α, rotation locked, limits hold
//
// (Section numbers run across the three rigid_*_test.cpp files.) Tolerances are derived beside
// each test; measured errors are printed ("[ info ]") and recorded as test properties.
#include <gtest/gtest.h>

#include "physics/rigid_models.hpp"

namespace tinkertoy::test {
namespace {

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
    segments.push_back(model.addConstraint(std::make_unique<DistanceConstraint>(
        DistanceConstraintSettings{.a = beads[0], .anchor = Eigen::Vector2d(0, 0), .maxLength = segment})));
    for (int i = 1; i < count; ++i) {
      segments.push_back(model.addConstraint(std::make_unique<DistanceConstraint>(
          DistanceConstraintSettings{.a = beads[i - 1], .b = beads[i], .maxLength = segment})));
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

}  // namespace
}  // namespace tinkertoy::test
