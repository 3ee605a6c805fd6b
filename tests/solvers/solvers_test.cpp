// Linear algebra under the multiplier solve: the block-sparse products, the matrix-free
// J W Jᵀ operator and its assembly, conjugate gradient against the direct LDLᵀ solve, warm
// starts, redundant rows and the solvers' argument checks (the direct solve's own tests are in
// direct_solver_test.cpp). Every comparison is against a dense matrix built
// independently of the code under test.
#include "solver_models.hpp"

namespace tinkertoy {
namespace {

using namespace solver_models;

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
  ConjugateGradient cg(tau, 0, 0.0);
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

// A second solve from the previous solution starts with a residual already at the target
// (the true residual, ≤ τ up to the gap between recursive and true residual), so CG should
// do no work, or at most a couple of iterations to close that gap.
TEST(ConjugateGradient, WarmStartFromTheSolutionNeedsAlmostNoIterations) {
  std::mt19937 rng(25);
  Cloth cloth(6, rng);
  const ConstraintMatrix A(cloth.system.jacobian(), cloth.inverseMass.matrix());
  const Eigen::VectorXd b = cloth.rhs();
  ConjugateGradient cg(1e-10, 0, 0.0);
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
  ConjugateGradient cg(1e-10, 0, 0.0);
  Eigen::VectorXd x = randomVector(rng, cloth.system.rows());
  const SolveStats s = cg.solve(A, Eigen::VectorXd::Zero(cloth.system.rows()), x);
  EXPECT_EQ(s.iterations, 0);
  EXPECT_EQ(s.residual, 0.0);
  EXPECT_EQ(x.cwiseAbs().maxCoeff(), 0.0);
}

// A right-hand side whose norm overflows a double (entries of 1e200: their squares are inf) is
// solved as b/s with s a power of two: the answer is s times the ordinary one, bit for bit, and
// the residual is finite. (It used to stop at once, its target ‖b‖·tol infinite, returning the
// starting λ: a motor at 1e155 rad/s dropped its joint's pin without a word.)
TEST(ConjugateGradient, SolvesARightHandSideWhoseNormOverflows) {
  std::mt19937 rng(27);
  Cloth cloth(3, rng);
  const ConstraintMatrix A(cloth.system.jacobian(), cloth.inverseMass.matrix());
  const Eigen::VectorXd b = cloth.rhs();
  const double scale = std::ldexp(1.0, std::ilogb(1e200) - std::ilogb(b.cwiseAbs().maxCoeff()));
  ConjugateGradient cg(1e-12, 0, 0.0);
  cg.analyze(A);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size()), huge = Eigen::VectorXd::Zero(b.size());
  const SolveStats ordinary = cg.solve(A, b, x);
  const SolveStats scaled = cg.solve(A, b * scale, huge);
  ASSERT_TRUE(std::isinf((b * scale).norm()));
  EXPECT_EQ(scaled.iterations, ordinary.iterations);
  EXPECT_LE(scaled.residual, 1e-12);
  EXPECT_EQ((huge - x * scale).cwiseAbs().maxCoeff(), 0.0);
}

// CG on a consistent singular system: the null-space part of λ keeps its starting value and
// the force Jᵀλ is unique. With residual r = A(λ − λ*) restricted to range(A), the force
// error satisfies ‖W^½ Jᵀ(λ − λ*)‖² = (λ − λ*)ᵀ r ≤ ‖r‖² / σ⁺_min, σ⁺_min the smallest
// non-zero eigenvalue of A. That bound, with the measured residual, is what is checked.
TEST_F(RedundantFixture, ConjugateGradientToleratesADuplicatedRow) {
  const ConstraintMatrix A = redundant.matrix();
  const Eigen::VectorXd b = redundant.rhs();
  // Identical rows have identical right-hand sides: b lies in range(A).
  EXPECT_EQ(b[redundant.row(redundant.rods[1])], b[redundant.row(redundant.duplicate)]);

  ConjugateGradient cg(1e-12, 0, 0.0);
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


// ---- argument checks ------------------------------------------------------------------

TEST(SolverSettings, BadValuesAreRejected) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW((ConjugateGradient{0.0, 10, 0.0}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{-1e-8, 10, 0.0}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{nan, 10, 0.0}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{inf, 10, 0.0}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{1e-8, -1, 0.0}), std::invalid_argument);
  EXPECT_NO_THROW((ConjugateGradient{1e-8, 0, 0.0}));
  EXPECT_THROW((ConjugateGradient{1e-8, 0, -1e-12}), std::invalid_argument);
  EXPECT_THROW((ConjugateGradient{1e-8, 0, nan}), std::invalid_argument);
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
  EXPECT_THROW(makeLinearSolver({.kind = SolverKind::ConjugateGradient, .regularization = -1.0}),
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
  ConjugateGradient cg(1e-12, 1, 0.0);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size());
  const SolveStats s = cg.solve(A, b, x);
  EXPECT_EQ(s.iterations, 1);
  EXPECT_GT(s.residual, 1e-12);
}

}  // namespace
}  // namespace tinkertoy
