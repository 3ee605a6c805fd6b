// The damped solve at a singular configuration (LinearSolver::solve, docs/theory.md,
// "Singular configurations"): a particle held by two rods to fixed points on either side of it.
// With the three points on a line the rods' gradients are parallel and J W Jᵀ has rank 1; a
// distance y off the line its small eigenvalue is ~ y². A right-hand side that asks the rods to
// do opposite things there has no bounded exact solution. Each solver, damped, must return:
//   · away from the line, the exact λ (dense solve) to round-off;
//   · near and on it, a finite force Jᵀλ within 1.2 ‖b‖ / √(ε d) (the damped solve's
//     ‖b‖ / (2 √(ε d)), raised by at most three refinements) plus the regular direction's part.
// Undamped, the near-line solve at y = 3e-6 returns the force 1/y ≈ 3.3·10⁵ N, about 20 times
// that bound (the test checks that the case means something).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {
namespace {

constexpr double kDamping = 1e-8;

// The particle at (0, y) between rods of length 1 to (−1, 0) and (1, 0): the rods' gradients
// are (∓1, y)/√(1 + y²) — parallel at y = 0. With mass 1 each row's diagonal d is 1, and A's
// small eigenvalue is 2y²/(1 + y²), along u = (1, 1)/√2.
struct TwoRods {
  explicit TwoRods(double y) {
    const BodyId p = model.addParticle(1.0, Eigen::Vector2d(0.0, y));
    model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(-1.0, 0.0), 1.0));
    model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(1.0, 0.0), 1.0));
    system.build(model);
    system.evaluate({0.0, model.q(), model.v()});
    inverseMass.build(model);
    inverseMass.update(model, model.q());
  }
  [[nodiscard]] ConstraintMatrix matrix() const { return {system.jacobian(), inverseMass.matrix()}; }
  [[nodiscard]] Eigen::MatrixXd dense() const {
    const Eigen::MatrixXd J(system.jacobian().toSparse());
    return J * inverseMass.matrix().toDense() * J.transpose();
  }
  [[nodiscard]] Eigen::VectorXd force(const Eigen::VectorXd& lambda) const {
    Eigen::VectorXd f;
    system.jacobian().multiplyTransposed(lambda, f);
    return f;
  }

  Model model{2};
  ConstraintSystem system;
  InverseMass inverseMass;
};

// Both rods asked to lengthen: along the line the particle cannot do both.
const Eigen::Vector2d kOpposed(1.0, 1.0);
const double kBound = 1.2 * std::sqrt(2.0) / std::sqrt(kDamping) + std::sqrt(2.0);

class DampedSolve : public ::testing::TestWithParam<SolverKind> {
 protected:
  [[nodiscard]] std::unique_ptr<LinearSolver> solver(double regularization, const TwoRods& rods) const {
    auto s = makeLinearSolver({.kind = GetParam(), .tolerance = 1e-12, .regularization = regularization});
    s->analyze(rods.matrix());
    return s;
  }
};

TEST_P(DampedSolve, IsExactAwayFromTheSingularity) {
  const TwoRods rods(0.5);
  const Eigen::VectorXd exact = rods.dense().ldlt().solve(Eigen::VectorXd(kOpposed));
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
  solver(kDamping, rods)->solve(rods.matrix(), kOpposed, lambda);
  EXPECT_LT((lambda - exact).norm(), 1e-12 * exact.norm());
}

TEST_P(DampedSolve, StaysBoundedNearAndOnTheSingularity) {
  // The peak lies where 2y² is a few ε: y between 3e-5 and 1e-4.
  for (double y : {1e-3, 1e-4, 7.4e-5, 5e-5, 3e-5, 1e-5, 1e-7, 0.0}) {
    const TwoRods rods(y);
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
    solver(kDamping, rods)->solve(rods.matrix(), kOpposed, lambda);
    ASSERT_TRUE(lambda.allFinite()) << "y = " << y;
    EXPECT_LT(rods.force(lambda).norm(), kBound) << "y = " << y;
  }
}

TEST_P(DampedSolve, UndampedTheNearSingularForceIsEnormous) {
  const double y = 3e-6;
  const TwoRods rods(y);
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
  solver(0.0, rods)->solve(rods.matrix(), kOpposed, lambda);
  EXPECT_NEAR(rods.force(lambda).norm(), 1.0 / y, 1e-3 / y);
  EXPECT_GT(rods.force(lambda).norm(), 10 * kBound);
}

INSTANTIATE_TEST_SUITE_P(Solvers, DampedSolve, ::testing::Values(SolverKind::ConjugateGradient, SolverKind::SparseLdlt),
                         [](const auto& param) { return std::string(solverName(param.param)); });

// The damped solve refines: a system that is regular but ill-conditioned (eigenvalue ratio
// 2e-6, above ε) still gets its exact solution. Its solution lies along the small eigenvalue
// (Rayleigh quotient ~2e-6, a few times the floor of 100 ε), so the solve is the exact one; at
// y = 5e-5 (ratio 5e-9, under the floor) it is the damped one, refined.
TEST(DampedSolve, RefinesIllConditionedButRegularSystemsToTheExactSolution) {
  const TwoRods rods(1e-3);
  const Eigen::VectorXd exact = rods.dense().ldlt().solve(Eigen::VectorXd(kOpposed));
  for (SolverKind kind : {SolverKind::ConjugateGradient, SolverKind::SparseLdlt}) {
    auto s = makeLinearSolver({.kind = kind, .tolerance = 1e-12, .regularization = kDamping});
    s->analyze(rods.matrix());
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
    s->solve(rods.matrix(), kOpposed, lambda);
    EXPECT_LT((lambda - exact).norm(), 1e-9 * exact.norm()) << solverName(kind);
  }
}

// Only a solution dominated by directions with s/d under 100 ε is solved again damped: a direct
// solve reports one iteration (its factorization) when it is not, more when it is. A fixed floor
// of 1e-2 used to send every solve of a long chain or a cloth down the damped path (a second
// factorization and refinements each, for the same answer: issue #35).
TEST(DampedSolve, OnlyANearNullSolutionTakesTheDampedPath) {
  const auto iterations = [](double y) {
    const TwoRods rods(y);
    auto s = makeLinearSolver({.kind = SolverKind::SparseLdlt, .regularization = kDamping});
    s->analyze(rods.matrix());
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
    return s->solve(rods.matrix(), kOpposed, lambda).iterations;
  };
  EXPECT_EQ(iterations(0.5), 1);
  EXPECT_EQ(iterations(1e-3), 1);  // s/d = 2e-6 ≥ 100 ε
  EXPECT_GT(iterations(5e-5), 1);  // s/d = 5e-9 < 100 ε
}

}  // namespace
}  // namespace tinkertoy
