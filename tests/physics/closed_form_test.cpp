// Whole simulations compared with closed forms: the bead on a wire, the exact
// large-amplitude pendulum and its period, the conical pendulum and a slider-crank.
//
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
#include "physics/physics_models.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy::test {
namespace {

using std::numbers::pi;


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

// ---- bead on a wire --------------------------------------------------------------------

// Without feedback the constraint is held only by C̈ = 0 at every stage; what is left is
// RK4's truncation error in the normal direction, ≈ (hω)⁵ ~ 1e-12 per step with ω ≈ v/r.
TEST_P(BySolver, BeadOnAWireStaysOnTheCircle) {
  Model model(2);
  const BodyId bead = model.addParticle(1.0, Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 2));
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
  const BodyId bob =
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
  const BodyId pin = model.addParticle(0.5, Eigen::Vector2d(r, 0), Eigen::Vector2d(0, r * omega), "pin");
  const BodyId slider =
      model.addParticle(2.0, Eigen::Vector2d(xSlider(0.0), y0),
                        Eigen::Vector2d(y0 * r * omega / std::sqrt(l * l - y0 * y0), 0), "slider");
  auto crank = std::make_shared<CurvePath>(std::make_shared<CircleCurve>(Eigen::Vector2d(0, 0), r), omega);
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

}  // namespace
}  // namespace tinkertoy::test
