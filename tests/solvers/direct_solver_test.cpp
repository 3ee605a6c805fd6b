// The direct solve: reusing a factorization as CG's preconditioner while the matrix moves
// little, each factorization (simplicial LDLᵀ, supernodal Cholesky, Baraff's tree) against a
// dense solve and on redundant rows, the automatic choice between them, and the tree's linear
// cost.
#include "solver_models.hpp"

namespace tinkertoy {
namespace {

using namespace solver_models;

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

// After a reuse fails, the next solve factors without trying (even where reuse would have
// worked), the one after tries again; after two failures in a row the skip is two solves.
TEST(DirectSolver, BacksOffAfterAFailedReuse) {
  std::mt19937 rng(43);
  Cloth cloth(8, rng);
  const ConstraintMatrix A = cloth.matrix();
  DirectSolver solver(FactorizationKind::Simplicial, 0.0, 10);
  solver.analyze(A);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(A.size());
  const auto solveAfter = [&](double jiggle) {
    cloth.jiggle(rng, jiggle);
    x.setZero();
    return solver.solve(A, cloth.rhs(), x).factorized;
  };
  EXPECT_TRUE(solveAfter(0.0));    // the first factorization
  EXPECT_FALSE(solveAfter(1e-6));  // a small motion: reused
  EXPECT_TRUE(solveAfter(0.03));   // a large one: reuse fails, factors
  EXPECT_TRUE(solveAfter(1e-6));   // skipped: factors without trying
  EXPECT_FALSE(solveAfter(1e-6));  // tries again, and reuse works
  EXPECT_TRUE(solveAfter(0.03));   // fails: the next one is skipped
  EXPECT_TRUE(solveAfter(1e-6));
  EXPECT_TRUE(solveAfter(0.03));   // tries, fails again: the next two are skipped
  EXPECT_TRUE(solveAfter(1e-6));
  EXPECT_TRUE(solveAfter(1e-6));
  EXPECT_FALSE(solveAfter(1e-6));
}

// CG that may give up stops as soon as its mean reduction per iteration predicts missing the
// cap (here Jacobi on a cloth, which needs dozens of iterations for 1e-12, capped at 5), while
// a patient one runs to the cap; neither claims convergence.
TEST(PreconditionedCg, GivesUpEarlyWhenTooSlow) {
  std::mt19937 rng(44);
  Cloth cloth(8, rng);
  const ConstraintMatrix A = cloth.matrix();
  const Eigen::VectorXd b = cloth.rhs();
  class Jacobi final : public Preconditioner {
   public:
    explicit Jacobi(const ConstraintMatrix& m) { m.diagonal(inverse_); inverse_ = inverse_.cwiseInverse(); }
    void apply(const Eigen::VectorXd& r, Eigen::VectorXd& z) override { z = inverse_.cwiseProduct(r); }

   private:
    Eigen::VectorXd inverse_;
  } jacobi(A);
  CgScratch scratch;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size());
  const CgResult patient = preconditionedConjugateGradient(A, b, x, jacobi, 1e-12, 5, scratch, CgPatience::UntilCap);
  EXPECT_EQ(patient.iterations, 5);
  EXPECT_FALSE(patient.converged);
  x.setZero();
  const CgResult hasty = preconditionedConjugateGradient(A, b, x, jacobi, 1e-12, 5, scratch, CgPatience::UntilTooSlow);
  EXPECT_EQ(hasty.iterations, 2) << "the prediction starts after two iterations";
  EXPECT_FALSE(hasty.converged);
}


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

// The automatic cap is half of what a factorization costs in CG iterations: none for a chain,
// whose tridiagonal factorization costs less than one iteration, several for a wide cloth.
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
    const ModelMatrix A(model);
    return makeFactorization(FactorizationKind::Automatic, A.matrix())->kind();
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
  // Twenty particles, each joined to every other (190 rods): a small factor (about 2e6 flops,
  // far under the flops switch) whose columns are long (flops / nnz(L) near 100), as a pile's
  // contact rows make them: supernodal.
  Model web(2);
  std::vector<BodyId> knots;
  for (int i = 0; i < 20; ++i) {
    const double angle = 2 * 3.141592653589793 * i / 20;
    knots.push_back(web.addParticle(1.0, Eigen::Vector2d(std::cos(angle), std::sin(angle))));
  }
  for (std::size_t i = 0; i < knots.size(); ++i) {
    for (std::size_t j = i + 1; j < knots.size(); ++j) {
      const double length = (web.coordinates(knots[i]) - web.coordinates(knots[j])).norm();
      web.addConstraint(std::make_unique<DistanceConstraint>(knots[i], knots[j], length));
    }
  }
  EXPECT_EQ(automatic(web), FactorizationKind::Supernodal);
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
    const ModelMatrix A(model);
    TreeFactorization tree;
    tree.analyze(A.matrix());
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

}  // namespace
}  // namespace tinkertoy
