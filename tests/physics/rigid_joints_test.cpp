// The other joints and body motions, checked against conservation laws and closed forms: a
// welded pair in free flight, pulleys and gears, static and kinematic bodies, and what warm
// starting buys sequential impulses.
//
//   6  a weld keeps the relative pose of a spinning, thrown pair
//   8  warm starting reduces the error of a few sequential-impulse passes
//  11  pulley and gear (angle) joints: conserved quantities and closed forms
//  12  joints between static bodies, and kinematic bodies that drag dynamic ones
//
// (Section numbers run across the three rigid_*_test.cpp files.) Tolerances are derived beside
// each test; measured errors are printed ("[ info ]") and recorded as test properties.
#include <gtest/gtest.h>

#include "physics/rigid_models.hpp"

namespace tinkertoy::test {
namespace {

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

// A joint nothing can move still has an error, and the diagnostics measure it (issue #16,
// class 4): a kinematic box flying at V = (1, 0.5) m/s, hinged to a static one where they touched.
// The joint has no rows (no force can close it), so the gap is V t and ‖C‖∞ must say so, |V_x|
// at t, with ‖Ċ‖∞ = |V_x| (the larger of the hinge's rows); it read 0 before.
TEST(KinematicBodies, AJointNothingCanMoveIsStillMeasured) {
  for (const auto& [name, settings] : everyFormulation(1e-3, 1e-3, true)) {
    Model model(2);
    const Shape box = Shape::box(1.0, 0.5);
    const BodyId ground = addRigid(model, 1.0, box.inertia(1.0), box, Eigen::Vector3d(-0.5, 0, 0),
                                   Eigen::Vector3d::Zero(), Motion::Static);
    const BodyId flyer = addRigid(model, 1.0, box.inertia(1.0), box, Eigen::Vector3d(0.5, 0, 0),
                                  Eigen::Vector3d(1.0, 0.5, 0.0), Motion::Kinematic);
    model.addConstraint(std::make_unique<RevoluteJoint>(between(model, ground, flyer, Eigen::Vector2d::Zero())));
    Simulator sim(model, settings);
    EXPECT_EQ(sim.diagnostics().constraintError, 0.0) << name;
    EXPECT_NEAR(sim.diagnostics().velocityError, 1.0, 1e-15) << name;
    for (int n = 0; n < 200; ++n) ASSERT_NO_THROW(sim.step()) << name;
    EXPECT_NEAR(sim.diagnostics().constraintError, 1.0 * model.time(), 1e-12) << name;
    EXPECT_NEAR(sim.diagnostics().velocityError, 1.0, 1e-15) << name;
  }
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
