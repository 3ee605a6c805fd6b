// Physics tests: whole simulations compared with closed forms (bead on a wire, the exact
// large-amplitude pendulum, its period, the conical pendulum, a slider-crank), redundant
// constraints, blow-up reporting, drift control by feedback and projection, and the
// reported multipliers.
//
// Tolerances. RK4 with h = 1e-3 on these models (ω ≲ 10 rad/s, so hω ≲ 1e-2) has a local
// error of about (hω)⁵/5! ≈ 1e-12 relative per step, i.e. ≲ 1e-8 after 10⁴ steps even if
// the errors added up without cancelling; the 1e-6 position bounds asked for below leave
// a wide margin, and the tighter ones (1e-8) are argued where they are used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "physics/jacobi_elliptic.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {
namespace {

using std::numbers::pi;
using test::jacobiElliptic;

constexpr double kG = 9.81;

SimulationSettings settingsFor(SolverKind solver, double dt = 1e-3,
                               IntegratorKind integrator = IntegratorKind::RungeKutta4) {
  SimulationSettings s;
  s.dt = dt;
  s.integrator = integrator;
  s.solver.kind = solver;
  return s;
}

std::string solverLabel(const ::testing::TestParamInfo<SolverKind>& info) {
  return std::string(solverName(info.param));
}

// A simple pendulum in the x–y plane: a bob on a rod of length L to the origin.
struct Pendulum {
  Model model{2};
  ParticleId bob;
  ConstraintId rod;

  Pendulum(const Eigen::Vector2d& x, const Eigen::Vector2d& v, double mass = 1.0, double L = 1.0) {
    bob = model.addParticle(mass, x, v, "bob");
    rod = model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), L), "rod");
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  }
};

// ---- the closed-form helper itself ---------------------------------------------------

// Checks of sn against identities that do not use the AGM recursion: sn(0) = 0, sn(K) = 1,
// sn(K/2) = 1/√(1 + k') with k' = √(1 − k²), sn = sin for m = 0, d sn/du = cn dn (central
// differences, error ≈ h²/6 |sn'''| + ε/h ≈ 1e-11 for h = 1e-5), and oddness/periodicity.
TEST(JacobiElliptic, MatchesKnownValuesAndIdentities) {
  for (const double k : {0.1, 0.5, std::sin(pi / 4), 0.9, 0.99}) {
    const double m = k * k;
    const double K = std::comp_ellint_1(k);
    const double kPrime = std::sqrt(1.0 - m);
    EXPECT_NEAR(jacobiElliptic(0.0, m).sn, 0.0, 1e-15);
    EXPECT_NEAR(jacobiElliptic(K, m).sn, 1.0, 1e-13) << "k = " << k;
    EXPECT_NEAR(jacobiElliptic(K, m).cn, 0.0, 1e-7) << "k = " << k;  // cn ≈ √(2(1−sn)) near K
    EXPECT_NEAR(jacobiElliptic(0.5 * K, m).sn, 1.0 / std::sqrt(1.0 + kPrime), 1e-13) << "k = " << k;
    EXPECT_NEAR(jacobiElliptic(0.5 * K, m).cn, std::sqrt(kPrime / (1.0 + kPrime)), 1e-13) << "k = " << k;
    EXPECT_NEAR(jacobiElliptic(0.5 * K, m).dn, std::sqrt(kPrime), 1e-13) << "k = " << k;
    for (const double u : {0.3, 1.1, 2.7, -4.2, 17.0}) {
      const auto s = jacobiElliptic(u, m);
      const double h = 1e-5;
      const double derivative = (jacobiElliptic(u + h, m).sn - jacobiElliptic(u - h, m).sn) / (2 * h);
      EXPECT_NEAR(derivative, s.cn * s.dn, 1e-8) << "k = " << k << ", u = " << u;
      EXPECT_NEAR(s.sn * s.sn + s.cn * s.cn, 1.0, 1e-14);
      EXPECT_NEAR(jacobiElliptic(-u, m).sn, -s.sn, 1e-13);
      EXPECT_NEAR(jacobiElliptic(u + 4 * K, m).sn, s.sn, 1e-12);
      EXPECT_NEAR(jacobiElliptic(u + 2 * K, m).sn, -s.sn, 1e-12);
    }
  }
  for (const double u : {0.3, 1.1, 2.7, -4.2}) EXPECT_NEAR(jacobiElliptic(u, 0.0).sn, std::sin(u), 1e-15);
}

class BySolver : public ::testing::TestWithParam<SolverKind> {};
INSTANTIATE_TEST_SUITE_P(Solvers, BySolver,
                         ::testing::Values(SolverKind::ConjugateGradient, SolverKind::SparseLdlt),
                         solverLabel);

// ---- bead on a wire --------------------------------------------------------------------

// Without feedback the constraint is held only by C̈ = 0 at every stage; what is left is
// RK4's truncation error in the normal direction, ≈ (hω)⁵ ~ 1e-12 per step with ω ≈ v/r.
TEST_P(BySolver, BeadOnAWireStaysOnTheCircle) {
  Model model(2);
  const ParticleId bead = model.addParticle(1.0, Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 2));
  model.addConstraint(std::make_unique<PointOnCircleConstraint>(bead, Eigen::Vector2d(0, 0), 1.0));
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  Simulator sim(model, settingsFor(GetParam()));
  const double E0 = sim.diagnostics().totalEnergy();
  double worstC = 0.0, worstCdot = 0.0, worstE = 0.0;
  for (int i = 0; i < 10000; ++i) {
    sim.step();
    worstC = std::max(worstC, sim.diagnostics().constraintError);
    worstCdot = std::max(worstCdot, sim.diagnostics().velocityError);
    worstE = std::max(worstE, std::abs(sim.diagnostics().totalEnergy() - E0));
    ASSERT_LT(sim.diagnostics().constraintError, 1e-8) << "step " << i + 1;
  }
  std::cout << "[ info ] bead, " << solverName(GetParam()) << ": max |C| = " << worstC
            << ", max |Cdot| = " << worstCdot << ", max |E - E0| = " << worstE << "\n";
  EXPECT_NEAR((model.position(bead)).norm(), 1.0, 1e-8);
  EXPECT_DOUBLE_EQ(model.time(), sim.diagnostics().time);
  EXPECT_NEAR(model.time(), 10.0, 1e-9);
}

// ---- the large-amplitude pendulum ------------------------------------------------------

// Exact solution of θ̈ = −(g/L) sin θ released from rest at θ₀ (θ from the downward
// vertical): sin(θ/2) = k sn(K(k) − ω₀ t, k), k = sin(θ₀/2), ω₀ = √(g/L); at t = 0 sn(K) = 1.
Eigen::Vector2d exactPendulum(double t, double theta0, double L) {
  const double k = std::sin(0.5 * theta0);
  const double K = std::comp_ellint_1(k);
  const double omega0 = std::sqrt(kG / L);
  const double theta = 2.0 * std::asin(k * jacobiElliptic(K - omega0 * t, k * k).sn);
  return {L * std::sin(theta), -L * std::cos(theta)};
}

TEST_P(BySolver, HorizontallyReleasedPendulumFollowsTheClosedForm) {
  const double L = 1.0, theta0 = pi / 2, h = 1e-3;
  Pendulum p(Eigen::Vector2d(L, 0), Eigen::Vector2d::Zero());
  Simulator sim(p.model, settingsFor(GetParam(), h));
  double worst = 0.0;
  for (int n = 1; n <= 10000; ++n) {
    sim.step();
    const Eigen::Vector2d exact = exactPendulum(n * h, theta0, L);
    worst = std::max(worst, (p.model.position(p.bob) - exact).cwiseAbs().maxCoeff());
  }
  std::cout << "[ info ] pendulum vs closed form, " << solverName(GetParam())
            << ": max position error over 10 s = " << worst << "\n";
  EXPECT_LT(worst, 1e-6);
  // The bob really swung: it is not near its start after 10 s (≈ 4.2 periods of 2.37 s).
  EXPECT_GT((p.model.position(p.bob) - Eigen::Vector2d(L, 0)).norm(), 0.1);
}

// Downward zero crossings of x(t), located on the cubic Hermite interpolant through
// (x, ẋ) at consecutive steps, whose error O(h⁴ |x⁗|) ≈ 1e-12 is far below RK4's error.
double hermiteRoot(double x0, double v0, double x1, double v1, double h) {
  auto H = [&](double s) {
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * x0 + (s3 - 2 * s2 + s) * h * v0 + (-2 * s3 + 3 * s2) * x1 +
           (s3 - s2) * h * v1;
  };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (H(mid) > 0.0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi) * h;
}

double measuredPeriod(SolverKind solver, double theta0, double L, double duration, double h = 1e-3) {
  Pendulum p(Eigen::Vector2d(L * std::sin(theta0), -L * std::cos(theta0)), Eigen::Vector2d::Zero(), 1.0, L);
  Simulator sim(p.model, settingsFor(solver, h));
  std::vector<double> crossings;
  double x0 = p.model.position(p.bob)[0], v0 = p.model.velocity(p.bob)[0];
  const int steps = static_cast<int>(std::lround(duration / h));
  for (int n = 1; n <= steps; ++n) {
    sim.step();
    const double x1 = p.model.position(p.bob)[0], v1 = p.model.velocity(p.bob)[0];
    if (x0 > 0.0 && x1 <= 0.0) crossings.push_back((n - 1) * h + hermiteRoot(x0, v0, x1, v1, h));
    x0 = x1;
    v0 = v1;
  }
  if (crossings.size() < 3) return NAN;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

// T = 4 √(L/g) K(sin(θ₀/2)) exactly; for small θ₀ the series 2π √(L/g) (1 + θ₀²/16 +
// 11θ₀⁴/3072 + …) agrees to its next term, 173θ₀⁶/737280 ≈ 2.3e-10 at θ₀ = 0.1. The
// measured period inherits RK4's phase error (≲ 1e-10 s here) and the interpolation error.
TEST_P(BySolver, SmallAnglePeriod) {
  const double L = 1.0, theta0 = 0.1;
  const double exact = 4.0 * std::sqrt(L / kG) * std::comp_ellint_1(std::sin(0.5 * theta0));
  const double series = 2 * pi * std::sqrt(L / kG) *
                        (1 + theta0 * theta0 / 16 + 11 * std::pow(theta0, 4) / 3072);
  EXPECT_NEAR(series / exact, 1.0, 1e-9);
  EXPECT_GT(exact, 2 * pi * std::sqrt(L / kG) * 1.0006);  // the finite-amplitude correction shows
  const double measured = measuredPeriod(GetParam(), theta0, L, 10.0);
  std::cout << "[ info ] period at 0.1 rad: measured " << measured << " s, exact " << exact
            << " s, relative error " << measured / exact - 1 << "\n";
  EXPECT_NEAR(measured / exact, 1.0, 1e-8);
}

// At θ₀ = 2.5 rad (close to the inverted position) the motion is far from harmonic and
// RK4's phase error is larger: the measured period is checked for the h⁴ behaviour itself.
// With e(h) = T(h) − T_exact ≈ c h⁴, halving h must divide the error by 2⁴ = 16 (accepted
// band [0.6·16, 1.6·16]), and the Richardson value (16 T(h/2) − T(h))/15, which cancels the
// h⁴ term, must match the exact period far more closely than either run: to 1e-10, the
// floor set by the CG solver's relative residual tolerance of 1e-10 on the accelerations.
TEST_P(BySolver, LargeAnglePeriod) {
  const double L = 0.7, theta0 = 2.5;
  const double exact = 4.0 * std::sqrt(L / kG) * std::comp_ellint_1(std::sin(0.5 * theta0));
  const double coarse = measuredPeriod(GetParam(), theta0, L, 12.0, 1e-3);
  const double fine = measuredPeriod(GetParam(), theta0, L, 12.0, 5e-4);
  const double richardson = (16 * fine - coarse) / 15;
  const double ratio = (coarse - exact) / (fine - exact);
  std::cout << "[ info ] period at 2.5 rad: exact " << exact << " s, relative error "
            << coarse / exact - 1 << " (h = 1e-3), " << fine / exact - 1 << " (h = 5e-4), "
            << richardson / exact - 1 << " (Richardson); error ratio " << ratio << "\n";
  EXPECT_NEAR(coarse / exact, 1.0, 1e-7);
  EXPECT_GT(ratio, 0.6 * 16);
  EXPECT_LT(ratio, 1.6 * 16);
  EXPECT_NEAR(richardson / exact, 1.0, 1e-10);
  // Well over the small-angle period: the amplitude matters at this size.
  EXPECT_GT(exact / (2 * pi * std::sqrt(L / kG)), 1.5);
}

// ---- conical pendulum ------------------------------------------------------------------

// A bob on a rod of length L circling at half-angle α: the horizontal balance gives
// ω² = g / (L cos α). The steady motion is an exact solution, so the height, the angular
// speed and the phase φ = ω t must all hold to RK4's error.
TEST_P(BySolver, ConicalPendulumKeepsHeightAndAngularSpeed) {
  const double L = 1.0, alpha = pi / 6, h = 1e-3;
  const double omega = std::sqrt(kG / (L * std::cos(alpha)));
  Model model(3);
  const ParticleId bob =
      model.addParticle(1.3, Eigen::Vector3d(L * std::sin(alpha), -L * std::cos(alpha), 0),
                        Eigen::Vector3d(0, 0, omega * L * std::sin(alpha)));
  model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector3d::Zero(), L));
  model.addForce(std::make_unique<Gravity>(Eigen::Vector3d(0.0, -kG, 0.0)));
  Simulator sim(model, settingsFor(GetParam(), h));
  double worstHeight = 0.0, worstOmega = 0.0, worstPhase = 0.0;
  double phase = 0.0, lastAngle = 0.0;
  for (int n = 1; n <= 10000; ++n) {
    sim.step();
    const Eigen::VectorXd x = model.position(bob), v = model.velocity(bob);
    worstHeight = std::max(worstHeight, std::abs(x[1] + L * std::cos(alpha)));
    const double rho2 = x[0] * x[0] + x[2] * x[2];
    // Counter-clockwise seen from +y is x → −z; the start velocity is +z at +x, so the
    // bob turns about −y: the angle atan2(z, x) grows at ω.
    const double angularSpeed = (x[0] * v[2] - x[2] * v[0]) / rho2;
    worstOmega = std::max(worstOmega, std::abs(angularSpeed / omega - 1.0));
    const double angle = std::atan2(x[2], x[0]);
    phase += std::remainder(angle - lastAngle, 2 * pi);
    lastAngle = angle;
    worstPhase = std::max(worstPhase, std::abs(phase - omega * n * h));
  }
  std::cout << "[ info ] conical pendulum, " << solverName(GetParam()) << ": max |y + L cos a| = "
            << worstHeight << ", max relative omega error = " << worstOmega
            << ", max phase error = " << worstPhase << " rad\n";
  EXPECT_LT(worstHeight, 1e-6);
  EXPECT_LT(worstOmega, 1e-6);
  EXPECT_LT(worstPhase, 1e-6);
  EXPECT_GT(phase, 10 * omega - 1e-3);  // it went round ≈ 5.4 times
}

// ---- slider-crank ----------------------------------------------------------------------

// Crank pin A driven on a circle of radius r about the origin, θ = ω t; slider B on the
// horizontal line y = y₀, joined to A by a rod of length l. |B − A| = l with B = (x, y₀):
//   (x − r cos θ)² + (y₀ − r sin θ)² = l²  ⇒  x = r cos θ + √(l² − (r sin θ − y₀)²)
// (B to the right of A). At θ = 0 the slider's legal velocity is ẋ = y₀ r ω / √(l² − y₀²).
// B has two coordinates and two constraints, so its motion is pure kinematics: the
// closed form holds whatever the masses and gravity, to the integrator's error.
TEST_P(BySolver, SliderCrankFollowsTheKinematics) {
  const double r = 0.3, l = 1.0, y0 = 0.1, omega = 2.0, h = 1e-3;
  auto xSlider = [&](double t) {
    const double s = r * std::sin(omega * t) - y0;
    return r * std::cos(omega * t) + std::sqrt(l * l - s * s);
  };
  Model model(2);
  const ParticleId pin = model.addParticle(0.5, Eigen::Vector2d(r, 0), Eigen::Vector2d(0, r * omega), "pin");
  const ParticleId slider =
      model.addParticle(2.0, Eigen::Vector2d(xSlider(0.0), y0),
                        Eigen::Vector2d(y0 * r * omega / std::sqrt(l * l - y0 * y0), 0), "slider");
  auto crank = std::make_shared<CircularPath>(Eigen::Vector2d(0, 0), r, omega);
  model.addConstraint(std::make_unique<DrivenPointConstraint>(pin, crank), "crank");
  const ConstraintId rod = model.addConstraint(std::make_unique<DistanceConstraint>(pin, slider, l), "rod");
  model.addConstraint(std::make_unique<PointOnLineConstraint>(slider, Eigen::Vector2d(0, y0), Eigen::Vector2d(1, 0)),
                      "guide");
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  Simulator sim(model, settingsFor(GetParam(), h));
  ASSERT_LT(sim.diagnostics().velocityError, 1e-15) << "the start state should be legal";
  double worstPin = 0.0, worstSlider = 0.0, worstRod = 0.0, worstLine = 0.0;
  for (int n = 1; n <= 5000; ++n) {
    sim.step();
    const double t = n * h;
    const Eigen::Vector3d p = crank->sample(t).position;
    worstPin = std::max(worstPin, (model.position(pin) - p.head<2>()).cwiseAbs().maxCoeff());
    const Eigen::VectorXd b = model.position(slider);
    worstSlider = std::max(worstSlider, std::abs(b[0] - xSlider(t)));
    worstLine = std::max(worstLine, std::abs(b[1] - y0));
    worstRod = std::max(worstRod, std::abs((b - model.position(pin)).norm() - l));
  }
  std::cout << "[ info ] slider-crank, " << solverName(GetParam()) << ": pin " << worstPin
            << ", slider x " << worstSlider << ", rod " << worstRod << ", line " << worstLine << "\n";
  EXPECT_LT(worstPin, 1e-8);
  EXPECT_LT(worstRod, 1e-8);
  EXPECT_LT(worstLine, 1e-8);
  EXPECT_LT(worstSlider, 1e-8);
  // The rod carries real force: it drives the slider against its inertia.
  EXPECT_GT(std::abs(sim.lambda(rod)[0]), 0.1);
}

// ---- redundant constraints -------------------------------------------------------------

// A triangle of three particles nailed at one corner, swinging under gravity; optionally
// the side 1–2 has a second, identical rod.
struct Triangle {
  Model model{2};
  std::vector<ParticleId> p;
  std::vector<ConstraintId> rods;
  std::optional<ConstraintId> duplicate;

  explicit Triangle(bool withDuplicate) {
    p.push_back(model.addParticle(1.0, Eigen::Vector2d(0.0, 0.0)));
    p.push_back(model.addParticle(2.0, Eigen::Vector2d(1.0, 0.0)));
    p.push_back(model.addParticle(1.5, Eigen::Vector2d(0.4, 0.7)));
    model.addConstraint(std::make_unique<FixedPointConstraint>(p[0], Eigen::Vector2d(0, 0)), "nail");
    rods.push_back(rod(0, 1, "rod01"));
    rods.push_back(rod(1, 2, "rod12"));
    rods.push_back(rod(2, 0, "rod20"));
    if (withDuplicate) addDuplicate();
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  }
  ConstraintId rod(std::size_t a, std::size_t b, std::string name) {
    const double length = (model.position(p[a]) - model.position(p[b])).norm();
    return model.addConstraint(std::make_unique<DistanceConstraint>(p[a], p[b], length), std::move(name));
  }
  void addDuplicate() { duplicate = rod(1, 2, "rod12-again"); }
};

// Runs `steps` steps; returns the positions after each.
std::vector<Eigen::VectorXd> run(Triangle& tri, const SimulationSettings& settings, int steps,
                                 double* worstC = nullptr) {
  Simulator sim(tri.model, settings);
  std::vector<Eigen::VectorXd> out;
  for (int i = 0; i < steps; ++i) {
    sim.step();
    EXPECT_TRUE(tri.model.q().allFinite() && tri.model.v().allFinite());
    if (worstC) *worstC = std::max(*worstC, sim.diagnostics().constraintError);
    out.push_back(tri.model.q());
  }
  return out;
}

double maxDifference(const std::vector<Eigen::VectorXd>& a, const std::vector<Eigen::VectorXd>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, (a[i] - b[i]).cwiseAbs().maxCoeff());
  return worst;
}

// The reference: the same triangle without the duplicate, solved exactly (LDLT). The
// duplicate changes only the null-space part of λ, never Jᵀλ, so the trajectories differ by
// the solve tolerances alone (relative 1e-12 residual ⇒ accelerations to ~1e-11, positions
// to ~1e-10 after 5 s), far inside 1e-6.
TEST(RedundantConstraints, ConjugateGradientSimulatesAndMatchesTheNonRedundantModel) {
  Triangle reference(false), redundant(true);
  SimulationSettings cg = settingsFor(SolverKind::ConjugateGradient);
  cg.solver.tolerance = 1e-12;
  const auto expected = run(reference, settingsFor(SolverKind::SparseLdlt), 5000);
  double worstC = 0.0;
  const auto actual = run(redundant, cg, 5000, &worstC);
  const double difference = maxDifference(expected, actual);
  std::cout << "[ info ] redundant triangle with CG: max |C| = " << worstC
            << ", max deviation from the non-redundant model = " << difference << "\n";
  EXPECT_LT(worstC, 1e-6);
  EXPECT_LT(difference, 1e-6);
  // It swung: the free corner moved by a visible amount.
  EXPECT_GT((redundant.model.position(redundant.p[1]) - Eigen::Vector2d(1, 0)).norm(), 0.1);
}

TEST(RedundantConstraints, SparseLdltWithoutRegularizationFailsTheStepAndKeepsTheState) {
  Triangle tri(false);
  Simulator sim(tri.model, settingsFor(SolverKind::SparseLdlt));
  for (int i = 0; i < 100; ++i) sim.step();  // a non-trivial state to keep
  tri.addDuplicate();
  const Eigen::VectorXd q = tri.model.q(), v = tri.model.v();
  const double time = tri.model.time();
  try {
    sim.step();
    FAIL() << "expected SimulationError";
  } catch (const SimulationError& e) {
    ASSERT_TRUE(e.constraint().has_value());
    EXPECT_TRUE(*e.constraint() == tri.rods[1] || *e.constraint() == *tri.duplicate)
        << "blamed " << tri.model.describe(*e.constraint());
    EXPECT_EQ(e.step(), 101u);
    EXPECT_EQ(e.time(), time);
    const std::string what = e.what();
    EXPECT_NE(what.find("rod12"), std::string::npos) << what;
  }
  EXPECT_EQ(tri.model.q(), q);
  EXPECT_EQ(tri.model.v(), v);
  EXPECT_EQ(tri.model.time(), time);
  EXPECT_EQ(sim.stepCount(), 100u);
}

// With ε = 1e-10 the regularized solve perturbs λ by a relative ε κ⁺ (κ⁺ ~ 10² here), so the
// accelerations by ~1e-8 relative. Most of that perturbation lies along the constraint
// normals (it is Jᵀ of a λ error) and only drives C; positions stay within ~1e-8 · g t² / 2
// ≈ 1e-6 in the worst case, and much less in practice.
TEST(RedundantConstraints, SparseLdltWithRegularizationSimulatesAndMatches) {
  Triangle reference(false), redundant(true);
  SimulationSettings ldlt = settingsFor(SolverKind::SparseLdlt);
  ldlt.solver.regularization = 1e-10;
  const auto expected = run(reference, settingsFor(SolverKind::SparseLdlt), 5000);
  double worstC = 0.0;
  const auto actual = run(redundant, ldlt, 5000, &worstC);
  const double difference = maxDifference(expected, actual);
  std::cout << "[ info ] redundant triangle with regularized LDLT: max |C| = " << worstC
            << ", max deviation from the non-redundant model = " << difference << "\n";
  EXPECT_LT(worstC, 1e-6);
  EXPECT_LT(difference, 1e-6);
}

// ---- blow-up ---------------------------------------------------------------------------

// Explicit Euler on a spring of stiffness k between unit masses multiplies the oscillation's
// amplitude by √(1 + h²ω²) per step, ω² = 2k/m: 1.4e4 per step for k = 1e12, h = 0.01, so the
// state overflows within ~80 steps. The failing step must be reported and undone.
TEST(BlowUp, StiffSpringWithExplicitEulerReportsTheStepAndKeepsTheLastGoodState) {
  Model model(2);
  const ParticleId a = model.addParticle(1.0, Eigen::Vector2d(0, 0), {}, "left");
  const ParticleId b = model.addParticle(1.0, Eigen::Vector2d(1.1, 0), {}, "right");
  model.addForce(std::make_unique<Spring>(a, b, SpringSettings{.stiffness = 1e12, .rest_length = 1.0}));
  Simulator sim(model, settingsFor(SolverKind::ConjugateGradient, 0.01, IntegratorKind::ExplicitEuler));
  Eigen::VectorXd q, v;
  double time = 0.0;
  std::uint64_t attempted = 0;
  std::optional<SimulationError> error;
  for (int i = 0; i < 1000 && !error; ++i) {
    q = model.q();
    v = model.v();
    time = model.time();
    ++attempted;
    try {
      sim.step();
    } catch (const SimulationError& e) {
      error = e;
    }
  }
  ASSERT_TRUE(error.has_value()) << "the stiff spring never blew up";
  std::cout << "[ info ] blow-up at step " << error->step() << ": " << error->what() << "\n";
  EXPECT_GT(error->step(), 10u);  // it grew for a while first
  EXPECT_EQ(error->step(), attempted);
  EXPECT_EQ(sim.stepCount(), attempted - 1);
  EXPECT_EQ(error->time(), time);
  ASSERT_TRUE(error->particle().has_value());
  EXPECT_TRUE(*error->particle() == a || *error->particle() == b);
  EXPECT_FALSE(error->constraint().has_value());  // there are no constraints to blame
  EXPECT_NE(std::string(error->what()).find(model.describe(*error->particle())), std::string::npos);
  // The model holds the last good state, bit for bit, and it is finite.
  EXPECT_EQ(model.q(), q);
  EXPECT_EQ(model.v(), v);
  EXPECT_EQ(model.time(), time);
  EXPECT_TRUE(model.q().allFinite() && model.v().allFinite());
  // Stepping again fails again at the same step number.
  try {
    sim.step();
    ADD_FAILURE() << "expected a second SimulationError";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.step(), attempted);
  }
}

// ---- drift control -----------------------------------------------------------------------

// With feedback the solve enforces C̈ = −ks C − kd Ċ. For ks = 100, kd = 20 that is
// critically damped with rate 10: C(t) = C₀ (1 + 10 t) e^{−10 t} from Ċ(0) = 0. The bound
// at t = 2 s is 1e-3 · 21 · e^{−20} ≈ 4e-11. RK4's error on this linear mode is
// ≈ (10 h)⁴ relative ≈ 1e-8 of C₀ ≈ 1e-11; the bound 1e-9 leaves room for the coupling with
// the swinging bob's own truncation error but is still 1e-6 of C₀.
TEST(Feedback, ViolatedRodRecoversAtTheCriticallyDampedRate) {
  const double C0 = 1e-3, h = 1e-3;
  Pendulum p(Eigen::Vector2d(1.0 + C0, 0), Eigen::Vector2d::Zero());
  SimulationSettings s = settingsFor(SolverKind::SparseLdlt, h);
  s.ks = 100.0;
  s.kd = 20.0;
  Simulator sim(p.model, s);
  EXPECT_NEAR(sim.diagnostics().constraintError, C0, 1e-15);
  double worstFit = 0.0, worstLate = 0.0;
  for (int n = 1; n <= 3000; ++n) {
    sim.step();
    const double t = n * h;
    const double C = p.model.position(p.bob).norm() - 1.0;
    worstFit = std::max(worstFit, std::abs(C - C0 * (1 + 10 * t) * std::exp(-10 * t)));
    if (t >= 2.0) worstLate = std::max(worstLate, sim.diagnostics().constraintError);
  }
  std::cout << "[ info ] feedback: max |C - C0(1+10t)exp(-10t)| = " << worstFit
            << ", max |C| for t >= 2 s = " << worstLate << "\n";
  EXPECT_LT(worstFit, 1e-9);
  EXPECT_LT(worstLate, 1e-7);
}

// Post-stabilization projects onto C = 0 (Gauss–Newton, quadratic convergence, tolerance
// 1e-12) and then onto Ċ = 0 exactly (one linear solve), after every step.
TEST_P(BySolver, ProjectionRemovesTheViolationInOneStep) {
  // Rod too long by 1e-3 and a radial velocity component, so C ≠ 0 and Ċ ≠ 0 at the start.
  Pendulum p(Eigen::Vector2d(1.001, 0), Eigen::Vector2d(0.05, -0.5));
  SimulationSettings s = settingsFor(GetParam());
  s.projection.enabled = true;
  Simulator sim(p.model, s);
  EXPECT_GT(sim.diagnostics().constraintError, 9e-4);
  EXPECT_GT(sim.diagnostics().velocityError, 4e-2);
  sim.step();
  EXPECT_LT(sim.diagnostics().constraintError, 1e-10);
  EXPECT_LT(sim.diagnostics().velocityError, 1e-10);
  EXPECT_GT(sim.diagnostics().solves, 4);  // the 4 RK4 stages plus the projection solves
  double worstC = 0.0, worstCdot = 0.0;
  for (int i = 0; i < 2000; ++i) {
    sim.step();
    worstC = std::max(worstC, sim.diagnostics().constraintError);
    worstCdot = std::max(worstCdot, sim.diagnostics().velocityError);
  }
  EXPECT_LT(worstC, 1e-10);
  EXPECT_LT(worstCdot, 1e-10);
}

// ---- reported multipliers ------------------------------------------------------------------

// At rest at the bottom the rod holds the weight: J = nᵀ with n = (0, −1), the force on the
// bob is λ n = (0, −λ) = (0, m g), so λ = −m g (tension). The direct solve is exact to
// round-off and CG solves a 1 × 1 system in one iteration.
TEST_P(BySolver, HangingPendulumReportsItsWeightAsTension) {
  const double m = 2.0;
  Pendulum p(Eigen::Vector2d(0, -1), Eigen::Vector2d::Zero(), m);
  Simulator sim(p.model, settingsFor(GetParam()));
  ASSERT_EQ(sim.lambda(p.rod).size(), 1u);
  EXPECT_EQ(sim.lambda(p.rod)[0], 0.0);  // nothing solved yet
  sim.step();
  EXPECT_NEAR(sim.lambda(p.rod)[0] / (-m * kG), 1.0, 1e-9);
  EXPECT_NEAR(sim.constraintForce()[1], m * kG, 1e-9 * m * kG);
  EXPECT_NEAR(sim.constraintForce()[0], 0.0, 1e-12);
  // It stays at rest.
  EXPECT_LT((p.model.position(p.bob) - Eigen::Vector2d(0, -1)).norm(), 1e-12);
}

// A moving bob at angle θ with speed v: the radial balance m v²/L = T − m g cos θ gives the
// tension T = m (g cos θ + v²/L), and λ = −T, at the state the step starts from.
TEST_P(BySolver, MovingBobReportsTheCentripetalTension) {
  const double m = 0.8, L = 1.0;
  for (const double theta : {0.0, 0.7, 2.0, -1.2}) {
    for (const double speed : {0.0, 1.3, 4.0}) {
      const Eigen::Vector2d x(L * std::sin(theta), -L * std::cos(theta));
      const Eigen::Vector2d tangent(std::cos(theta), std::sin(theta));
      Pendulum p(x, speed * tangent, m, L);
      Simulator sim(p.model, settingsFor(GetParam()));
      sim.step();
      const double expected = -m * (kG * std::cos(theta) + speed * speed / L);
      EXPECT_NEAR(sim.lambda(p.rod)[0], expected, 1e-9 * std::max(1.0, std::abs(expected)))
          << "theta = " << theta << ", speed = " << speed;
      // Q̂ = Jᵀλ = λ n with n the outward unit vector.
      const Eigen::Vector2d force = sim.constraintForce();
      EXPECT_LT((force - expected * x / L).norm(), 1e-9 * std::max(1.0, std::abs(expected)));
    }
  }
}

}  // namespace
}  // namespace tinkertoy
