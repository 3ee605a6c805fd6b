// dopri5 (integrators/dormand_prince.hpp): step-size control against problems with closed-form
// solutions, dense output, continuation and restart, failure, and the constrained pendulum
// through the Simulator.
//
// The test problem. q̈ = 2q³ with q(0) = 1, q̇(0) = 1 has the solution q = 1/(1 − t),
// q̇ = 1/(1 − t)²: smooth on [0, 1) and ever faster, so the controller must shorten its steps
// as t grows, and it blows up at t = 1. dopri5 keeps each step's error below
// atol + rtol |y|; the global error over a non-stiff interval is a modest multiple of that
// (the growth of earlier errors), which the bounds below allow with a factor of 20 measured
// against what the code does at the tolerances used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/integrators/dormand_prince.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {
namespace {

class Hyperbola final : public AccelerationField {
 public:
  void acceleration(const StateView& s, Eigen::VectorXd& a) override {
    a.resize(1);
    a[0] = 2.0 * s.q[0] * s.q[0] * s.q[0];
    ++evaluations;
  }
  static double position(double t) { return 1.0 / (1.0 - t); }
  static double velocity(double t) { return 1.0 / ((1.0 - t) * (1.0 - t)); }
  int evaluations = 0;
};

struct State {
  double t = 0.0;
  Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 1.0), v = Eigen::VectorXd::Constant(1, 1.0);
};

// The larger of the relative position and velocity errors against the closed form.
double relativeError(const State& s) {
  return std::max(std::abs(s.q[0] / Hyperbola::position(s.t) - 1.0), std::abs(s.v[0] / Hyperbola::velocity(s.t) - 1.0));
}

constexpr double kEnd = 0.9;  // q = 10 there

TEST(DormandPrince, FewerStepsAtLooserToleranceAndTheErrorWithinIt) {
  std::vector<int> steps;
  for (const double tol : {1e-4, 1e-6, 1e-8, 1e-10}) {
    Hyperbola field;
    DormandPrince dopri({.relative = tol, .absolute = tol});
    State s;
    const AdaptiveTally tally = dopri.advance(field, nullptr, s.t, s.q, s.v, kEnd);
    EXPECT_EQ(s.t, kEnd);
    std::cout << "[ info ] q = 1/(1 - t) to t = 0.9, tolerance " << tol << ": " << tally.accepted << " steps, "
              << tally.rejected << " rejected, relative error " << relativeError(s) << "\n";
    EXPECT_LT(relativeError(s), 20.0 * tol);
    EXPECT_GT(relativeError(s), 1e-3 * tol) << "an error far below the tolerance means the control is not working";
    if (!steps.empty()) {
      EXPECT_GT(tally.accepted, steps.back()) << "a tighter tolerance must take more steps";
    }
    steps.push_back(tally.accepted);
  }
  // A fifth-order step's error goes like h⁵, so tightening the tolerance 10⁴× shortens the
  // steps by 10^(4/5) ≈ 6.3.
  const double ratio = static_cast<double>(steps[3]) / steps[1];
  std::cout << "[ info ] steps at 1e-10 / steps at 1e-6 = " << ratio << " (10^(4/5) = 6.31)\n";
  EXPECT_GT(ratio, 4.5);
  EXPECT_LT(ratio, 9.0);
}

// The continuous extension is of order 4: over a step h its error is O(h⁵), as small as the
// step's own. A cubic Hermite interpolant (without the extension's correction) would be
// O(h⁴), 560× the tolerance at 1e-10 here (measured with the correction removed).
TEST(DormandPrince, DenseOutputIsAsAccurateAsTheSteps) {
  constexpr double tol = 1e-10;
  Hyperbola single;
  DormandPrince oneCall({.relative = tol, .absolute = tol});
  State whole;
  const AdaptiveTally wholeTally = oneCall.advance(single, nullptr, whole.t, whole.q, whole.v, kEnd);

  Hyperbola field;
  DormandPrince dopri({.relative = tol, .absolute = tol});
  State s;
  int accepted = 0;
  double worst = 0.0;
  constexpr int kOutputs = 900;
  for (int i = 1; i <= kOutputs; ++i) {
    accepted += dopri.advance(field, nullptr, s.t, s.q, s.v, kEnd * i / kOutputs).accepted;
    worst = std::max(worst, relativeError(s));
  }
  std::cout << "[ info ] dense output at 900 times: worst relative error " << worst << ", " << accepted
            << " steps (one call: " << wholeTally.accepted << ")\n";
  EXPECT_LT(worst, 20.0 * tol);
  EXPECT_EQ(accepted, wholeTally.accepted) << "asking for outputs must not change the steps";
  EXPECT_EQ(field.evaluations, single.evaluations);
  EXPECT_NEAR(s.q[0], whole.q[0], 1e-14 * whole.q[0]);
  EXPECT_LT(accepted, kOutputs / 4) << "the steps must span several outputs";
}

TEST(DormandPrince, ADifferentStateStartsAfresh) {
  Hyperbola field;
  DormandPrince dopri({.relative = 1e-8, .absolute = 1e-8});
  State s;
  dopri.advance(field, nullptr, s.t, s.q, s.v, 0.3);
  // Put the exact state at t = 0.3 back in (an edit): the continuation must not be used.
  State edited;
  edited.t = 0.3;
  edited.q[0] = Hyperbola::position(0.3);
  edited.v[0] = Hyperbola::velocity(0.3);
  State fresh = edited;
  dopri.advance(field, nullptr, edited.t, edited.q, edited.v, 0.6);
  Hyperbola other;
  DormandPrince newcomer({.relative = 1e-8, .absolute = 1e-8});
  newcomer.advance(other, nullptr, fresh.t, fresh.q, fresh.v, 0.6);
  EXPECT_EQ(edited.q[0], fresh.q[0]);
  EXPECT_EQ(edited.v[0], fresh.v[0]);
}

// A kink: the acceleration switches on at t = 0.5 (q = ½(t − ½)² after it). The steps that
// straddle it fail the error test and are retried shorter; the result still meets the bound.
class Kink final : public AccelerationField {
 public:
  void acceleration(const StateView& s, Eigen::VectorXd& a) override { a = Eigen::VectorXd::Constant(1, s.time > 0.5 ? 1.0 : 0.0); }
};

TEST(DormandPrince, RejectsAndRetriesAcrossAKink) {
  Kink field;
  DormandPrince dopri({.relative = 1e-9, .absolute = 1e-9});
  double t = 0.0;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(1), v = Eigen::VectorXd::Zero(1);
  const AdaptiveTally tally = dopri.advance(field, nullptr, t, q, v, 1.0);
  std::cout << "[ info ] kink: " << tally.accepted << " steps, " << tally.rejected << " rejected, q(1) = " << q[0]
            << "\n";
  EXPECT_GT(tally.rejected, 0);
  EXPECT_NEAR(q[0], 0.125, 1e-7);
  EXPECT_NEAR(v[0], 0.5, 1e-7);
}

// Without a corrector the pair is "first same as last": the start costs two evaluations (the
// first stage and the initial step's trial), and every attempt, accepted or not, six more.
TEST(DormandPrince, ReusesTheLastStageWithoutACorrector) {
  Hyperbola field;
  DormandPrince dopri({.relative = 1e-6, .absolute = 1e-6});
  State s;
  const AdaptiveTally tally = dopri.advance(field, nullptr, s.t, s.q, s.v, kEnd);
  EXPECT_EQ(field.evaluations, 2 + 6 * (tally.accepted + tally.rejected));
}

// A corrector moves each accepted step's end, so the next step's first stage is evaluated
// afresh there: seven evaluations an attempt after the first.
class Nudge final : public StateCorrector {
 public:
  void correct(double, Eigen::VectorXd& q, Eigen::VectorXd&) override {
    q *= 1.0 + 1e-12;
    ++calls;
  }
  int calls = 0;
};

TEST(DormandPrince, EvaluatesTheFirstStageAfreshAfterACorrection) {
  Hyperbola field;
  Nudge nudge;
  DormandPrince dopri({.relative = 1e-6, .absolute = 1e-6});
  State s;
  const AdaptiveTally tally = dopri.advance(field, &nudge, s.t, s.q, s.v, kEnd);
  EXPECT_EQ(nudge.calls, tally.accepted + 1) << "each accepted step and the returned state";
  EXPECT_EQ(field.evaluations, 2 + 6 * (tally.accepted + tally.rejected) + (tally.accepted - 1));
}

// A model with no coordinates (nothing to integrate) advances in time without failing.
class Empty final : public AccelerationField {
 public:
  void acceleration(const StateView&, Eigen::VectorXd& a) override { a.resize(0); }
};

TEST(DormandPrince, AdvancesAModelWithNoCoordinates) {
  Empty field;
  DormandPrince dopri({});
  double t = 0.0;
  Eigen::VectorXd q(0), v(0);
  dopri.advance(field, nullptr, t, q, v, 1.0);
  EXPECT_EQ(t, 1.0);
}

// Constant acceleration is integrated exactly, so the error estimate is zero and the controller
// would grow the step tenfold each time; it is held to 100 requested intervals.
class FreeFall final : public AccelerationField {
 public:
  void acceleration(const StateView&, Eigen::VectorXd& a) override { a = Eigen::VectorXd::Constant(1, -9.81); }
};

TEST(DormandPrince, NoStepLongerThanAHundredRequestedIntervals) {
  FreeFall field;
  DormandPrince dopri({});
  double t = 0.0;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(1), v = Eigen::VectorXd::Zero(1);
  double longest = 0.0;
  for (int i = 1; i <= 1000; ++i) longest = std::max(longest, dopri.advance(field, nullptr, t, q, v, 1e-3 * i).lastStep);
  EXPECT_LE(longest, 0.1 * (1 + 1e-12));
  EXPECT_GT(longest, 0.05) << "the steps must still grow";
  EXPECT_NEAR(q[0], -0.5 * 9.81, 1e-12);
}

// A stiff oscillator (ω = 10⁷ rad/s) needs some 10⁷ explicit steps a second: dopri5 gives up
// after 100 000 in one call, with a message, instead of running for minutes.
class Stiff final : public AccelerationField {
 public:
  void acceleration(const StateView& s, Eigen::VectorXd& a) override { a = -1e14 * s.q; }
};

TEST(DormandPrince, ATooStiffModelEndsInAnAdaptiveStepError) {
  Stiff field;
  DormandPrince dopri({});
  double t = 0.0;
  Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 1e-3), v = Eigen::VectorXd::Zero(1);
  try {
    dopri.advance(field, nullptr, t, q, v, 1.0);
    FAIL() << "expected an AdaptiveStepError";
  } catch (const AdaptiveStepError& e) {
    EXPECT_NE(std::string(e.what()).find("too stiff"), std::string::npos) << e.what();
  }
}

// A call that throws (here the field, on its 40th evaluation) leaves nothing to resume: the
// retry from the state the caller kept is a fresh start, the same as a new integrator's.
class FailsOnce final : public AccelerationField {
 public:
  void acceleration(const StateView& s, Eigen::VectorXd& a) override {
    if (++evaluations == 40) throw std::runtime_error("a failing stage");
    inner.acceleration(s, a);
  }
  Hyperbola inner;
  int evaluations = 0;
};

TEST(DormandPrince, ACallThatThrowsLeavesNothingToResume) {
  FailsOnce field;
  DormandPrince dopri({.relative = 1e-8, .absolute = 1e-8});
  State s;
  dopri.advance(field, nullptr, s.t, s.q, s.v, 0.1);
  const State kept = s;
  State attempt = s;
  EXPECT_THROW(dopri.advance(field, nullptr, attempt.t, attempt.q, attempt.v, 0.8), std::runtime_error);
  State retry = kept;
  dopri.advance(field, nullptr, retry.t, retry.q, retry.v, 0.2);
  Hyperbola other;
  DormandPrince newcomer({.relative = 1e-8, .absolute = 1e-8});
  State fresh = kept;
  newcomer.advance(other, nullptr, fresh.t, fresh.q, fresh.v, 0.2);
  EXPECT_EQ(retry.q[0], fresh.q[0]);
  EXPECT_EQ(retry.v[0], fresh.v[0]);
}

TEST(DormandPrince, ABlowUpEndsInAnAdaptiveStepError) {
  Hyperbola field;
  DormandPrince dopri({.relative = 1e-8, .absolute = 1e-8});
  State s;
  EXPECT_THROW(dopri.advance(field, nullptr, s.t, s.q, s.v, 1.5), AdaptiveStepError);
}

TEST(DormandPrince, RefusesToleranceItCannotMeet) {
  for (const ErrorTolerance bad : {ErrorTolerance{.relative = 0.0}, ErrorTolerance{.relative = 1e-15},
                                   ErrorTolerance{.relative = 1.0}, ErrorTolerance{.relative = NAN},
                                   ErrorTolerance{.absolute = 0.0}, ErrorTolerance{.absolute = -1.0},
                                   ErrorTolerance{.absolute = INFINITY}}) {
    EXPECT_THROW(DormandPrince{bad}, std::invalid_argument) << bad.relative << " " << bad.absolute;
  }
  Hyperbola field;
  DormandPrince dopri({});
  State s;
  EXPECT_THROW(dopri.advance(field, nullptr, s.t, s.q, s.v, 0.0), std::invalid_argument) << "backwards in time";
}

// ---- through the Simulator: the constrained pendulum ---------------------------------------

struct Pendulum {
  Model model{2};
  Pendulum() {
    const BodyId bob = model.addParticle(1.0, Eigen::Vector2d(std::sin(1.0), -std::cos(1.0)));
    model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -9.81)));
  }
};

Eigen::VectorXd pendulumState(IntegratorKind kind, double dt, double tol, double T, int* adaptiveSteps = nullptr,
                              double* worstC = nullptr) {
  Pendulum p;
  SimulationSettings s{.dt = dt, .integrator = kind};
  s.errorTolerance = {.relative = tol, .absolute = tol};
  s.solver.kind = SolverKind::SparseLdlt;
  Simulator sim(p.model, s);
  const long steps = std::lround(T / dt);
  for (long i = 0; i < steps; ++i) {
    sim.step();
    if (adaptiveSteps) *adaptiveSteps += sim.diagnostics().adaptiveSteps;
    if (worstC) *worstC = std::max(*worstC, sim.diagnostics().constraintError);
  }
  Eigen::VectorXd y(4);
  y << p.model.q(), p.model.v();
  return y;
}

TEST(DormandPrince, ProjectedPendulumMatchesTheReferenceAtEveryOutput) {
  const Eigen::VectorXd reference = pendulumState(IntegratorKind::RungeKutta4, 1e-4, 1e-6, 2.0);
  for (const double tol : {1e-6, 1e-9}) {
    int steps = 0;
    double worstC = 0.0;
    const Eigen::VectorXd y = pendulumState(IntegratorKind::DormandPrince5, 1e-3, tol, 2.0, &steps, &worstC);
    const double error = (y - reference).cwiseAbs().maxCoeff();
    std::cout << "[ info ] pendulum, dopri5 at " << tol << ": " << steps << " steps for 2000 outputs, error "
              << error << ", max |C| " << worstC << "\n";
    EXPECT_LT(error, 20.0 * tol);
    EXPECT_LE(worstC, 1e-12) << "every output is projected";
    EXPECT_GT(steps, 0);
    EXPECT_LT(steps, 200) << "the steps must span many outputs";
  }
}

// λ is solved at each returned state, though the step that produced it began up to tens of
// outputs before: radially, −m|v|²/L = −T + m g·x/L, so the rod's tension is T = m|v|²/L + m g·x/L
// with g = (0, −9.81), to within the tolerance's effect on the state.
TEST(DormandPrince, ReactionIsTheTensionAtTheReturnedState) {
  Pendulum p;
  SimulationSettings s{.dt = 1e-3, .integrator = IntegratorKind::DormandPrince5};
  s.errorTolerance = {.relative = 1e-6, .absolute = 1e-6};
  s.solver.kind = SolverKind::SparseLdlt;
  Simulator sim(p.model, s);
  const ConstraintId rod = p.model.constraintAt(0);
  const BodyId bob = p.model.bodyAt(0);
  double worst = 0.0;
  for (int i = 0; i < 2000; ++i) {
    sim.step();
    const Eigen::Vector2d x = p.model.position(bob), v = p.model.velocity(bob);
    const double tension = v.squaredNorm() - 9.81 * x.y();  // m = 1 kg, L = 1 m
    worst = std::max(worst, std::abs(sim.reaction(rod).force.norm() - std::abs(tension)));
  }
  std::cout << "[ info ] dopri5 pendulum: largest |reaction - tension| over 2 s " << worst << " N\n";
  EXPECT_LT(worst, 1e-4);
}

// An edit that changes the model but not the state (gravity here) must restart the integration:
// the steps in progress were computed with the old forces.
TEST(DormandPrince, AModelEditRestartsTheIntegration) {
  SimulationSettings s{.dt = 1e-3, .integrator = IntegratorKind::DormandPrince5};
  s.solver.kind = SolverKind::SparseLdlt;
  Pendulum edited;
  Simulator sim(edited.model, s);
  for (int i = 0; i < 100; ++i) sim.step();
  const auto weaker = [](GravitySettings& g) { g.acceleration = Eigen::Vector2d(0.0, -3.0); };
  edited.model.editForce<GravitySettings>(edited.model.forceAt(0), weaker);
  Pendulum fresh;
  fresh.model.setState(edited.model.time(), edited.model.q(), edited.model.v());
  fresh.model.editForce<GravitySettings>(fresh.model.forceAt(0), weaker);
  Simulator newcomer(fresh.model, s);
  for (int i = 0; i < 50; ++i) {
    sim.step();
    newcomer.step();
  }
  EXPECT_EQ(edited.model.q(), fresh.model.q());
  EXPECT_EQ(edited.model.v(), fresh.model.v());
}

}  // namespace
}  // namespace tinkertoy
