// The damped solve at a singular configuration (LinearSolver::solve, docs/theory.md §4,
// "Singular configurations"): a particle held by two rods to fixed points on either side of it.
// With the three points on a line the rods' gradients are parallel and J W Jᵀ has rank 1; a
// distance y off the line its small eigenvalue is ~ y². A right-hand side that asks the rods to
// do opposite things there has no bounded exact solution. Each solver, damped, must return:
//   · away from the line, the exact λ (dense solve) to round-off;
//   · near and on it, a force Jᵀλ within the damped bound ‖b‖ / (2 √(ε d)) and finite.
// Undamped, the near-line solve at y = 1e-5 returns the force 1/y = 10⁵ N, 28 times that bound
// (the test checks that the case means something).
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
// are (∓1, y)/√(1 + y²) — parallel at y = 0.
struct TwoRods {
  explicit TwoRods(double y) {
    const BodyId p = model.addParticle(1.0, Eigen::Vector2d(0.0, y));
    model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(-1.0, 0.0), 1.0));
    model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(1.0, 0.0), 1.0));
    system.build(model);
    system.evaluate(model, {0.0, model.q(), model.v()});
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
  // d = 2 (both rows' diagonal, mass 1): the damped force is at most ‖b‖ / (2 √(ε d)) along the
  // near-null direction, plus the regular direction's own exact force (‖b‖ / √d at most).
  const double bound = kOpposed.norm() / (2.0 * std::sqrt(kDamping * 2.0)) + kOpposed.norm();
  for (double y : {1e-3, 1e-5, 1e-7, 0.0}) {
    const TwoRods rods(y);
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
    solver(kDamping, rods)->solve(rods.matrix(), kOpposed, lambda);
    ASSERT_TRUE(lambda.allFinite()) << "y = " << y;
    EXPECT_LT(rods.force(lambda).norm(), bound) << "y = " << y;
  }
}

TEST_P(DampedSolve, UndampedTheNearSingularForceIsEnormous) {
  const TwoRods rods(1e-5);
  const double bound = kOpposed.norm() / (2.0 * std::sqrt(kDamping * 2.0)) + kOpposed.norm();
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
  solver(0.0, rods)->solve(rods.matrix(), kOpposed, lambda);
  EXPECT_NEAR(rods.force(lambda).norm(), 1e5, 1e-3 * 1e5);
  EXPECT_GT(rods.force(lambda).norm(), 10 * bound);
}

INSTANTIATE_TEST_SUITE_P(Solvers, DampedSolve, ::testing::Values(SolverKind::ConjugateGradient, SolverKind::SparseLdlt),
                         [](const auto& param) { return std::string(solverName(param.param)); });

// The damped solve refines: a system that is regular but ill-conditioned (eigenvalue ratio
// 1e-4, well above ε) still gets its exact solution.
TEST(DampedSolve, RefinesIllConditionedButRegularSystemsToTheExactSolution) {
  const TwoRods rods(1e-2);
  const Eigen::VectorXd exact = rods.dense().ldlt().solve(Eigen::VectorXd(kOpposed));
  for (SolverKind kind : {SolverKind::ConjugateGradient, SolverKind::SparseLdlt}) {
    auto s = makeLinearSolver({.kind = kind, .tolerance = 1e-12, .regularization = kDamping});
    s->analyze(rods.matrix());
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(2);
    s->solve(rods.matrix(), kOpposed, lambda);
    EXPECT_LT((lambda - exact).norm(), 1e-9 * exact.norm()) << solverName(kind);
  }
}

}  // namespace
}  // namespace tinkertoy
