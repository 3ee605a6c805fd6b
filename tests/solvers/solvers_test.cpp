// Linear algebra under the multiplier solve: the block-sparse products, the matrix-free
// J W Jᵀ operator, conjugate gradient against the direct LDLᵀ solve, warm starts, redundant
// rows and the solvers' argument checks. Every comparison is against a dense matrix built
// independently of the code under test.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/math/block_sparse_matrix.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/solvers/conjugate_gradient.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"
#include "solvers/constraint_matrix_assembly.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"
#include "tinkertoy/solvers/simplicial_ldlt.hpp"
#include "tinkertoy/solvers/tree_factorization.hpp"

namespace tinkertoy {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

Eigen::VectorXd randomVector(std::mt19937& rng, Eigen::Index size, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd x(size);
  for (Eigen::Index i = 0; i < size; ++i) x[i] = u(rng);
  return x;
}

// ---- BlockSparseMatrix ---------------------------------------------------------------

// Random blocks, several of them overlapping, filled with random values. The dense matrix is
// accumulated here block by block (overlaps add), independently of toSparse().
struct RandomBlockMatrix {
  BlockSparseMatrix sparse;
  Eigen::MatrixXd dense;

  RandomBlockMatrix(std::mt19937& rng, Eigen::Index rows, Eigen::Index cols, int blocks)
      : sparse(rows, cols), dense(Eigen::MatrixXd::Zero(rows, cols)) {
    std::uniform_int_distribution<int> size(1, 3);
    std::uniform_real_distribution<double> value(-2.0, 2.0);
    for (int k = 0; k < blocks; ++k) {
      const int r = size(rng), c = size(rng);
      const Eigen::Index row = std::uniform_int_distribution<Eigen::Index>(0, rows - r)(rng);
      const Eigen::Index col = std::uniform_int_distribution<Eigen::Index>(0, cols - c)(rng);
      addBlock(row, col, r, c, rng, value);
    }
    // Two blocks exactly on top of each other and one half-overlapping them.
    addBlock(0, 0, 2, 3, rng, value);
    addBlock(0, 0, 2, 3, rng, value);
    addBlock(1, 1, 2, 2, rng, value);
  }

  void addBlock(Eigen::Index row, Eigen::Index col, int r, int c, std::mt19937& rng,
                std::uniform_real_distribution<double>& value) {
    const std::size_t at = sparse.reserveBlock(row, col, r, c);
    for (int i = 0; i < r; ++i) {
      for (int j = 0; j < c; ++j) {
        const double x = value(rng);
        sparse.values()[at + static_cast<std::size_t>(i * c + j)] = x;
        dense(row + i, col + j) += x;
      }
    }
  }
};

TEST(BlockSparseMatrix, ToSparseSumsOverlappingBlocks) {
  std::mt19937 rng(11);
  RandomBlockMatrix m(rng, 9, 13, 25);
  const Eigen::MatrixXd assembled(m.sparse.toSparse());
  EXPECT_LT((assembled - m.dense).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(BlockSparseMatrix, MultiplyMatchesDenseProductWithOverlappingBlocks) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 10; ++trial) {
    RandomBlockMatrix m(rng, 9, 13, 25);
    const Eigen::VectorXd x = randomVector(rng, 13);
    const Eigen::VectorXd u = randomVector(rng, 9);
    Eigen::VectorXd y, yt;
    m.sparse.multiply(x, y);
    m.sparse.multiplyTransposed(u, yt);
    ASSERT_EQ(y.size(), 9);
    ASSERT_EQ(yt.size(), 13);
    // Each entry is a sum of at most ~30 products of O(1) numbers: round-off ≲ 30·4·ε.
    const double tol = 1e-13;
    EXPECT_LT((y - m.dense * x).cwiseAbs().maxCoeff(), tol);
    EXPECT_LT((yt - m.dense.transpose() * u).cwiseAbs().maxCoeff(), tol);
    // And against toSparse(), the matrix the direct solver uses.
    const Eigen::SparseMatrix<double> s = m.sparse.toSparse();
    EXPECT_LT((y - s * x).cwiseAbs().maxCoeff(), tol);
    EXPECT_LT((yt - s.transpose() * u).cwiseAbs().maxCoeff(), tol);
  }
}

TEST(BlockSparseMatrix, MultiplyOverwritesAStaleOutput) {
  BlockSparseMatrix m(2, 3);
  const std::size_t at = m.reserveBlock(0, 1, 1, 2);
  m.values()[at] = 2.0;
  m.values()[at + 1] = -1.0;
  Eigen::VectorXd y = Eigen::VectorXd::Constant(2, 7.0);  // garbage that must not survive
  m.multiply(Eigen::Vector3d(5.0, 1.0, 3.0), y);
  EXPECT_EQ(y, Eigen::Vector2d(2.0 * 1.0 - 3.0, 0.0));
  Eigen::VectorXd yt = Eigen::VectorXd::Constant(3, 7.0);
  m.multiplyTransposed(Eigen::Vector2d(4.0, 9.0), yt);
  EXPECT_EQ(yt, Eigen::Vector3d(0.0, 8.0, -4.0));
}

TEST(BlockSparseMatrix, ReserveBlockOutOfRangeThrows) {
  BlockSparseMatrix m(4, 6);
  EXPECT_NO_THROW(m.reserveBlock(2, 3, 2, 3));  // touches the last row and column exactly
  EXPECT_THROW(m.reserveBlock(3, 0, 2, 1), std::out_of_range);   // past the last row
  EXPECT_THROW(m.reserveBlock(0, 5, 1, 2), std::out_of_range);   // past the last column
  EXPECT_THROW(m.reserveBlock(-1, 0, 1, 1), std::out_of_range);  // negative origin
  EXPECT_THROW(m.reserveBlock(0, -1, 1, 1), std::out_of_range);
  EXPECT_THROW(m.reserveBlock(0, 0, 0, 1), std::out_of_range);   // empty block
  EXPECT_THROW(m.reserveBlock(0, 0, 1, -2), std::out_of_range);
  EXPECT_EQ(m.blocks().size(), 1u);  // failed reservations leave no trace
  EXPECT_EQ(m.values().size(), 6u);
}

// ---- a real model: a random 3D "cloth" ------------------------------------------------

// An n × n sheet of particles in 3D with random masses and jittered positions, structural
// rods between grid neighbours, one diagonal (shear) rod per cell, and one corner nailed.
// The rods triangulate a disc, whose edges are generically independent in 3D (they are a
// subset of the edges of a triangulated sphere, which is generically minimally rigid), and
// the nail's 3 rows only fix the translation: J has full row rank, so J W Jᵀ is SPD.
struct Cloth {
  Model model{3};
  ConstraintSystem system;
  InverseMass inverseMass;
  std::vector<ConstraintId> rods;

  Cloth(int n, std::mt19937& rng) {
    std::uniform_real_distribution<double> mass(0.5, 2.0);
    std::vector<BodyId> p;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const Eigen::Vector3d x =
            Eigen::Vector3d(0.1 * i, 0.0, 0.1 * j) + randomVector(rng, 3, 0.02);
        p.push_back(model.addParticle(mass(rng), x, randomVector(rng, 3, 1.0)));
      }
    }
    auto at = [&](int i, int j) { return p[static_cast<std::size_t>(i * n + j)]; };
    auto rod = [&](BodyId a, BodyId b) {
      const double length = (model.position(a) - model.position(b)).norm();
      rods.push_back(model.addConstraint(std::make_unique<DistanceConstraint>(a, b, length)));
    };
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (i + 1 < n) rod(at(i, j), at(i + 1, j));
        if (j + 1 < n) rod(at(i, j), at(i, j + 1));
        if (i + 1 < n && j + 1 < n) rod(at(i, j), at(i + 1, j + 1));
      }
    }
    model.addConstraint(std::make_unique<FixedPointConstraint>(at(0, 0), model.position(at(0, 0))));
    model.addForce(std::make_unique<Gravity>(Eigen::Vector3d(0.0, -9.81, 0.0)));
    system.build(model);
    system.evaluate(model, {model.time(), model.q(), model.v()});
    inverseMass.build(model);
    inverseMass.update(model, model.q());
  }

  [[nodiscard]] ConstraintMatrix matrix() const { return {system.jacobian(), inverseMass.matrix()}; }
  [[nodiscard]] Eigen::MatrixXd denseJ() const { return Eigen::MatrixXd(system.jacobian().toSparse()); }
  // Moves every particle by up to `size` and evaluates J there.
  void jiggle(std::mt19937& rng, double size) {
    model.q() += randomVector(rng, model.q().size(), size);
    system.evaluate(model, {model.time(), model.q(), model.v()});
  }
  [[nodiscard]] Eigen::MatrixXd denseA() const {
    const Eigen::MatrixXd J = denseJ();
    return J * inverseMass.matrix().toDense() * J.transpose();
  }
  // The acceleration-level right-hand side −J̇ q̇ − J W Q with gravity as Q (seed 000 eq. 11).
  [[nodiscard]] Eigen::VectorXd rhs() const {
    Eigen::VectorXd Q = Eigen::VectorXd::Zero(model.q().size());
    for (std::size_t i = 0; i < model.forceCount(); ++i) {
      model.force(model.forceAt(i)).accumulate(model, {model.time(), model.q(), model.v()}, Q);
    }
    Eigen::VectorXd JdotV, JWQ;
    system.jacobianDot().multiply(model.v(), JdotV);
    system.jacobian().multiply(inverseMass.matrix().toDense() * Q, JWQ);
    return -JdotV - JWQ;
  }
};

TEST(ConstraintMatrix, ApplyMatchesDenseProductOnARandomCloth) {
  std::mt19937 rng(21);
  Cloth cloth(6, rng);
  const Eigen::Index m = cloth.system.rows();
  ASSERT_EQ(m, 6 * 5 * 2 + 5 * 5 + 3);
  ASSERT_EQ(cloth.system.jacobian().cols(), 6 * 6 * 3);
  const Eigen::MatrixXd A = cloth.denseA();
  const ConstraintMatrix op(cloth.system.jacobian(), cloth.inverseMass.matrix());
  EXPECT_EQ(op.size(), m);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd x = randomVector(rng, m);
    Eigen::VectorXd y;
    op.apply(x, y);
    ASSERT_EQ(y.size(), m);
    // Entries of J are O(1), W ≤ 2, at most ~4 constraints per particle share columns:
    // each y_i is a short sum, so the two evaluation orders agree to ~100 ε ‖A‖ ‖x‖.
    EXPECT_LT((y - A * x).norm(), 100 * kEps * A.norm() * x.norm());
  }
}

TEST(ConstraintMatrix, DiagonalMatchesDenseDiagonal) {
  std::mt19937 rng(22);
  Cloth cloth(6, rng);
  const Eigen::MatrixXd A = cloth.denseA();
  Eigen::VectorXd d = Eigen::VectorXd::Constant(3, 1e9);  // wrong size and stale values
  ConstraintMatrix(cloth.system.jacobian(), cloth.inverseMass.matrix()).diagonal(d);
  ASSERT_EQ(d.size(), A.rows());
  EXPECT_LT((d - A.diagonal()).cwiseAbs().maxCoeff(), 10 * kEps * A.diagonal().maxCoeff());
  // For a rod between particles a and b, A_ii = |n|² (1/m_a + 1/m_b) = 1/m_a + 1/m_b.
  const Eigen::Index row0 = cloth.system.rowOffset(cloth.model.indexOf(cloth.rods[0]));
  const auto points = cloth.model.constraint(cloth.rods[0]).points();
  EXPECT_NEAR(d[row0], 1.0 / cloth.model.mass(points[0].body) + 1.0 / cloth.model.mass(points[1].body),
              1e-14);
}

// CG and LDLT on the same SPD system. The direct solve is exact to round-off; CG stops at a
// relative residual τ, so its error is bounded by ‖x − x*‖/‖x*‖ ≤ κ(A) τ. With τ = 1e-12
// and κ(A) measured below (well under 1e4 for this cloth), that is ≤ 1e-8.
TEST(ConjugateGradient, MatchesSparseLdltOnARandomCloth) {
  std::mt19937 rng(23);
  Cloth cloth(6, rng);
  const Eigen::MatrixXd Adense = cloth.denseA();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Adense);
  const double kappa = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  ASSERT_GT(eig.eigenvalues().minCoeff(), 0.0) << "the cloth should give an SPD system";
  ASSERT_LT(kappa, 1e4);

  const ConstraintMatrix A(cloth.system.jacobian(), cloth.inverseMass.matrix());
  const Eigen::VectorXd b = cloth.rhs();
  ASSERT_GT(b.norm(), 0.0);

  const double tau = 1e-12;
  ConjugateGradient cg(tau, 0);
  cg.analyze(A);
  Eigen::VectorXd xCg = Eigen::VectorXd::Zero(b.size());
  const SolveStats cgStats = cg.solve(A, b, xCg);

  DirectSolver ldlt(FactorizationKind::Simplicial, 0.0, 0);
  ldlt.analyze(A);
  Eigen::VectorXd xLdlt = Eigen::VectorXd::Zero(b.size());
  const SolveStats ldltStats = ldlt.solve(A, b, xLdlt);

  const Eigen::VectorXd xDense = Adense.ldlt().solve(b);
  std::cout << "[ info ] cloth: m = " << b.size() << ", kappa = " << kappa
            << ", CG iterations = " << cgStats.iterations << ", CG residual = " << cgStats.residual
            << ", LDLT residual = " << ldltStats.residual << "\n";

  EXPECT_LE(cgStats.residual, tau);
  EXPECT_GT(cgStats.iterations, 0);
  EXPECT_LE(cgStats.iterations, 2 * b.size() + 100);
  EXPECT_EQ(ldltStats.iterations, 1);
  // A backward-stable direct solve leaves a residual of a few ε κ at most.
  EXPECT_LT(ldltStats.residual, 1e-12);
  EXPECT_LT((xLdlt - xDense).norm() / xDense.norm(), 100 * kEps * kappa);
  std::cout << "[ info ] |x_cg - x_ldlt| / |x_ldlt| = " << (xCg - xLdlt).norm() / xLdlt.norm() << "\n";
  EXPECT_LT((xCg - xLdlt).norm() / xLdlt.norm(), kappa * tau);
  EXPECT_LT((xCg - xLdlt).norm() / xLdlt.norm(), 1e-8);
  // The reported residual is the true one (not the recurrence's, which drifts from it by up to
  // about ε κ): recomputed with a dense product, it differs only by the rounding of A x summed in
  // another order, a fraction of a percent of a residual near τ.
  const double trueResidual = (b - Adense * xCg).norm() / b.norm();
  EXPECT_NEAR(cgStats.residual, trueResidual, 1e-2 * trueResidual);
}

// The assembly plan fills the upper triangle of P A Pᵀ; mapped back, it is the whole A.
TEST(ConstraintMatrixAssembly, AssembledMatrixEqualsDenseProduct) {
  std::mt19937 rng(24);
  Cloth cloth(5, rng);
  const ConstraintMatrix A = cloth.matrix();
  const auto m = static_cast<int>(A.size());
  std::vector<int> position(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) position[static_cast<std::size_t>(i)] = (7 * i + 3) % m;  // a permutation: gcd(7, m) = 1
  ASSERT_NE(m % 7, 0);
  ConstraintMatrixAssembly assembly;
  assembly.analyze(A.jacobian());
  assembly.layOut(position, ConstraintMatrixAssembly::Triangle::Upper);
  std::vector<double> values(assembly.nonZeros());
  assembly.assemble(A, values.data());
  Eigen::MatrixXd assembled = Eigen::MatrixXd::Zero(m, m);
  for (int col = 0; col < m; ++col) {
    for (int k = assembly.columnStarts()[static_cast<std::size_t>(col)]; k < assembly.columnStarts()[static_cast<std::size_t>(col) + 1]; ++k) {
      const int row = assembly.rowIndices()[static_cast<std::size_t>(k)];
      EXPECT_LE(row, col) << "not the upper triangle";
      assembled(row, col) = assembled(col, row) = values[static_cast<std::size_t>(k)];
    }
  }
  Eigen::MatrixXd unpermuted(m, m);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) unpermuted(i, j) = assembled(position[static_cast<std::size_t>(i)], position[static_cast<std::size_t>(j)]);
  }
  const Eigen::MatrixXd dense = cloth.denseA();
  EXPECT_LT((unpermuted - dense).cwiseAbs().maxCoeff(), 10 * kEps * dense.cwiseAbs().maxCoeff());
  EXPECT_EQ(values[assembly.diagonal(4)], assembled(position[4], position[4]));
}

// ---- the direct solver's reuse of a factorization ----------------------------------------

// After a small motion of the bodies the old factorization preconditions CG on the new matrix
// so well that a few iterations reach 1e-12, without factoring again; the result is the fresh
// direct solve's within κ · 1e-12.
TEST(DirectSolver, ReusesAFactorizationWhileTheMatrixMovesLittle) {
  std::mt19937 rng(41);
  Cloth cloth(8, rng);
  const ConstraintMatrix A = cloth.matrix();
  DirectSolver reusing(FactorizationKind::Simplicial, 0.0, 10);
  reusing.analyze(A);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(A.size());
  const SolveStats first = reusing.solve(A, cloth.rhs(), x);
  EXPECT_TRUE(first.factorized);
  EXPECT_EQ(first.iterations, 1);

  cloth.jiggle(rng, 1e-5);  // a hundredth of a millimetre: J changes by ~1e-4 relative
  const Eigen::VectorXd b = cloth.rhs();
  x.setZero();
  const SolveStats second = reusing.solve(A, b, x);
  std::cout << "[ info ] CG with a stale factorization: " << second.iterations << " iterations\n";
  EXPECT_FALSE(second.factorized);
  EXPECT_GE(second.iterations, 1);
  EXPECT_LE(second.iterations, 6);
  EXPECT_LE(second.residual, 1e-12);

  DirectSolver fresh(FactorizationKind::Simplicial, 0.0, 0);
  fresh.analyze(A);
  Eigen::VectorXd reference = Eigen::VectorXd::Zero(A.size());
  EXPECT_TRUE(fresh.solve(A, b, reference).factorized);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(cloth.denseA());
  const double kappa = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  EXPECT_LT((x - reference).norm() / reference.norm(), 10 * kappa * 1e-12);
}

// A motion too large for the old factorization to precondition within the cap: the solver
// factors the new matrix and solves exactly. With reuse off it factors at every solve.
TEST(DirectSolver, FactorsAgainWhenReuseWouldCostMore) {
  std::mt19937 rng(42);
  Cloth cloth(8, rng);
  const ConstraintMatrix A = cloth.matrix();
  DirectSolver reusing(FactorizationKind::Simplicial, 0.0, 2);
  reusing.analyze(A);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(A.size());
  reusing.solve(A, cloth.rhs(), x);
  cloth.jiggle(rng, 0.03);  // a third of the spacing: a different matrix
  x.setZero();
  const SolveStats s = reusing.solve(A, cloth.rhs(), x);
  EXPECT_TRUE(s.factorized);
  EXPECT_EQ(s.iterations, 1);
  EXPECT_LT(s.residual, 1e-12);

  DirectSolver never(FactorizationKind::Simplicial, 0.0, 0);
  never.analyze(A);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(never.solve(A, cloth.rhs(), x).factorized);
}

// A second solve from the previous solution starts with a residual already at the target
// (the true residual, ≤ τ up to the gap between recursive and true residual), so CG should
// do no work, or at most a couple of iterations to close that gap.
TEST(ConjugateGradient, WarmStartFromTheSolutionNeedsAlmostNoIterations) {
  std::mt19937 rng(25);
  Cloth cloth(6, rng);
  const ConstraintMatrix A(cloth.system.jacobian(), cloth.inverseMass.matrix());
  const Eigen::VectorXd b = cloth.rhs();
  ConjugateGradient cg(1e-10, 0);
  cg.analyze(A);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size());
  const SolveStats cold = cg.solve(A, b, x);
  const SolveStats warm = cg.solve(A, b, x);
  std::cout << "[ info ] CG cold start: " << cold.iterations << " iterations, warm start: "
            << warm.iterations << "\n";
  EXPECT_LE(warm.iterations, 2);
  EXPECT_LE(5 * warm.iterations, cold.iterations);
  EXPECT_LE(warm.residual, 1e-10);

  // A slightly changed right-hand side (as from one step to the next) also converges in
  // fewer iterations from the old solution than from zero.
  const Eigen::VectorXd b2 = b + 1e-6 * b.norm() / std::sqrt(double(b.size())) * randomVector(rng, b.size());
  Eigen::VectorXd fromOld = x;
  Eigen::VectorXd fromZero = Eigen::VectorXd::Zero(b.size());
  const SolveStats s1 = cg.solve(A, b2, fromOld);
  const SolveStats s2 = cg.solve(A, b2, fromZero);
  std::cout << "[ info ] CG after a 1e-6 change of b: warm " << s1.iterations << ", cold "
            << s2.iterations << " iterations\n";
  EXPECT_LT(s1.iterations, s2.iterations);
  EXPECT_LE(s1.residual, 1e-10);
  EXPECT_LE(s2.residual, 1e-10);
}

TEST(ConjugateGradient, ZeroRightHandSideGivesZero) {
  std::mt19937 rng(26);
  Cloth cloth(3, rng);
  const ConstraintMatrix A(cloth.system.jacobian(), cloth.inverseMass.matrix());
  ConjugateGradient cg(1e-10, 0);
  Eigen::VectorXd x = randomVector(rng, cloth.system.rows());
  const SolveStats s = cg.solve(A, Eigen::VectorXd::Zero(cloth.system.rows()), x);
  EXPECT_EQ(s.iterations, 0);
  EXPECT_EQ(s.residual, 0.0);
  EXPECT_EQ(x.cwiseAbs().maxCoeff(), 0.0);
}

// ---- redundant rows -------------------------------------------------------------------

// A 2D chain of 5 particles nailed at one end, with rods between neighbours and a cross rod;
// optionally one rod is added twice, which duplicates a row of J.
struct Chain {
  Model model{2};
  ConstraintSystem system;
  InverseMass inverseMass;
  std::vector<ConstraintId> rods;
  ConstraintId duplicate;

  explicit Chain(bool withDuplicate) {
    std::mt19937 rng(31);
    std::vector<BodyId> p;
    for (int i = 0; i < 5; ++i) {
      p.push_back(model.addParticle(0.5 + 0.4 * i, Eigen::Vector2d(0.3 * i, 0.05 * i * i),
                                    randomVector(rng, 2, 1.0)));
    }
    auto rod = [&](BodyId a, BodyId b) {
      const double length = (model.position(a) - model.position(b)).norm();
      return model.addConstraint(std::make_unique<DistanceConstraint>(a, b, length));
    };
    model.addConstraint(std::make_unique<FixedPointConstraint>(p[0], model.position(p[0])));
    for (std::size_t i = 0; i + 1 < p.size(); ++i) rods.push_back(rod(p[i], p[i + 1]));
    rods.push_back(rod(p[1], p[3]));
    if (withDuplicate) duplicate = rod(p[1], p[2]);  // same as rods[1]
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -9.81)));
    system.build(model);
    system.evaluate(model, {model.time(), model.q(), model.v()});
    inverseMass.build(model);
    inverseMass.update(model, model.q());
  }

  [[nodiscard]] Eigen::Index row(ConstraintId id) const { return system.rowOffset(model.indexOf(id)); }
  [[nodiscard]] ConstraintMatrix matrix() const { return {system.jacobian(), inverseMass.matrix()}; }
  [[nodiscard]] Eigen::VectorXd rhs() const {
    Eigen::VectorXd Q = Eigen::VectorXd::Zero(model.q().size());
    model.force(model.forceAt(0)).accumulate(model, {model.time(), model.q(), model.v()}, Q);
    Eigen::VectorXd JdotV, JWQ;
    system.jacobianDot().multiply(model.v(), JdotV);
    system.jacobian().multiply(inverseMass.matrix().toDense() * Q, JWQ);
    return -JdotV - JWQ;
  }
  [[nodiscard]] Eigen::VectorXd force(const Eigen::VectorXd& lambda) const {
    Eigen::VectorXd f;
    system.jacobian().multiplyTransposed(lambda, f);
    return f;
  }
};

struct RedundantFixture : ::testing::Test {
  Chain plain{false};
  Chain redundant{true};
  Eigen::VectorXd referenceForce;

  void SetUp() override {
    // Sanity: the duplicated rows really are identical, so J W Jᵀ is singular.
    const Eigen::MatrixXd J(redundant.system.jacobian().toSparse());
    ASSERT_EQ(J.rows(), plain.system.rows() + 1);
    ASSERT_EQ((J.row(redundant.row(redundant.rods[1])) - J.row(redundant.row(redundant.duplicate)))
                  .cwiseAbs()
                  .maxCoeff(),
              0.0);
    // The force of the non-redundant system, solved densely.
    const Eigen::MatrixXd Jp(plain.system.jacobian().toSparse());
    const Eigen::MatrixXd Ap = Jp * plain.inverseMass.matrix().toDense() * Jp.transpose();
    referenceForce = Jp.transpose() * Ap.ldlt().solve(plain.rhs());
  }
};

// CG on a consistent singular system: the null-space part of λ keeps its starting value and
// the force Jᵀλ is unique. With residual r = A(λ − λ*) restricted to range(A), the force
// error satisfies ‖W^½ Jᵀ(λ − λ*)‖² = (λ − λ*)ᵀ r ≤ ‖r‖² / σ⁺_min, σ⁺_min the smallest
// non-zero eigenvalue of A. That bound, with the measured residual, is what is checked.
TEST_F(RedundantFixture, ConjugateGradientToleratesADuplicatedRow) {
  const ConstraintMatrix A = redundant.matrix();
  const Eigen::VectorXd b = redundant.rhs();
  // Identical rows have identical right-hand sides: b lies in range(A).
  EXPECT_EQ(b[redundant.row(redundant.rods[1])], b[redundant.row(redundant.duplicate)]);

  ConjugateGradient cg(1e-12, 0);
  cg.analyze(redundant.matrix());
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(b.size());
  const SolveStats s = cg.solve(A, b, lambda);
  EXPECT_LE(s.residual, 1e-12);
  EXPECT_TRUE(lambda.allFinite());

  const Eigen::MatrixXd J(redundant.system.jacobian().toSparse());
  const Eigen::MatrixXd Ad = J * redundant.inverseMass.matrix().toDense() * J.transpose();
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Ad).eigenvalues();
  ASSERT_LT(ev[0], 1e-12 * ev.maxCoeff()) << "A should be singular";
  const double sigmaMin = ev[1];
  const Eigen::VectorXd sqrtW = redundant.inverseMass.matrix().toDense().diagonal().cwiseSqrt();
  const Eigen::VectorXd df = redundant.force(lambda) - referenceForce;
  const double bound = (s.residual * b.norm()) / std::sqrt(sigmaMin);
  std::cout << "[ info ] redundant CG: " << s.iterations << " iterations, residual " << s.residual
            << ", relative force error " << df.norm() / referenceForce.norm() << "\n";
  EXPECT_LE(sqrtW.cwiseProduct(df).norm(), 2.0 * bound + 1e-13 * referenceForce.norm());
  EXPECT_LT(df.norm(), 1e-9 * referenceForce.norm());
}

// Every factorization behind the direct solve, for the tests that hold for each.
class EachFactorization : public ::testing::WithParamInterface<FactorizationKind> {};
std::string factorizationLabel(const ::testing::TestParamInfo<FactorizationKind>& info) {
  return std::string(factorizationName(info.param));
}
#define EVERY_FACTORIZATION \
  ::testing::Values(FactorizationKind::Simplicial, FactorizationKind::Supernodal, FactorizationKind::Tree)

struct RedundantEach : RedundantFixture, EachFactorization {};

TEST_P(RedundantEach, WithoutRegularizationReportsTheDuplicatedRow) {
  DirectSolver ldlt(GetParam(), 0.0, 0);
  ldlt.analyze(redundant.matrix());
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(redundant.system.rows());
  const Eigen::Index a = redundant.row(redundant.rods[1]);
  const Eigen::Index b = redundant.row(redundant.duplicate);
  try {
    ldlt.solve(redundant.matrix(), redundant.rhs(), lambda);
    FAIL() << "expected SingularSystemError";
  } catch (const SingularSystemError& e) {
    // The zero pivot is the later of the two identical rows in elimination order; every
    // other row is independent, so no other row can produce it.
    EXPECT_TRUE(e.row() == a || e.row() == b) << "row " << e.row() << ", duplicated rows " << a
                                              << " and " << b;
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
  }
  // The non-redundant system factorizes.
  DirectSolver ok(GetParam(), 0.0, 0);
  ok.analyze(plain.matrix());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(plain.system.rows());
  EXPECT_NO_THROW(ok.solve(plain.matrix(), plain.rhs(), x));
}

// LDLT on A + ε diag(A). With b ⟂ null(A) and the duplicated rows having equal diagonals,
// the null-space part of λ is free but does not change Jᵀλ, and the range part is
// perturbed by a relative ≈ ε · max A_ii / σ⁺_min (≈ 1.4e-8 for this chain, whose
// κ⁺ ≈ 140). The force must agree within 10× that estimate.
TEST_P(RedundantEach, WithRegularizationSolvesAndMatchesTheForce) {
  const double eps = 1e-10;
  DirectSolver ldlt(GetParam(), eps, 0);
  ldlt.analyze(redundant.matrix());
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(redundant.system.rows());
  const SolveStats s = ldlt.solve(redundant.matrix(), redundant.rhs(), lambda);
  EXPECT_TRUE(lambda.allFinite());

  const Eigen::MatrixXd J(redundant.system.jacobian().toSparse());
  const Eigen::MatrixXd Ad = J * redundant.inverseMass.matrix().toDense() * J.transpose();
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Ad).eigenvalues();
  const double perturbation = eps * Ad.diagonal().maxCoeff() / ev[1];
  ASSERT_LT(perturbation, 1e-7);
  const Eigen::VectorXd df = redundant.force(lambda) - referenceForce;
  std::cout << "[ info ] regularized LDLT: relative force error " << df.norm() / referenceForce.norm()
            << ", estimate " << perturbation << "\n";
  EXPECT_LT(df.norm(), 10 * perturbation * referenceForce.norm())
      << "perturbation estimate " << perturbation;
  EXPECT_LT(s.residual, 10 * perturbation);
}

// The automatic cap is what a factorization costs in CG iterations: none for a chain, whose
// tridiagonal factorization costs less than one iteration, several for a wide cloth.
TEST(DirectSolver, AutomaticReuseFollowsTheCosts) {
  Chain chain(false);
  DirectSolver forChain(FactorizationKind::Simplicial, 0.0, -1);
  forChain.analyze(chain.matrix());
  EXPECT_EQ(forChain.reuseCap(), 0);

  std::mt19937 rng(43);
  Cloth cloth(24, rng);
  DirectSolver forCloth(FactorizationKind::Simplicial, 0.0, -1);
  forCloth.analyze(cloth.matrix());
  EXPECT_GE(forCloth.reuseCap(), 2);
  EXPECT_LE(forCloth.reuseCap(), 30);
  ASSERT_NE(forCloth.factorization(), nullptr);
  EXPECT_GT(forCloth.factorization()->cost().factorize, forCloth.factorization()->cost().solve);
}

INSTANTIATE_TEST_SUITE_P(Factorizations, RedundantEach, EVERY_FACTORIZATION, factorizationLabel);

// Each factorization against a dense solve of the same SPD system, on a cloth large enough that
// the supernodal one forms real supernodes: exact to a few ε κ.
struct ClothEach : ::testing::Test, EachFactorization {};

TEST_P(ClothEach, SolvesLikeADenseFactorization) {
  std::mt19937 rng(44);
  Cloth cloth(12, rng);
  const ConstraintMatrix A = cloth.matrix();
  const Eigen::MatrixXd Adense = cloth.denseA();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Adense);
  const double kappa = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  const Eigen::VectorXd b = cloth.rhs();
  const std::unique_ptr<Factorization> f = makeFactorization(GetParam(), A);
  EXPECT_EQ(f->kind(), GetParam());
  f->analyze(A);
  f->factorize(A);
  Eigen::VectorXd x = b;
  f->solveInPlace(x);
  const Eigen::VectorXd reference = Adense.ldlt().solve(b);
  EXPECT_LT((x - reference).norm() / reference.norm(), 100 * kEps * kappa);
  EXPECT_GT(f->cost().factorize, 0.0);
  EXPECT_GT(f->cost().solve, 0.0);
  // Factoring the same layout again with other values gives that matrix's solution.
  cloth.jiggle(rng, 0.01);
  f->factorize(A);
  x = b;
  f->solveInPlace(x);
  const Eigen::VectorXd moved = cloth.denseA().ldlt().solve(b);
  EXPECT_LT((x - moved).norm() / moved.norm(), 1000 * kEps * kappa);
}

INSTANTIATE_TEST_SUITE_P(Factorizations, ClothEach, EVERY_FACTORIZATION, factorizationLabel);

// Automatic picks the simplicial factorization for a thin factor, the tree for a star (whose
// J W Jᵀ is dense but whose primal–dual matrix is a tree) and the supernodal one for a wide
// factor (a 3D lattice of rods); the names round-trip.
TEST(Factorization, AutomaticChoosesByTheModel) {
  const auto automatic = [](const Model& model) {
    ConstraintSystem system;
    system.build(model);
    system.evaluate(model, {0.0, model.q(), model.v()});
    InverseMass W;
    W.build(model);
    W.update(model, model.q());
    return makeFactorization(FactorizationKind::Automatic, {system.jacobian(), W.matrix()})->kind();
  };
  std::mt19937 rng(45);
  EXPECT_EQ(automatic(Cloth(6, rng).model), FactorizationKind::Simplicial);
  Model star(2);
  const BodyId hub = star.addParticle(1.0, Eigen::Vector2d(0, 0));
  for (int i = 0; i < 600; ++i) {
    const double angle = 2 * 3.141592653589793 * i / 600;
    star.addConstraint(std::make_unique<DistanceConstraint>(
        hub, star.addParticle(1.0, Eigen::Vector2d(std::cos(angle), std::sin(angle))), 1.0));
  }
  EXPECT_EQ(automatic(star), FactorizationKind::Tree);
  constexpr int kSide = 14;
  Model lattice(3);
  std::vector<BodyId> p;
  for (int i = 0; i < kSide * kSide * kSide; ++i) {
    p.push_back(lattice.addParticle(1.0, Eigen::Vector3d(i % kSide, (i / kSide) % kSide, i / (kSide * kSide))));
  }
  for (int i = 0; i < kSide * kSide * kSide; ++i) {
    for (const int step : {1, kSide, kSide * kSide}) {
      const bool inside = (step == 1 ? i % kSide : step == kSide ? (i / kSide) % kSide : i / (kSide * kSide)) + 1 < kSide;
      if (inside) lattice.addConstraint(std::make_unique<DistanceConstraint>(p[std::size_t(i)], p[std::size_t(i + step)], 1.0));
    }
  }
  EXPECT_EQ(automatic(lattice), FactorizationKind::Supernodal);
  for (const FactorizationKind k : {FactorizationKind::Automatic, FactorizationKind::Simplicial,
                                    FactorizationKind::Supernodal, FactorizationKind::Tree}) {
    EXPECT_EQ(parseFactorization(factorizationName(k)), k);
  }
  EXPECT_FALSE(parseFactorization("cholesky"));
}

// The tree factorization's flop count, from its analysis, doubles when a chain, a binary tree or
// a star doubles: linear in the size of any forest (the measured times are in bench/RESULTS.md).
TEST(TreeFactorization, CostIsLinearOnChainsTreesAndStars) {
  const auto cost = [](const Model& model) {
    ConstraintSystem system;
    system.build(model);
    system.evaluate(model, {0.0, model.q(), model.v()});
    InverseMass W;
    W.build(model);
    W.update(model, model.q());
    TreeFactorization tree;
    tree.analyze({system.jacobian(), W.matrix()});
    EXPECT_EQ(tree.auxiliaryRows(), 0);
    return tree.cost();
  };
  const auto chain = [](int links) {
    Model model(2);
    BodyId previous = model.addParticle(1.0, Eigen::Vector2d(1, 0));
    model.addConstraint(std::make_unique<DistanceConstraint>(previous, Eigen::Vector2d(0, 0), 1.0));
    for (int i = 1; i < links; ++i) {
      const BodyId next = model.addParticle(1.0, Eigen::Vector2d(i + 1, 0));
      model.addConstraint(std::make_unique<DistanceConstraint>(previous, next, 1.0));
      previous = next;
    }
    return model;
  };
  const auto binaryTree = [](int depth) {
    Model model(2);
    std::vector<BodyId> level{model.addParticle(1.0, Eigen::Vector2d(0, -1))};
    model.addConstraint(std::make_unique<DistanceConstraint>(level[0], Eigen::Vector2d(0, 0), 1.0));
    for (int d = 1; d < depth; ++d) {
      std::vector<BodyId> next;
      for (const BodyId parent : level) {
        for (const double side : {-1.0, 1.0}) {
          const Eigen::Vector2d at = model.position(parent) + Eigen::Vector2d(side * 0.3, -1.0);
          next.push_back(model.addParticle(1.0, at));
          model.addConstraint(std::make_unique<DistanceConstraint>(parent, next.back(), (at - model.position(parent)).norm()));
        }
      }
      level = next;
    }
    return model;
  };
  const auto star = [](int arms) {
    Model model(2);
    const BodyId hub = model.addParticle(1.0, Eigen::Vector2d(0, 0));
    model.addConstraint(std::make_unique<DistanceConstraint>(hub, Eigen::Vector2d(0, 1), 1.0));
    for (int i = 0; i < arms; ++i) {
      const double angle = 6.283185307179586 * (i + 0.5) / arms;
      model.addConstraint(std::make_unique<DistanceConstraint>(
          hub, model.addParticle(1.0, Eigen::Vector2d(std::cos(angle), std::sin(angle))), 1.0));
    }
    return model;
  };
  const auto expectDoubling = [](const FactorizationCost& small, const FactorizationCost& large, const char* what) {
    EXPECT_NEAR(large.factorize / small.factorize, 2.0, 0.05) << what;
    EXPECT_NEAR(large.solve / small.solve, 2.0, 0.05) << what;
  };
  expectDoubling(cost(chain(1000)), cost(chain(2000)), "chain");
  expectDoubling(cost(binaryTree(10)), cost(binaryTree(11)), "binary tree");  // 1023 → 2047 masses
  expectDoubling(cost(star(1000)), cost(star(2000)), "star");
}

// The tree refuses a model whose loops would make its dense Schur complement huge, saying what
// to use instead, rather than allocating it.
TEST(TreeFactorization, RefusesAModelWithTooManyLoops) {
  std::mt19937 rng(46);
  Cloth cloth(60, rng);
  EXPECT_FALSE(TreeFactorization::estimate(cloth.matrix()));
  TreeFactorization tree;
  try {
    tree.analyze(cloth.matrix());
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("simplicial or supernodal"), std::string::npos) << e.what();
  }
}

// ---- argument checks ------------------------------------------------------------------

TEST(SolverSettings, BadValuesAreRejected) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW((ConjugateGradient{0.0, 10}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{-1e-8, 10}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{nan, 10}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{inf, 10}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{1e-8, -1}), std::invalid_argument);
  EXPECT_NO_THROW((ConjugateGradient{1e-8, 0}));
  EXPECT_THROW((DirectSolver{FactorizationKind::Simplicial, -1e-12, -1}), std::invalid_argument);
  EXPECT_THROW((DirectSolver{FactorizationKind::Simplicial, nan, -1}), std::invalid_argument);
  EXPECT_THROW((DirectSolver{FactorizationKind::Simplicial, inf, -1}), std::invalid_argument);
  EXPECT_THROW((DirectSolver{FactorizationKind::Simplicial, 0.0, -2}), std::invalid_argument);
  EXPECT_NO_THROW((DirectSolver{FactorizationKind::Simplicial, 0.0, -1}));
  // The factory applies the same checks.
  EXPECT_THROW(makeLinearSolver({.kind = SolverKind::ConjugateGradient, .tolerance = -1.0}),
               std::invalid_argument);
  EXPECT_THROW(makeLinearSolver({.kind = SolverKind::SparseLdlt, .regularization = -1.0}),
               std::invalid_argument);
  EXPECT_EQ(makeLinearSolver({.kind = SolverKind::SparseLdlt})->name(), "ldlt");
  EXPECT_EQ(makeLinearSolver({.kind = SolverKind::ConjugateGradient})->name(), "cg");
  EXPECT_EQ(solverName(SolverKind::SparseLdlt), "ldlt");
  EXPECT_EQ(solverName(SolverKind::ConjugateGradient), "cg");
}

// The iteration cap is honoured: a cap of 1 stops after one iteration, unconverged.
TEST(ConjugateGradient, IterationCapIsHonoured) {
  std::mt19937 rng(27);
  Cloth cloth(5, rng);
  const ConstraintMatrix A(cloth.system.jacobian(), cloth.inverseMass.matrix());
  const Eigen::VectorXd b = cloth.rhs();
  ConjugateGradient cg(1e-12, 1);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size());
  const SolveStats s = cg.solve(A, b, x);
  EXPECT_EQ(s.iterations, 1);
  EXPECT_GT(s.residual, 1e-12);
}

}  // namespace
}  // namespace tinkertoy
