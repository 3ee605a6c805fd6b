// The three factorizations behind the direct solve (simplicial LDLᵀ, CHOLMOD's supernodal
// Cholesky, Baraff's tree) give the same λ on every shipped scene and on random trees, forests
// closed by loops, a star and a redundant grid. Each is also checked against a dense solve.
//
// Two exact solves of (J W Jᵀ + S) λ = b differ by round-off amplified by the condition number κ
// of the matrix, so they agree to 1e-12 relative only where κ allows: the tolerance is
// max(1e-12, 100 ε κ), with κ measured densely.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <filesystem>
#include <random>

#include "solver_models.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"
#include "tinkertoy/solvers/tree_factorization.hpp"

namespace tinkertoy {
namespace {

using namespace solver_models;

Eigen::VectorXd solveWith(FactorizationKind kind, const ConstraintMatrix& A, const Eigen::VectorXd& b) {
  const std::unique_ptr<Factorization> f = makeFactorization(kind, A);
  EXPECT_EQ(f->kind(), kind);
  f->analyze(A);
  f->factorize(A);
  Eigen::VectorXd x = b;
  f->solveInPlace(x);
  return x;
}

// λ by each factorization against a dense solve and against each other.
void expectAgreement(const Model& model, double regularization, const std::string& what) {
  SCOPED_TRACE(what);
  const ModelMatrix system(model, regularization);
  const Eigen::Index m = system.matrix().size();
  if (m == 0) return;
  std::mt19937 rng(static_cast<unsigned>(m));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd b(m);
  for (Eigen::Index i = 0; i < m; ++i) b[i] = u(rng);
  const Eigen::MatrixXd dense = system.dense();
  const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(dense).eigenvalues();
  const double kappa = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
  ASSERT_GT(eigenvalues.minCoeff(), 0.0) << "the system should be positive definite";
  const double tolerance = std::max(1e-12, 100 * kEps * kappa);
  const Eigen::VectorXd reference = dense.ldlt().solve(b);
  const Eigen::VectorXd simplicial = solveWith(FactorizationKind::Simplicial, system.matrix(), b);
  const Eigen::VectorXd supernodal = solveWith(FactorizationKind::Supernodal, system.matrix(), b);
  const Eigen::VectorXd tree = solveWith(FactorizationKind::Tree, system.matrix(), b);
  const auto relative = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& y) { return (x - y).norm() / y.norm(); };
  EXPECT_LE(relative(simplicial, reference), tolerance) << "κ = " << kappa;
  EXPECT_LE(relative(supernodal, simplicial), tolerance) << "κ = " << kappa;
  EXPECT_LE(relative(tree, simplicial), tolerance) << "κ = " << kappa;
}

TEST(FactorizationsAgree, OnEveryShippedScene) {
  const std::filesystem::path scenes = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scenes)) {
    if (entry.path().extension() != ".json") continue;
    const Scene scene = loadScene(entry.path());
    // The cloth and the bridge have more rods than degrees of freedom at some particles.
    expectAgreement(scene.model, 1e-10, entry.path().filename().string());
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

// A random tree of particles and rigid bodies: each new body hangs from a random earlier one
// by a rod (particles) or a pin (rigid bodies), the first from the world.
Model randomTree(std::mt19937& rng, int count, Model model = Model(2)) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_real_distribution<double> mass(0.5, 2.0);
  std::vector<BodyId> bodies;
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector2d at(u(rng) * 5, u(rng) * 5);
    const bool rigid = i % 3 == 1;
    const double m = mass(rng);
    const BodyId body = rigid ? model.addBody(std::make_unique<RigidBody>(m, 0.1 * m, Shape::circle(0.3)),
                                              Eigen::Vector3d(at.x(), at.y(), u(rng)))
                              : model.addParticle(m, at);
    if (bodies.empty()) {
      model.addConstraint(std::make_unique<FixedPointConstraint>(body, at));
    } else {
      const BodyId parent = bodies[std::uniform_int_distribution<std::size_t>(0, bodies.size() - 1)(rng)];
      const bool parentRigid = model.body(parent).hasFrame();
      if (rigid && parentRigid) {
        model.addConstraint(std::make_unique<RevoluteJoint>(JointConnection{
            .a = BodyPoint{parent, Eigen::Vector2d(0.3, 0.1)}, .b = BodyPoint{body, Eigen::Vector2d(-0.2, 0.05)}}));
      } else {
        const double length = (model.position(parent) - model.position(body)).norm();
        model.addConstraint(std::make_unique<DistanceConstraint>(parent, body, length));
      }
    }
    bodies.push_back(body);
  }
  return model;
}

TEST(FactorizationsAgree, OnRandomTrees) {
  std::mt19937 rng(1996);
  for (int trial = 0; trial < 5; ++trial) {
    const Model model = randomTree(rng, 60);
    const ModelMatrix system(model);
    TreeFactorization tree;
    tree.analyze(system.matrix());
    EXPECT_EQ(tree.auxiliaryRows(), 0) << "a tree closes no loop";
    expectAgreement(model, 0.0, "tree " + std::to_string(trial));
  }
}

// Three random trees in one model, then rods between random particles of different trees and of
// the same tree, which close loops.
TEST(FactorizationsAgree, OnForestsWithLoops) {
  std::mt19937 rng(1997);
  Model model = randomTree(rng, 30, randomTree(rng, 30, randomTree(rng, 30)));
  std::vector<BodyId> particles;
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    if (model.isParticle(model.bodyAt(i))) particles.push_back(model.bodyAt(i));
  }
  std::uniform_int_distribution<std::size_t> pick(0, particles.size() - 1);
  for (int loop = 0; loop < 8; ++loop) {
    const BodyId a = particles[pick(rng)], b = particles[pick(rng)];
    if (a == b) continue;
    model.addConstraint(std::make_unique<DistanceConstraint>(a, b, (model.position(a) - model.position(b)).norm()));
  }
  const ModelMatrix system(model);
  TreeFactorization tree;
  tree.analyze(system.matrix());
  EXPECT_GT(tree.auxiliaryRows(), 0) << "loops and extra ties to the world";
  expectAgreement(model, 0.0, "forest with loops");
}

// One particle with 300 rods to 300 others: J W Jᵀ is dense, the tree is a star.
TEST(FactorizationsAgree, OnAStar) {
  Model model(2);
  const BodyId hub = model.addParticle(3.0, Eigen::Vector2d(0, 0));
  model.addConstraint(std::make_unique<FixedPointConstraint>(hub, Eigen::Vector2d(0, 0)));
  for (int i = 0; i < 300; ++i) {
    const double angle = 6.283185307179586 * i / 300;
    const BodyId arm = model.addParticle(1.0, Eigen::Vector2d(std::cos(angle), std::sin(angle)));
    model.addConstraint(std::make_unique<DistanceConstraint>(hub, arm, 1.0));
  }
  expectAgreement(model, 0.0, "star");
}

// Box2D's joint grid, 8 × 8 discs pinned to their neighbours: more pin rows than degrees of
// freedom, regularized as the exact mode does.
TEST(FactorizationsAgree, OnARedundantGrid) {
  Model model(2);
  constexpr int kSide = 8;
  std::vector<BodyId> discs;
  for (int i = 0; i < kSide; ++i) {
    for (int k = 0; k < kSide; ++k) {
      const auto motion = i == 0 && k == kSide / 2 ? RigidBody::Motion::Static : RigidBody::Motion::Dynamic;
      discs.push_back(model.addBody(std::make_unique<RigidBody>(0.5, 0.04, Shape::circle(0.4), motion),
                                    Eigen::Vector3d(k, -i, 0.0)));
    }
  }
  const auto at = [&](int i, int k) { return discs[static_cast<std::size_t>(i * kSide + k)]; };
  for (int i = 0; i < kSide; ++i) {
    for (int k = 0; k < kSide; ++k) {
      if (k + 1 < kSide) {
        model.addConstraint(std::make_unique<RevoluteJoint>(JointConnection{
            .a = BodyPoint{at(i, k), Eigen::Vector2d(0.5, 0)}, .b = BodyPoint{at(i, k + 1), Eigen::Vector2d(-0.5, 0)}}));
      }
      if (i + 1 < kSide) {
        model.addConstraint(std::make_unique<RevoluteJoint>(JointConnection{
            .a = BodyPoint{at(i, k), Eigen::Vector2d(0, -0.5)}, .b = BodyPoint{at(i + 1, k), Eigen::Vector2d(0, 0.5)}}));
      }
    }
  }
  expectAgreement(model, 1e-9, "joint grid 8 × 8");
}

// The near-null test reads diag(A) from a factorization that keeps the assembled matrix instead
// of forming J W Jᵀ's diagonal again: it must be the same diagonal, shift and held rows
// included, for both factorizations that keep it; the tree factorization says it keeps none.
TEST(FactorizationsAgree, TheFactoredDiagonalIsTheMatrixsDiagonal) {
  const Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "cloth.json");
  const ModelMatrix system(scene.model, 1e-10);
  const Eigen::Index m = system.matrix().size();
  ASSERT_GT(m, 10);
  std::vector<char> held(static_cast<std::size_t>(m), 0);
  for (Eigen::Index r = 0; r < m; r += 3) held[static_cast<std::size_t>(r)] = 1;
  const ConstraintMatrix A(system.system.jacobian(), system.W.matrix(), &system.shift, held);
  Eigen::VectorXd expected;
  A.diagonal(expected);
  for (const FactorizationKind kind : {FactorizationKind::Simplicial, FactorizationKind::Supernodal}) {
    SCOPED_TRACE(std::string(factorizationName(kind)));
    const std::unique_ptr<Factorization> f = makeFactorization(kind, A);
    f->analyze(A);
    f->factorize(A);
    Eigen::VectorXd diagonal;
    ASSERT_TRUE(f->factoredDiagonal(diagonal));
    ASSERT_EQ(diagonal.size(), m);
    EXPECT_LE((diagonal - expected).cwiseAbs().maxCoeff(), 1e-14 * expected.cwiseAbs().maxCoeff());
    EXPECT_EQ(diagonal[0], 1.0);  // held
  }
  const std::unique_ptr<Factorization> tree = makeFactorization(FactorizationKind::Tree, A);
  Eigen::VectorXd unused;
  EXPECT_FALSE(tree->factoredDiagonal(unused));
}

}  // namespace
}  // namespace tinkertoy
