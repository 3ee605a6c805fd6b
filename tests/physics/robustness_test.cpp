// Robustness of whole simulations: redundant constraints, blow-up reporting, drift control
// by feedback and projection, and the reported multipliers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "physics/physics_models.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy::test {
namespace {


// ---- redundant constraints -------------------------------------------------------------

// A triangle of three particles nailed at one corner, swinging under gravity; optionally
// the side 1–2 has a second, identical rod.
struct Triangle {
  Model model{2};
  std::vector<BodyId> p;
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
  SimulationSettings exact = settingsFor(SolverKind::SparseLdlt);
  exact.solver.regularization = 0.0;
  Simulator sim(tri.model, exact);
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

// At the default damping (ε = 1e-8, refined) the solve converges to the exact λ along every
// direction but the duplicate rows' null space, where the damped solution splits the force
// between the two copies; the force Jᵀλ, and so the motion, match the non-redundant model.
TEST(RedundantConstraints, SparseLdltWithRegularizationSimulatesAndMatches) {
  Triangle reference(false), redundant(true);
  const SimulationSettings ldlt = settingsFor(SolverKind::SparseLdlt);
  ASSERT_GT(ldlt.solver.regularization, 0.0);
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
// state would overflow within ~80 steps; its energy is 2e8 times what it had after the first, so
// the runaway criterion (dynamics/runaway_watch.hpp) refuses that one. The failing step must be
// reported and undone.
TEST(BlowUp, StiffSpringWithExplicitEulerReportsTheStepAndKeepsTheLastGoodState) {
  Model model(2);
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d(0, 0), {}, "left");
  const BodyId b = model.addParticle(1.0, Eigen::Vector2d(1.1, 0), {}, "right");
  model.addForce(std::make_unique<Spring>(a, b, SpringParameters{.stiffness = 1e12, .rest_length = 1.0}));
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
  EXPECT_EQ(error->step(), 1u);
  EXPECT_NE(std::string(error->what()).find("the state ran away: its energy is"), std::string::npos) << error->what();
  EXPECT_EQ(error->step(), attempted);
  EXPECT_EQ(sim.stepCount(), attempted - 1);
  EXPECT_EQ(error->time(), time);
  ASSERT_TRUE(error->body().has_value());
  EXPECT_TRUE(*error->body() == a || *error->body() == b);
  EXPECT_FALSE(error->constraint().has_value());  // there are no constraints to blame
  EXPECT_NE(std::string(error->what()).find(model.describe(*error->body())), std::string::npos);
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

// Symplectic Euler on the acceleration-level equations gains energy on a whipping chain
// (docs/theory.md, "Integrators") until the links separate. The finite but meaningless state must be
// reported, naming the constraint that came apart, and must not be committed.
TEST(BlowUp, ChainThatComesApartIsReportedBeforeItIsCommitted) {
  Model model(2);
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -kG)));
  BodyId previous;
  for (int i = 1; i <= 10; ++i) {
    const BodyId p = model.addParticle(1.0, Eigen::Vector2d(i, 0));
    if (i == 1) {
      model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(0, 0), 1.0));
    } else {
      model.addConstraint(std::make_unique<DistanceConstraint>(previous, p, 1.0));
    }
    previous = p;
  }
  SimulationSettings settings = settingsFor(SolverKind::SparseLdlt, 1.0 / 240.0, IntegratorKind::SymplecticEuler);
  settings.projection.enabled = true;
  Simulator sim(model, settings);
  std::optional<SimulationError> error;
  Eigen::VectorXd before;
  for (int i = 0; i < 2400 && !error; ++i) {
    before = model.q();
    try {
      sim.step();
    } catch (const SimulationError& e) {
      error = e;
    }
  }
  ASSERT_TRUE(error.has_value()) << "the chain should have come apart within 10 s";
  EXPECT_NE(std::string(error->what()).find("came apart"), std::string::npos) << error->what();
  ASSERT_TRUE(error->constraint().has_value());
  EXPECT_EQ(model.q(), before);
  // The committed state is still a chain: no link is stretched by more than the threshold.
  EXPECT_LT(sim.diagnostics().constraintError, 10.0 * 10.0);
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
  s.projection.enabled = false;  // the feedback alone
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

// Constraints that cannot all hold: a particle tied by rods of 0.9 m to two nails 2 m apart.
// Gauss–Newton heads for the least-squares compromise on the line between the nails, where J
// loses rank; the projection must stop there (stalled, reported as not converged) with every
// number finite and the violation no larger than it started, step after step.
TEST_P(BySolver, ProjectionOfImpossibleConstraintsStallsAtTheBestCompromise) {
  Model model(2);
  const BodyId p = model.addParticle(1.0, Eigen::Vector2d(0.0, 0.3));
  model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(-1.0, 0.0), 0.9));
  model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(1.0, 0.0), 0.9));
  Simulator sim(model, settingsFor(GetParam()));
  const double start = sim.diagnostics().constraintError;
  double worst = 0.0;
  for (int i = 0; i < 50; ++i) {
    sim.step();
    EXPECT_FALSE(sim.diagnostics().projectionConverged) << "step " << i + 1;
    ASSERT_TRUE(model.q().allFinite() && model.v().allFinite()) << "step " << i + 1;
    worst = std::max(worst, sim.diagnostics().constraintError);
  }
  // The best compromise, on the line: both rods 1 m, 0.1 m too long each.
  EXPECT_LE(worst, start);
  EXPECT_NEAR(sim.diagnostics().constraintError, 0.1, 1e-3);
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
}  // namespace tinkertoy::test
