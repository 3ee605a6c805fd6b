// Integrator tests: measured convergence orders (on plain ODEs with known solutions and on
// the constrained pendulum), energy-error scaling derived from the order, the exact energy
// laws of both Euler methods on a linear oscillator, explicit Euler's energy gain on the
// pendulum, and the name table.
//
// Order measurement. A method of global order p has error e(h) = c h^p + O(h^{p+1}) at a
// fixed end time, so p ≈ log2(e(h) / e(h/2)). The step sizes are chosen so that (a) the
// higher-order term is small (hω ≤ 0.06 for the pendulum's ω ≈ 3.1 rad/s) and (b) RK4's
// error at the finest step is still ≳ 1e-10, far above round-off (~1e-14 after a few hundred
// steps) and above the reference's own error (RK4 with h = 1e-4: ≈ 1e-16 · c). The measured
// order must lie within ±0.25 of the nominal one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/integrators/integrator.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {
namespace {

constexpr double kG = 9.81;
constexpr IntegratorKind kAll[] = {IntegratorKind::ExplicitEuler, IntegratorKind::SymplecticEuler,
                                   IntegratorKind::Midpoint, IntegratorKind::RungeKutta4};
// RATTLE needs the constraints, so it runs on the constrained pendulum only.
constexpr IntegratorKind kConstrained[] = {IntegratorKind::ExplicitEuler, IntegratorKind::SymplecticEuler,
                                           IntegratorKind::Midpoint, IntegratorKind::RungeKutta4,
                                           IntegratorKind::Rattle};

std::string kindLabel(const ::testing::TestParamInfo<IntegratorKind>& info) {
  std::string name(integratorName(info.param));
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// ---- plain ODEs, through the Integrator directly ---------------------------------------

// q̈ = −ω² q + F cos(Ω t): a forced oscillator. The forcing makes the field time dependent, so
// an integrator that evaluated a stage at the wrong time would lose its order.
// With q(0) = 1, q̇(0) = 0:  q(t) = A cos ωt + B cos Ωt,  B = F / (ω² − Ω²),  A = 1 − B.
class ForcedOscillator final : public AccelerationField {
 public:
  static constexpr double kOmega = 2.0, kForce = 3.0, kDrive = 5.0;
  void acceleration(const StateView& s, Eigen::VectorXd& a) override {
    a.resize(1);
    a[0] = -kOmega * kOmega * s.q[0] + kForce * std::cos(kDrive * s.time);
  }
  static double exact(double t) {
    const double B = kForce / (kOmega * kOmega - kDrive * kDrive);
    return (1.0 - B) * std::cos(kOmega * t) + B * std::cos(kDrive * t);
  }
};

double forcedOscillatorError(IntegratorKind kind, double h, double T) {
  ForcedOscillator field;
  Integrator integrator(kind);
  Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 1.0), v = Eigen::VectorXd::Zero(1);
  double t = 0.0;
  const int steps = static_cast<int>(std::lround(T / h));
  for (int i = 0; i < steps; ++i) integrator.step(field, t, q, v, h);
  EXPECT_NEAR(t, T, 1e-12);
  return std::abs(q[0] - ForcedOscillator::exact(T));
}

class ByIntegrator : public ::testing::TestWithParam<IntegratorKind> {};
INSTANTIATE_TEST_SUITE_P(Integrators, ByIntegrator, ::testing::ValuesIn(kAll), kindLabel);

TEST_P(ByIntegrator, OrderOnATimeDependentOde) {
  const IntegratorKind kind = GetParam();
  const int p = integratorOrder(kind);
  // Drive frequency 5 rad/s: hΩ ≤ 0.05 at the coarsest step.
  const std::vector<double> hs = {0.01, 0.005, 0.0025};
  std::vector<double> errors;
  for (double h : hs) errors.push_back(forcedOscillatorError(kind, h, 2.0));
  for (std::size_t i = 0; i + 1 < hs.size(); ++i) {
    const double order = std::log2(errors[i] / errors[i + 1]);
    std::cout << "[ info ] forced oscillator, " << integratorName(kind) << ": h = " << hs[i]
              << " error " << errors[i] << ", measured order " << order << "\n";
    EXPECT_NEAR(order, p, 0.25) << integratorName(kind) << " between h = " << hs[i] << " and " << hs[i + 1];
  }
  EXPECT_GT(errors.back(), 1e-12) << "finest error is at round-off: the order would be meaningless";
}

// ---- the constrained pendulum ------------------------------------------------------------

// A pendulum of length 1 released from rest at θ₀ = 1 rad, solved with LDLT so the
// multipliers are exact to round-off and only the integrator errs.
struct Pendulum {
  Model model{2};
  BodyId bob;
  Pendulum() {
    bob = model.addParticle(1.0, Eigen::Vector2d(std::sin(1.0), -std::cos(1.0)));
    model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  }
};

struct Trajectory {
  Eigen::VectorXd q, v;  // at the end
  double maxEnergyError = 0.0;
  double finalEnergyError = 0.0;
};

Trajectory simulate(IntegratorKind kind, double h, double T, bool project = false) {
  Pendulum p;
  SimulationSettings s;
  s.dt = h;
  s.integrator = kind;
  s.solver.kind = SolverKind::SparseLdlt;
  s.projection.enabled = project;
  Simulator sim(p.model, s);
  const double E0 = sim.diagnostics().totalEnergy();
  Trajectory run;
  const long steps = std::lround(T / h);
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const double dE = sim.diagnostics().totalEnergy() - E0;
    run.maxEnergyError = std::max(run.maxEnergyError, std::abs(dE));
    run.finalEnergyError = dE;
  }
  run.q = p.model.q();
  run.v = p.model.v();
  return run;
}

const Trajectory& reference() {
  static const Trajectory r = simulate(IntegratorKind::RungeKutta4, 1e-4, 1.0);
  return r;
}

double stateError(const Trajectory& r) {
  return std::max((r.q - reference().q).cwiseAbs().maxCoeff(), (r.v - reference().v).cwiseAbs().maxCoeff());
}

class OnThePendulum : public ::testing::TestWithParam<IntegratorKind> {};
INSTANTIATE_TEST_SUITE_P(Integrators, OnThePendulum, ::testing::ValuesIn(kConstrained), kindLabel);

TEST_P(OnThePendulum, OrderOnTheConstrainedPendulum) {
  const IntegratorKind kind = GetParam();
  const int p = integratorOrder(kind);
  std::vector<double> hs = {0.02, 0.01, 0.005};
  if (kind == IntegratorKind::RungeKutta4) hs.push_back(0.0025);
  std::vector<double> errors;
  for (double h : hs) errors.push_back(stateError(simulate(kind, h, 1.0)));
  for (std::size_t i = 0; i + 1 < hs.size(); ++i) {
    const double order = std::log2(errors[i] / errors[i + 1]);
    std::cout << "[ info ] pendulum, " << integratorName(kind) << ": h = " << hs[i] << " error "
              << errors[i] << ", measured order " << order << "\n";
    EXPECT_NEAR(order, p, 0.25) << integratorName(kind) << " between h = " << hs[i] << " and " << hs[i + 1];
  }
  EXPECT_GT(errors.back(), 1e-11) << "finest error is near round-off";
}

// The energy error is a global error like any other, so max_t |E(t) − E(0)| ∝ h^p and
// halving h divides it by 2^p; accepted band [0.6·2^p, 1.6·2^p]. (For symplectic Euler the
// error is an O(h) oscillation rather than a drift, with the same scaling, and RATTLE's an O(h²) one.)
TEST_P(OnThePendulum, EnergyErrorScalesWithTheOrder) {
  const IntegratorKind kind = GetParam();
  const double expected = std::pow(2.0, integratorOrder(kind));
  const Trajectory coarse = simulate(kind, 0.01, 1.0);
  const Trajectory fine = simulate(kind, 0.005, 1.0);
  const double ratio = coarse.maxEnergyError / fine.maxEnergyError;
  std::cout << "[ info ] energy, " << integratorName(kind) << ": max |E - E0| = "
            << coarse.maxEnergyError << " (h = 0.01), " << fine.maxEnergyError
            << " (h = 0.005), ratio " << ratio << " (2^p = " << expected << ")\n";
  EXPECT_GT(ratio, 0.6 * expected);
  EXPECT_LT(ratio, 1.6 * expected);
  EXPECT_GT(fine.maxEnergyError, 1e-12);
}

// ---- energy behaviour: closed forms on a linear oscillator ---------------------------------

// A particle on a zero-rest-length spring to the origin: f = −k x, an isotropic linear
// oscillator with ω² = k/m and E = ½ m |v|² + ½ k |x|². For this system both Euler methods
// have exact discrete energy laws (per component, summed):
//   explicit Euler   v' = v − hω²x, x' = x + h v:
//                    |v'|² + ω²|x'|² = (1 + h²ω²)(|v|² + ω²|x|²)   ⇒  E_n = (1 + h²ω²)ⁿ E₀
//   symplectic Euler v' = v − hω²x, x' = x + h v':
//                    Ĩ = |v|² + ω²|x|² − hω² x·v is invariant exactly
// so explicit Euler's energy grows geometrically and symplectic Euler's energy error is
// bounded by ½ m h ω² max|x·v| for all time, with no secular part.
struct Oscillator {
  static constexpr double kMass = 2.0, kStiffness = 50.0;  // ω = 5 rad/s
  Model model{2};
  BodyId p;
  Oscillator() {
    p = model.addParticle(kMass, Eigen::Vector2d(0.3, -0.2), Eigen::Vector2d(0.5, 1.1));
    model.addForce(std::make_unique<Spring>(p, Eigen::Vector2d(0, 0),
                                            SpringParameters{.stiffness = kStiffness, .rest_length = 0.0}));
  }
  [[nodiscard]] double modifiedInvariant(double h) const {
    const double w2 = kStiffness / kMass;
    const Eigen::VectorXd x = model.position(p), v = model.velocity(p);
    return 0.5 * kMass * (v.squaredNorm() + w2 * x.squaredNorm() - h * w2 * x.dot(v));
  }
};

TEST(ExplicitEuler, OscillatorEnergyGrowsByExactlyOnePlusHSquaredOmegaSquaredPerStep) {
  const double h = 0.01, w2 = Oscillator::kStiffness / Oscillator::kMass;
  Oscillator osc;
  SimulationSettings s;
  s.dt = h;
  s.integrator = IntegratorKind::ExplicitEuler;
  Simulator sim(osc.model, s);
  const double E0 = sim.diagnostics().totalEnergy();
  for (int n = 1; n <= 500; ++n) {
    sim.step();
    const double expected = E0 * std::pow(1.0 + h * h * w2, n);
    // Round-off: ~n ε relative after n steps.
    ASSERT_NEAR(sim.diagnostics().totalEnergy() / expected, 1.0, 1e-12) << "step " << n;
  }
  EXPECT_GT(sim.diagnostics().totalEnergy(), 3.0 * E0);  // (1.0025)^500 ≈ 3.5
}

TEST(SymplecticEuler, OscillatorKeepsItsModifiedEnergyAndHasNoSecularDrift) {
  const double h = 0.01, w2 = Oscillator::kStiffness / Oscillator::kMass;
  Oscillator osc;
  SimulationSettings s;
  s.dt = h;
  s.integrator = IntegratorKind::SymplecticEuler;
  Simulator sim(osc.model, s);
  const double E0 = sim.diagnostics().totalEnergy();
  const double I0 = osc.modifiedInvariant(h);
  // |x·v| ≤ (|v|² + ω²|x|²)/(2ω) ≈ E/(m ω), so |E − Ĩ| ≤ ½ m h ω² · E/(mω) = ½ h ω E.
  const double bound = 0.5 * h * std::sqrt(w2) * E0 * 1.1;
  double drift2 = 0.0, drift20 = 0.0;
  for (int n = 1; n <= 2000; ++n) {
    sim.step();
    ASSERT_NEAR(osc.modifiedInvariant(h) / I0, 1.0, 1e-12) << "step " << n;
    const double dE = std::abs(sim.diagnostics().totalEnergy() - E0);
    ASSERT_LT(dE, 2 * bound) << "step " << n;
    drift20 = std::max(drift20, dE);
    if (n <= 200) drift2 = std::max(drift2, dE);
  }
  std::cout << "[ info ] symplectic Euler oscillator: max |E - E0| over 2 s = " << drift2
            << ", over 20 s = " << drift20 << "\n";
  EXPECT_LT(drift20, 3.0 * drift2);
  EXPECT_GT(drift2, 0.1 * bound);  // the O(h) oscillation is really there
}

// ---- energy behaviour on the constrained pendulum ----------------------------------------

// On the constraint manifold (projection after every step, so C = Ċ = 0 and E measures the
// pendulum's energy only) explicit Euler gains energy, as on the oscillator above, and the
// gain over a fixed time halves with h (first order; accepted band [0.6·2, 1.6·2]).
TEST(ExplicitEuler, GainsEnergyOnTheConstraintManifold) {
  Trajectory runs[2];
  const double hs[2] = {0.01, 0.005};
  for (int i = 0; i < 2; ++i) {
    runs[i] = simulate(IntegratorKind::ExplicitEuler, hs[i], 1.0, /*project=*/true);
    EXPECT_GT(runs[i].finalEnergyError, 0.0) << "h = " << hs[i];
  }
  const double ratio = runs[0].finalEnergyError / runs[1].finalEnergyError;
  std::cout << "[ info ] explicit Euler with projection: E(1) - E(0) = " << runs[0].finalEnergyError
            << " (h = 0.01), " << runs[1].finalEnergyError << " (h = 0.005), ratio " << ratio << "\n";
  EXPECT_GT(ratio, 0.6 * 2);
  EXPECT_LT(ratio, 1.6 * 2);
}

// ---- names -------------------------------------------------------------------------------

TEST(IntegratorNames, RoundTripAndUnknownNames) {
  for (IntegratorKind kind : kConstrained) {
    const auto parsed = parseIntegrator(integratorName(kind));
    ASSERT_TRUE(parsed.has_value()) << integratorName(kind);
    EXPECT_EQ(*parsed, kind);
  }
  EXPECT_EQ(integratorName(IntegratorKind::ExplicitEuler), "euler");
  EXPECT_EQ(integratorName(IntegratorKind::SymplecticEuler), "symplectic-euler");
  EXPECT_EQ(integratorName(IntegratorKind::Midpoint), "midpoint");
  EXPECT_EQ(integratorName(IntegratorKind::RungeKutta4), "rk4");
  EXPECT_EQ(integratorName(IntegratorKind::Rattle), "rattle");
  EXPECT_EQ(integratorOrder(IntegratorKind::ExplicitEuler), 1);
  EXPECT_EQ(integratorOrder(IntegratorKind::SymplecticEuler), 1);
  EXPECT_EQ(integratorOrder(IntegratorKind::Midpoint), 2);
  EXPECT_EQ(integratorOrder(IntegratorKind::RungeKutta4), 4);
  EXPECT_EQ(integratorOrder(IntegratorKind::Rattle), 2);
  EXPECT_THROW(Integrator{IntegratorKind::Rattle}, std::invalid_argument);  // it needs the constraints
  for (const char* bad : {"", "RK4", "rk5", "Euler", "symplectic_euler", "midpoint ", "leapfrog"}) {
    EXPECT_FALSE(parseIntegrator(bad).has_value()) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace tinkertoy
