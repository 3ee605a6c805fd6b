// Two threads, the same bits: the step shares the constraints' evaluation among threads with a
// fixed split (ParallelLoop), and the supernodal factorization keeps OpenBLAS on one thread, so
// a simulation on two threads ends in exactly the state of one thread.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>

#include "bench_models.hpp"
#include "common/parallel_loop.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/dynamics/constraint_colouring.hpp"
#include "tinkertoy/solvers/supernodal_cholesky.hpp"

namespace tinkertoy {
namespace {

bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}

TEST(ParallelLoop, EveryIterationRunsOnceOnTheThreadOfItsShare) {
  for (int threads : {1, 2, 3}) {
    ParallelLoop loop(threads);
    for (std::size_t n : {std::size_t{0}, std::size_t{5}, 2 * ParallelLoop::kMinimumShare - 1, 3 * ParallelLoop::kMinimumShare + 1}) {
      std::vector<int> runs(n, 0), thread(n, -1);
      loop.run(n, [&](std::size_t begin, std::size_t end, int t) {
        for (std::size_t i = begin; i < end; ++i) {
          ++runs[i];
          thread[i] = t;
        }
      });
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(runs[i], 1) << "threads " << threads << ", n " << n << ", i " << i;
        // The share is fixed by n and the thread count alone: thread t has [n t / T, n (t + 1) / T),
        // or the caller everything when the shares would be too small to be worth a thread.
        const bool shared = n >= ParallelLoop::kMinimumShare * static_cast<std::size_t>(threads);
        int expected = 0;
        while (shared && ParallelLoop::shareBegin(n, expected + 1, threads) <= i) ++expected;
        EXPECT_EQ(thread[i], expected) << "threads " << threads << ", n " << n << ", i " << i;
      }
    }
  }
}

TEST(ParallelLoop, RethrowsWhatAWorkerThrowsAndKeepsWorking) {
  ParallelLoop loop(2);
  const std::size_t n = 4 * ParallelLoop::kMinimumShare;
  EXPECT_THROW(loop.run(n,
                        [](std::size_t, std::size_t, int thread) {
                          if (thread == 1) throw std::runtime_error("worker failed");
                        }),
               std::runtime_error);
  std::vector<std::size_t> sums(2, 0);
  loop.run(n, [&](std::size_t begin, std::size_t end, int thread) {
    for (std::size_t i = begin; i < end; ++i) sums[static_cast<std::size_t>(thread)] += i;
  });
  EXPECT_GT(sums[1], 0u);
  EXPECT_EQ(sums[0] + sums[1], n * (n - 1) / 2);
  EXPECT_THROW(ParallelLoop(0), std::invalid_argument);
}

struct Case {
  const char* name;
  bench::Scenario scenario;
  FormulationKind formulation;
  SolverKind solver;
  PositionCorrection correction;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class TwoThreads : public testing::TestWithParam<Case> {};

// 20 steps on one thread and on two end in the same q and v, bit for bit, with the same
// diagnostics. Each scene has enough constraints (over 2 × ParallelLoop::kMinimumShare) for the
// second thread to take a share.
TEST_P(TwoThreads, GiveTheBitsOfOneThread) {
  const Case& c = GetParam();
  Eigen::VectorXd q[2], v[2];
  StepDiagnostics last[2];
  for (int threads : {1, 2}) {
    Model model = bench::tinkertoyModel(c.scenario);
    SimulationSettings s{.dt = c.scenario.dt, .formulation = c.formulation};
    s.solver.kind = c.solver;
    s.velocity.positionCorrection = c.correction;
    if (c.scenario.kind == bench::ScenarioKind::JointGrid) s.solver.regularization = 1e-9;
    s.threads = threads;
    Simulator sim(model, s);
    ASSERT_GE(model.constraintCount(), 2 * ParallelLoop::kMinimumShare);
    for (int i = 0; i < 20; ++i) sim.step();
    q[threads - 1] = model.q();
    v[threads - 1] = model.v();
    last[threads - 1] = sim.diagnostics();
  }
  EXPECT_TRUE(sameBits(q[0], q[1])) << "max |Δq| " << (q[0] - q[1]).cwiseAbs().maxCoeff();
  EXPECT_TRUE(sameBits(v[0], v[1])) << "max |Δv| " << (v[0] - v[1]).cwiseAbs().maxCoeff();
  EXPECT_EQ(last[0].totalEnergy(), last[1].totalEnergy());
  EXPECT_EQ(last[0].constraintError, last[1].constraintError);
  EXPECT_EQ(last[0].solverIterations, last[1].solverIterations);
  EXPECT_GT(last[0].kineticEnergy, 0.0) << "the scene should move";
}

INSTANTIATE_TEST_SUITE_P(
    Scenes, TwoThreads,
    testing::Values(Case{"ChainAccelerationLdlt", bench::chainScenario(2500), FormulationKind::Acceleration,
                         SolverKind::SparseLdlt, PositionCorrection::None},
                    Case{"ClothAccelerationCg", bench::clothScenario(40), FormulationKind::Acceleration,
                         SolverKind::ConjugateGradient, PositionCorrection::None},
                    Case{"ClothExact", bench::clothScenario(40), FormulationKind::Velocity, SolverKind::SparseLdlt,
                         PositionCorrection::Projection},
                    Case{"ClothSequential", bench::clothScenario(40), FormulationKind::Velocity,
                         SolverKind::SequentialImpulses, PositionCorrection::Baumgarte},
                    Case{"JointGridExact", bench::jointGridScenario(40), FormulationKind::Velocity,
                         SolverKind::SparseLdlt, PositionCorrection::Projection}),
    [](const testing::TestParamInfo<Case>& c) { return std::string(c.param.name); });

// FNV-1a over the bytes of q and v: a fingerprint of a state, equal only for the same bits.
std::uint64_t stateHash(const Model& model) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const Eigen::VectorXd* x : {&model.q(), &model.v()}) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(x->data());
    for (std::size_t i = 0; i < static_cast<std::size_t>(x->size()) * sizeof(double); ++i) {
      hash = (hash ^ bytes[i]) * 1099511628211ull;
    }
  }
  return hash;
}

// The sequential kernel shares each colour of the constraint graph among the threads: after 500
// steps, joint_grid-32 (four colours of about 500 pins, each split in two) and the strandbeest
// end in the same bits on one thread and on two, with Baumgarte and with the soft step.
TEST(Threads, SequentialPassesGiveTheBitsOfOneThread) {
  const auto grid = [] { return bench::tinkertoyModel(bench::jointGridScenario(32)); };
  const auto strandbeest = [] {
    return loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "strandbeest.json").model;
  };
  {
    const Model model = grid();
    ConstraintSystem system;
    system.build(model);
    ConstraintColouring colouring;
    colouring.build(system);
    EXPECT_EQ(colouring.count(), 4u);
    for (std::size_t c = 0; c < colouring.count(); ++c) EXPECT_GE(colouring.members(c).size(), 2 * 128u);
  }
  for (const PositionCorrection correction : {PositionCorrection::Baumgarte, PositionCorrection::SoftStep}) {
    for (const auto& [name, build] : {std::pair{"joint_grid-32", std::function<Model()>(grid)},
                                      std::pair{"strandbeest", std::function<Model()>(strandbeest)}}) {
      std::uint64_t hashes[2] = {};
      for (const int threads : {1, 2}) {
        Model model = build();
        SimulationSettings s{.dt = 1.0 / 60.0, .formulation = FormulationKind::Velocity};
        s.solver.kind = SolverKind::SequentialImpulses;
        s.velocity.substeps = 4;
        s.velocity.iterations = correction == PositionCorrection::SoftStep ? 1 : 4;
        s.velocity.positionCorrection = correction;
        s.threads = threads;
        Simulator sim(model, s);
        for (int i = 0; i < 500; ++i) sim.step();
        EXPECT_GT(sim.diagnostics().kineticEnergy, 0.0) << name;
        hashes[threads - 1] = stateHash(model);
      }
      EXPECT_EQ(hashes[0], hashes[1]) << name << ", " << positionCorrectionName(correction);
    }
  }
}

// The BLAS's own thread count, if it can be told (OpenBLAS).
using SetThreads = void (*)(int);
using GetThreads = int (*)();

// Whatever the process's BLAS thread setting (OpenBLAS defaults to one per core), the
// supernodal factorization runs it on one thread: joint_grid-100's solve (39 588 rows, whose
// separators give supernodes large enough for OpenBLAS to split) is the same bits after the
// BLAS was set to two threads. On two threads OpenBLAS's dpotrf, dsyrk and dgemv round
// differently, and this κ ≈ 10⁹ system shows it. The program's own setting is restored after.
TEST(Threads, SupernodalFactorizationIsTheSameWhateverTheBlasThreads) {
  const auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  const auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  if (!set || !get) GTEST_SKIP() << "this BLAS has no thread control (not OpenBLAS): it runs on one thread";

  const Model model = bench::tinkertoyModel(bench::jointGridScenario(100));
  const bench::StateConstraintMatrix state(model);
  const ConstraintMatrix& A = state.matrix();
  std::mt19937 rng(2);
  std::normal_distribution<double> normal;
  Eigen::VectorXd b(A.size());
  for (double& x : b) x = normal(rng);

  Eigen::VectorXd x[2];
  for (int blasThreads : {1, 2}) {
    set(blasThreads);
    SupernodalCholesky f;
    f.analyze(A);
    f.factorize(A);
    EXPECT_EQ(get(), blasThreads) << "the factorization restores the program's BLAS threads";
    x[blasThreads - 1] = b;
    f.solveInPlace(x[blasThreads - 1]);
  }
  set(1);
  EXPECT_TRUE(sameBits(x[0], x[1])) << "max difference " << (x[0] - x[1]).cwiseAbs().maxCoeff();
  Eigen::VectorXd r;
  EXPECT_LT(relativeResidual(A, b, x[0], r), 1e-6) << "κ ≈ 10⁹ allows about 1e-7";
}

}  // namespace
}  // namespace tinkertoy
