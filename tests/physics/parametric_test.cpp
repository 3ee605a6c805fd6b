// Parametric bodies and hybrid models (seed 000 §5, seeds 002 and 003): the same physics in
// reduced coordinates must match the implicit-constraint formulation and the closed forms.
//
// Tolerances. Both formulations integrate the same ODE with RK4 at h = 1e-3; each has a
// global error ≲ 1e-9 over a few seconds for these smooth, slow models (ωh ≲ 5e-3), so two
// solutions agree to ≲ 2e-9 unless one of them solves a different ODE. The 1e-8 keeps
// a margin of 5× for the chaotic double and triple pendulums, whose errors grow fastest.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <numbers>

#include "physics/physics_models.hpp"
#include "support/system_differences.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/curves/line_curve.hpp"
#include "tinkertoy/curves/spline_curve.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/forces/constant_force.hpp"
#include "tinkertoy/forces/drag.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/model/bead.hpp"
#include "tinkertoy/model/chain.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"

namespace tinkertoy::test {
namespace {

using std::numbers::pi;

Scene shippedScene(const std::string& name) {
  return loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / name);
}

// "p1", "p2", …: the particle ids of the maximal pendulum scenes (built in steps: GCC 12
// warns falsely on "p" + std::to_string(i)).
std::string particleId(int i) {
  std::string id(1, 'p');
  id += std::to_string(i + 1);
  return id;
}

void runFor(Scene& scene, double duration) {
  Simulator sim(scene.model, scene.settings);
  const auto steps = std::lround(duration / scene.settings.dt);
  for (long i = 0; i < steps; ++i) sim.step();
  ASSERT_NEAR(scene.model.time(), duration, 1e-9);
}

Eigen::VectorXd scalar(double x) { return Eigen::VectorXd::Constant(1, x); }

// ---- implicit against parametric -------------------------------------------------------

TEST(ImplicitAgainstParametric, BeadsOnTheSameWireAgreeAfterFiveSeconds) {
  Scene implicit = shippedScene("bead_on_wire.json");
  Scene parametric = shippedScene("bead_parametric.json");
  const BodyId a = *implicit.model.findBody("bead"), b = *parametric.model.findBody("bead");
  ASSERT_EQ(implicit.model.position(a), parametric.model.position(b)) << "the scenes must start alike";
  ASSERT_EQ(implicit.model.velocity(a), parametric.model.velocity(b));
  runFor(implicit, 5.0);
  runFor(parametric, 5.0);
  const double gap = (implicit.model.position(a) - parametric.model.position(b)).cwiseAbs().maxCoeff();
  const double speedGap = (implicit.model.velocity(a) - parametric.model.velocity(b)).cwiseAbs().maxCoeff();
  std::cout << "[ info ] implicit vs parametric bead at t = 5 s: |dx| = " << gap << ", |dv| = " << speedGap << "\n";
  EXPECT_LT(gap, 1e-8);
  // Velocity errors are the position errors times the angular rate, |v|/r ≤ 5 s⁻¹ here.
  EXPECT_LT(speedGap, 5e-8);
  EXPECT_GT((parametric.model.position(b) - Eigen::Vector2d(1, 0)).norm(), 0.1) << "the bead must have moved";
}

// Maximal coordinates (particles and rods) against the same pendulum in joint angles.
void expectPendulumsAgree(const char* maximal, const char* reduced, int links) {
  Scene particles = shippedScene(maximal);
  Scene chain = shippedScene(reduced);
  const BodyId arm = *chain.model.findBody("arm");
  for (int i = 0; i < links; ++i) {
    const BodyId p = *particles.model.findBody(particleId(i));
    ASSERT_LT((particles.model.position(p) - chain.model.position({arm, i})).norm(), 1e-15) << "start, point " << i;
  }
  runFor(particles, 2.0);
  runFor(chain, 2.0);
  double gap = 0.0, speedGap = 0.0;
  for (int i = 0; i < links; ++i) {
    const BodyId p = *particles.model.findBody(particleId(i));
    gap = std::max(gap, (particles.model.position(p) - chain.model.position({arm, i})).cwiseAbs().maxCoeff());
    speedGap = std::max(speedGap, (particles.model.velocity(p) - chain.model.velocity({arm, i})).cwiseAbs().maxCoeff());
  }
  std::cout << "[ info ] " << maximal << " vs " << reduced << " at t = 2 s: |dx| = " << gap << ", |dv| = " << speedGap
            << "\n";
  EXPECT_LT(gap, 1e-8);
  EXPECT_LT(speedGap, 1e-8);
}

TEST(MaximalAgainstReduced, DoublePendulumsAgreeAfterTwoSeconds) {
  expectPendulumsAgree("double_pendulum.json", "double_pendulum_reduced.json", 2);
}

TEST(MaximalAgainstReduced, TriplePendulumsAgreeAfterTwoSeconds) {
  expectPendulumsAgree("triple_pendulum.json", "triple_pendulum_reduced.json", 3);
}

// ---- closed forms ----------------------------------------------------------------------

// A one-link chain released horizontally is the pendulum of the Jacobi-elliptic closed form.
TEST(ReducedChain, OneLinkFollowsTheExactPendulum) {
  Model model(2);
  const BodyId arm = model.addBody(std::make_unique<Chain>(Eigen::Vector2d(0, 0), std::vector<double>{1.0},
                                                           std::vector<double>{1.0}),
                                   scalar(pi / 2));
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  Simulator sim(model, settingsFor(SolverKind::SparseLdlt));
  double worst = 0.0;
  for (int n = 1; n <= 10000; ++n) {
    sim.step();
    worst = std::max(worst, (model.position(arm) - exactPendulum(n * 1e-3, pi / 2, 1.0)).cwiseAbs().maxCoeff());
  }
  std::cout << "[ info ] one-link chain vs closed form: max position error over 10 s = " << worst << "\n";
  EXPECT_LT(worst, 1e-6);
}

// Forces reach a bead through Jᵀ f. On a straight wire with unit direction d̂ and a constant
// force F, ü = (F·d̂)/m exactly, so RK4 (exact for quadratics) gives u = u₀ + u̇₀ t + ½ (F·d̂/m) t².
// With drag c instead, u̇ = u̇₀ e^{−ct/m}: RK4's relative error per step is (ch/m)⁵/120 ≈ 1e-17.
TEST(ParametricForces, ConstantForceAndDragActThroughTheJacobian) {
  const Eigen::Vector2d direction = Eigen::Vector2d(3, 4).normalized();
  Model model(2);
  const auto wire = std::make_shared<LineCurve>(Eigen::Vector2d(1, 1), Eigen::Vector2d(3, 4));
  const BodyId pushed = model.addBody(std::make_unique<Bead>(wire, 2.0), scalar(0.5), scalar(-1.0));
  const BodyId slowed = model.addBody(std::make_unique<Bead>(wire, 0.5), scalar(0.0), scalar(3.0));
  const Eigen::Vector2d F(2.0, -7.0);
  model.addForce(std::make_unique<ConstantForce>(pushed, F));
  auto drag = std::make_unique<Drag>(0.2);
  model.addForce(std::move(drag));
  // The drag acts on both beads; give the pushed one the drag-free closed form by cancelling it
  // with nothing else: instead compare against the combined closed form u̇' = a − (c/m) u̇.
  Simulator sim(model, settingsFor(SolverKind::SparseLdlt));
  for (int i = 0; i < 2000; ++i) sim.step();
  const double t = 2.0;
  const double a = F.dot(direction) / 2.0, k = 0.2 / 2.0;
  const double uDotPushed = a / k + (-1.0 - a / k) * std::exp(-k * t);
  const double uPushed = 0.5 + (a / k) * t + (-1.0 - a / k) * (1.0 - std::exp(-k * t)) / k;
  EXPECT_NEAR(model.coordinates(pushed)[0], uPushed, 1e-11);
  EXPECT_NEAR(model.velocities(pushed)[0], uDotPushed, 1e-11);
  const double c = 0.2 / 0.5;
  EXPECT_NEAR(model.velocities(slowed)[0], 3.0 * std::exp(-c * t), 1e-11);
  EXPECT_NEAR(model.coordinates(slowed)[0], 3.0 * (1.0 - std::exp(-c * t)) / c, 1e-11);
}

// ---- energy ----------------------------------------------------------------------------

// A bead on a tilted ellipse in 3D plus a chain swinging, no constraints: energy is exact up
// to the integrator, so its error over 1 s scales with h^p (band [0.6, 1.6] · 2^p, as in
// tests/integrators/integrators_test.cpp).
double maxEnergyError(IntegratorKind kind, double h) {
  Model model(3);
  const auto ellipse = std::make_shared<EllipseCurve>(Eigen::Vector3d(0, 0, 0), 1.5, 0.6, Eigen::Vector3d(1, 0.3, 0.2));
  model.addBody(std::make_unique<Bead>(ellipse, 1.0), scalar(0.3), scalar(2.0));
  model.addBody(std::make_unique<Chain>(Eigen::Vector3d(3, 0, 0), std::vector<double>{1.0, 0.8},
                                        std::vector<double>{1.0, 2.0}),
                Eigen::Vector2d(1.2, -0.5), Eigen::Vector2d(0.5, 1.0));
  model.addForce(std::make_unique<Gravity>(Eigen::Vector3d(0.0, -kG, 0.0)));
  Simulator sim(model, settingsFor(SolverKind::SparseLdlt, h, kind));
  const double E0 = sim.diagnostics().totalEnergy();
  double worst = 0.0;
  for (long i = 0; i < std::lround(1.0 / h); ++i) {
    sim.step();
    worst = std::max(worst, std::abs(sim.diagnostics().totalEnergy() - E0));
  }
  return worst;
}

class EnergyOrder : public ::testing::TestWithParam<IntegratorKind> {};
INSTANTIATE_TEST_SUITE_P(Integrators, EnergyOrder,
                         ::testing::Values(IntegratorKind::ExplicitEuler, IntegratorKind::Midpoint,
                                           IntegratorKind::RungeKutta4),
                         [](const ::testing::TestParamInfo<IntegratorKind>& param) {
                           return std::string(integratorName(param.param));
                         });

TEST_P(EnergyOrder, ParametricBodiesConserveEnergyToTheIntegratorsOrder) {
  const IntegratorKind kind = GetParam();
  const double expected = std::pow(2.0, integratorOrder(kind));
  const double h = kind == IntegratorKind::ExplicitEuler ? 1e-3 : 1e-2;
  const double coarse = maxEnergyError(kind, h), fine = maxEnergyError(kind, h / 2);
  std::cout << "[ info ] parametric energy, " << integratorName(kind) << ": " << coarse << " (h = " << h << "), "
            << fine << " (h/2), ratio " << coarse / fine << " (2^p = " << expected << ")\n";
  EXPECT_GT(coarse / fine, 0.6 * expected);
  EXPECT_LT(coarse / fine, 1.6 * expected);
  EXPECT_GT(fine, 1e-12);
}

// ---- hybrid models ---------------------------------------------------------------------

TEST_P(BySolver, HybridSceneKeepsItsConstraintsWithoutFeedback) {
  Scene scene = shippedScene("hybrid.json");
  scene.settings.solver.kind = GetParam();
  ASSERT_EQ(scene.settings.ks, 0.0);
  ASSERT_EQ(scene.settings.kd, 0.0);
  scene.settings.projection.enabled = false;  // the integrator and the solve alone
  Simulator sim(scene.model, scene.settings);
  const double E0 = sim.diagnostics().totalEnergy();
  double worst = 0.0;
  for (int i = 0; i < 5000; ++i) {
    sim.step();
    worst = std::max(worst, sim.diagnostics().constraintError);
  }
  std::cout << "[ info ] hybrid, " << solverName(GetParam()) << ": max |C| over 5 s = " << worst
            << ", energy change " << sim.diagnostics().totalEnergy() - E0 << " J\n";
  EXPECT_LT(worst, 1e-8);
  // The chain really moved the slider around its wire.
  const BodyId slider = *scene.model.findBody("slider");
  EXPECT_GT((scene.model.position(slider) - Eigen::Vector2d(3.0, -2.4)).norm(), 0.05);
}


// A model that exercises every path of the chain rule: points on particles, beads and chains,
// two points of one body in one constraint, and a time-dependent constraint on a chain point.
struct HybridModel {
  Model model{2};
  HybridModel() {
    const BodyId p = model.addParticle(1.5, Eigen::Vector2d(2.0, -0.5), Eigen::Vector2d(0.3, -0.7));
    const BodyId arm = model.addBody(std::make_unique<Chain>(Eigen::Vector2d(0, 0), std::vector<double>{1.0, 0.8, 0.6},
                                                             std::vector<double>{1.0, 0.5, 2.0}),
                                     Eigen::Vector3d(0.4, 1.3, -0.6), Eigen::Vector3d(0.9, -1.1, 2.0));
    const auto spline = std::make_shared<SplineCurve>(
        std::vector<Eigen::VectorXd>{Eigen::Vector2d(-2, 0), Eigen::Vector2d(-1, -1), Eigen::Vector2d(0, -0.3),
                                     Eigen::Vector2d(1, -2)},
        false);
    const BodyId bead = model.addBody(std::make_unique<Bead>(spline, 0.7), scalar(1.7), scalar(-1.3));
    model.addConstraint(std::make_unique<DistanceConstraint>(BodyPoint{arm, 2}, p, 1.0));
    model.addConstraint(std::make_unique<DistanceConstraint>(BodyPoint{arm, 0}, BodyPoint{arm, 2}, 1.0));
    model.addConstraint(std::make_unique<DistanceConstraint>(bead, BodyPoint{arm, 1}, 1.0));
    model.addConstraint(std::make_unique<PointOnCircleConstraint>(bead, Eigen::Vector2d(0.5, 0.5), 1.0));
    model.addConstraint(std::make_unique<DrivenPointConstraint>(
        BodyPoint{arm, 1}, std::make_shared<CurvePath>(std::make_shared<CircleCurve>(Eigen::Vector2d(1, 0), 0.4), 2.0, 0.3)));
    model.addConstraint(std::make_unique<FixedPointConstraint>(p, Eigen::Vector2d(1, 1)));
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
    model.setTime(0.37);
  }
};

using test_support::differencedJacobian;
using test_support::evaluateSystem;

// The assembled J, J̇ and J̇ q̇ + Ctt in generalized coordinates against central differences of
// the whole system's C (error ≈ h² |C'''| / 6 + ε |C| / h ≲ 1e-9 with h = 1e-5). The model is
// over-constrained on purpose (8 rows on 6 coordinates): it is evaluated, never simulated.
TEST(ChainRule, SystemJacobianAndJdotMatchFiniteDifferences) {
  HybridModel h;
  const Model& model = h.model;
  const double t = model.time(), e = 1e-5;
  const Eigen::VectorXd q = model.q(), v = model.v();
  const auto at = evaluateSystem(model, t, q, v);
  ASSERT_EQ(at.J.rows(), 1 + 1 + 1 + 1 + 2 + 2);
  ASSERT_EQ(at.J.cols(), 2 + 3 + 1);
  const Eigen::MatrixXd J = differencedJacobian(model, t, q, v, e);
  const Eigen::VectorXd Ct = (evaluateSystem(model, t + e, q, v).C - evaluateSystem(model, t - e, q, v).C) / (2 * e);
  const auto ahead = evaluateSystem(model, t + e, q + e * v, v);
  const auto behind = evaluateSystem(model, t - e, q - e * v, v);
  EXPECT_LT((at.J - J).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LT((at.Cdot - (at.J * v + Ct)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((at.Jdot - (ahead.J - behind.J) / (2 * e)).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((at.Jdot * v + at.Ctt - (ahead.Cdot - behind.Cdot) / (2 * e)).cwiseAbs().maxCoeff(), 1e-7);
}

// W = M(q)⁻¹ block by block, and the matrix-free J W Jᵀ against the dense product.
TEST(ChainRule, BlockDiagonalInverseMassAndTheConstraintMatrix) {
  HybridModel h;
  const Model& model = h.model;
  InverseMass W;
  W.build(model);
  W.update(model, model.q());
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(model.q().size(), model.q().size());
  for (std::size_t b = 0; b < model.bodyCount(); ++b) {
    const BodyId id = model.bodyAt(b);
    const auto n = model.body(id).coordinateCount(), offset = static_cast<int>(model.offsetOf(id));
    Eigen::MatrixXd block(n, n);
    model.body(id).massMatrix(model.slice(model.q(), b), block);
    M.block(offset, offset, n, n) = block;
  }
  const Eigen::MatrixXd Wdense = W.matrix().toDense();
  EXPECT_LT((Wdense * M - Eigen::MatrixXd::Identity(M.rows(), M.cols())).cwiseAbs().maxCoeff(), 1e-12);

  ConstraintSystem system;
  system.build(model);
  system.evaluate(model.state());
  const Eigen::MatrixXd J(system.jacobian().toSparse());
  const Eigen::MatrixXd A = J * Wdense * J.transpose();
  const ConstraintMatrix op(system.jacobian(), W.matrix());
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(J.rows(), -1.0, 2.0);
  Eigen::VectorXd y, d;
  op.apply(x, y);
  op.diagonal(d);
  EXPECT_LT((y - A * x).cwiseAbs().maxCoeff(), 1e-12 * A.norm() * x.norm());
  EXPECT_LT((d - A.diagonal()).cwiseAbs().maxCoeff(), 1e-12 * A.norm());
}

// ---- robustness ------------------------------------------------------------------------

// A wire that stops, c(u) = (u³, 0): c'(0) = 0, so the bead's mass m|c'|² vanishes there.
class CuspCurve final : public Curve {
 public:
  std::string_view type() const override { return "cusp"; }
  int dimension() const override { return 2; }
  void validate() const override {}
  CurvePoint evaluate(double u) const override {
    return {Eigen::Vector3d(u * u * u, 0, 0), Eigen::Vector3d(3 * u * u, 0, 0), Eigen::Vector3d(6 * u, 0, 0)};
  }
};

TEST(ParametricRobustness, ASingularMassIsReportedAndTheStateKept) {
  Model model(2);
  const BodyId bead = model.addBody(std::make_unique<Bead>(std::make_shared<CuspCurve>(), 1.0), scalar(0.0));
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  Simulator sim(model, settingsFor(SolverKind::SparseLdlt));
  const Eigen::VectorXd q = model.q(), v = model.v();
  try {
    sim.step();
    FAIL() << "a zero mass matrix must not be stepped";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("mass matrix of bead #0 is singular"), std::string::npos) << e.what();
    ASSERT_TRUE(e.body().has_value());
    EXPECT_EQ(*e.body(), bead);
    EXPECT_EQ(e.step(), 1u);
  }
  EXPECT_EQ(model.q(), q);
  EXPECT_EQ(model.v(), v);
  EXPECT_EQ(sim.stepCount(), 0u);
}

// Removing a chain in the middle of the state vector moves the bodies after it, keeps their
// state, drops what named its points, and the simulator carries on.
TEST(ParametricRobustness, RemovingAParametricBodyBetweenSteps) {
  Scene scene = shippedScene("hybrid.json");
  Model& model = scene.model;
  Simulator sim(model, scene.settings);
  for (int i = 0; i < 100; ++i) sim.step();
  const BodyId arm = *model.findBody("arm"), bead = *model.findBody("bead"), slider = *model.findBody("slider");
  ASSERT_LT(model.indexOf(arm), model.indexOf(bead)) << "the chain must sit before the bead in q";
  const Eigen::VectorXd beadU = model.coordinates(bead), beadV = model.velocities(bead);
  const Eigen::VectorXd sliderX = model.position(slider);
  model.removeBody(arm);
  EXPECT_EQ(model.bodyCount(), 3u);
  EXPECT_EQ(model.q().size(), 2 + 2 + 1);
  EXPECT_EQ(model.coordinates(bead), beadU);
  EXPECT_EQ(model.velocities(bead), beadV);
  EXPECT_EQ(model.position(slider), sliderX);
  EXPECT_EQ(model.constraintCount(), 1u) << "only the wire under the slider is left";
  EXPECT_FALSE(model.findBody("arm").has_value());
  EXPECT_THROW((void)model.position({arm, 0}), std::invalid_argument);
  for (int i = 0; i < 1000; ++i) sim.step();
  EXPECT_LT(sim.diagnostics().constraintError, 1e-8);
  EXPECT_GT((model.position(slider) - sliderX).norm(), 1e-3) << "the freed slider keeps sliding";
}

TEST(ParametricRobustness, PointsOutsideABodyAreRejected) {
  Model model(2);
  const BodyId arm = model.addBody(std::make_unique<Chain>(Eigen::Vector2d(0, 0), std::vector<double>{1.0, 1.0},
                                                           std::vector<double>{1.0, 1.0}),
                                   Eigen::Vector2d(0, 0));
  try {
    model.addConstraint(std::make_unique<FixedPointConstraint>(BodyPoint{arm, 2}, Eigen::Vector2d(0, 0)));
    FAIL() << "point 2 of a two-mass chain does not exist";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("names point 2 of chain #0, which has 2 points"), std::string::npos) << e.what();
  }
  EXPECT_THROW(model.addForce(std::make_unique<ConstantForce>(BodyPoint{arm, -1}, Eigen::Vector2d(1, 0))),
               std::invalid_argument);
  EXPECT_THROW(model.setPosition(arm, Eigen::Vector2d(0, 0)), std::invalid_argument);
  // The point API checks indices too, instead of reading past the chain's links.
  EXPECT_THROW((void)model.position({arm, 5}), std::invalid_argument);
  EXPECT_THROW((void)model.velocity({arm, -1}), std::invalid_argument);
  EXPECT_EQ(model.constraintCount(), 0u);
  EXPECT_EQ(model.forceCount(), 0u);
}

}  // namespace
}  // namespace tinkertoy::test
