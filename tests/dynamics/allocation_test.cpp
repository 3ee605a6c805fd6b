// The step loop must not allocate (docs/architecture.md, "The step does not allocate"). This
// binary replaces the C allocation functions (malloc, calloc, realloc and the aligned ones) with
// counting ones: Eigen, SuiteSparse and OpenBLAS allocate with malloc, and operator new does
// too. Under AddressSanitizer, which owns malloc, it counts operator new only. Every shipped
// scene is stepped with every formulation, solver, position correction and factorization it
// accepts, after warm-up steps that size the scratch space (and the direct solver's reuse).
//
// One exception, in a library the engine does not control: Debian's CHOLMOD runs parts of its
// supernodal factorization in OpenMP parallel regions, and libgomp allocates a team for each
// region, even with one thread. Its own workspace comes from a recycling pool; so with an
// explicitly supernodal factorization the test checks that solving allocates nothing and that a
// factorization allocates no more than the first one after warm-up (nothing that grows).
//
// And one of the engine's, by design: the exact mode (contacts with solver cg or ldlt and the
// projection) lays out and analyzes its rows again whenever the contact points change, and a
// symbolic analysis allocates. It is checked apart, on a resting pile, whose points stay.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <malloc.h>
#include <new>

#include <iostream>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"
#include "support/configurations.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// A deliberate replacement of the global allocation functions; GCC cannot see that new and
// delete are replaced as a pair and warns that free() meets operator new's pointers. Every
// form that libstdc++ may pair with another is replaced (the nothrow one too: std::stable_sort's
// buffer comes from it and goes back through plain delete); AddressSanitizer keeps the aligned
// forms, which it pairs among themselves.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
namespace {
void* countedAllocation(std::size_t size) noexcept {
  ++allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* countedAllocationOrThrow(std::size_t size) {
  if (void* p = countedAllocation(size)) return p;
  throw std::bad_alloc();
}
}  // namespace
void* operator new(std::size_t size) { return countedAllocationOrThrow(size); }
void* operator new[](std::size_t size) { return countedAllocationOrThrow(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return countedAllocation(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return countedAllocation(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
constexpr bool kCountsMalloc = false;
#else
// glibc's own allocator, under the names it exports for exactly this purpose.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* pointer);

void* malloc(std::size_t size) {
  ++allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  ++allocations;
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  ++allocations;
  return __libc_realloc(pointer, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  ++allocations;
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  ++allocations;
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  ++allocations;
  *out = __libc_memalign(alignment, size);
  return *out ? 0 : ENOMEM;
}
void free(void* pointer) { __libc_free(pointer); }
}
constexpr bool kCountsMalloc = true;
#endif

namespace tinkertoy {
namespace {

// The counter sees allocations at all, or the tests below could not fail: operator new, and
// with the C functions replaced, malloc itself (as Eigen calls it).
TEST(AllocationCounter, CountsAnAllocation) {
  long before = allocations.load();
  auto* probe = new double(1.0);
  EXPECT_GE(allocations.load() - before, 1);
  delete probe;
  if (!kCountsMalloc) GTEST_SKIP() << "under AddressSanitizer only operator new is counted";
  before = allocations.load();
  void* block = std::malloc(64);
  EXPECT_EQ(allocations.load() - before, 1);
  std::free(block);
  before = allocations.load();
  Eigen::VectorXd x(1000);
  EXPECT_EQ(allocations.load() - before, 1);
}

class StepsWithoutAllocating : public ::testing::TestWithParam<Configuration> {};

TEST_P(StepsWithoutAllocating, EveryShippedScene) {
  const Configuration& c = GetParam();
  const std::filesystem::path scenes = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scenes)) {
    if (entry.path().extension() != ".json") continue;
    Scene scene = loadScene(entry.path());
    SimulationSettings& s = scene.settings;
    c.applyTo(s);
    std::unique_ptr<Simulator> sim;
    try {
      sim = std::make_unique<Simulator>(scene.model, s);
    } catch (const std::invalid_argument&) {
      continue;  // limits, motors or springs at the acceleration level: not a combination that runs
    }
    if (s.velocity.collisions && s.solver.kind != SolverKind::SequentialImpulses) continue;  // (above)
    for (int i = 0; i < 5; ++i) sim->step();  // sizes the scratch space and the first reuses
    const long before = allocations.load();
    for (int i = 0; i < 20; ++i) sim->step();
    EXPECT_EQ(allocations.load() - before, 0) << entry.path().filename() << " allocated while stepping";
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

// The exact mode on a resting pyramid (55 boxes, 290 contact points whose layout stays): after
// the first steps, stepping allocates nothing.
TEST(ExactContactAllocations, ARestingPileStepsWithoutAllocating) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "pyramid.json");
  scene.settings.solver.kind = SolverKind::SparseLdlt;
  scene.settings.velocity.positionCorrection = PositionCorrection::Projection;
  Simulator sim(scene.model, scene.settings);
  for (int i = 0; i < 5; ++i) sim.step();
  const long before = allocations.load();
  for (int i = 0; i < 20; ++i) sim.step();
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_GT(sim.diagnostics().contactPoints, 200);
}

// scenes/sleeping_pile.json through its whole story: the pyramid falls asleep (about step 48), a
// box lands on it and wakes it (about step 115), and it sleeps again: setting its contact points
// aside, waking them and sleeping again allocate nothing.
TEST(SleepAllocations, FallingAsleepAndWakingDoNotAllocate) {
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "sleeping_pile.json");
  Simulator sim(scene.model, scene.settings);
  for (int i = 0; i < 5; ++i) sim.step();
  const long before = allocations.load();
  int fellAsleep = 0, woke = 0, asleep = sim.diagnostics().asleep;
  for (int i = 0; i < 300; ++i) {
    sim.step();
    fellAsleep += sim.diagnostics().asleep > asleep ? 1 : 0;
    woke += sim.diagnostics().asleep < asleep ? 1 : 0;
    asleep = sim.diagnostics().asleep;
  }
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_GE(fellAsleep, 2);
  EXPECT_GE(woke, 1);
}

INSTANTIATE_TEST_SUITE_P(Configurations, StepsWithoutAllocating, ::testing::ValuesIn(configurations()),
                         [](const ::testing::TestParamInfo<Configuration>& param) { return label(param.param); });

// CHOLMOD's supernodal factorization on the cloth scene: solves with its factors allocate
// nothing, and after warm-up every factorization allocates the same (libgomp's OpenMP teams)
// and no more: CHOLMOD's own workspace comes back from the pool.
// The shipped scenes are too small for a second thread to take a share of the evaluation; a
// chain of 5000 rods is not: two threads step it without allocating either.
TEST(ThreadAllocations, TwoThreadsStepALongChainWithoutAllocating) {
  Model model(2);
  BodyId previous = model.addParticle(1.0, Eigen::Vector2d(1, 0));
  model.addConstraint(std::make_unique<DistanceConstraint>(previous, Eigen::Vector2d(0, 0), 1.0));
  for (int i = 2; i <= 5000; ++i) {
    const BodyId next = model.addParticle(1.0, Eigen::Vector2d(i, 0));
    model.addConstraint(std::make_unique<DistanceConstraint>(previous, next, 1.0));
    previous = next;
  }
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  SimulationSettings s{.dt = 1.0 / 240.0, .formulation = FormulationKind::Velocity};
  s.solver.kind = SolverKind::SparseLdlt;
  s.velocity.positionCorrection = PositionCorrection::Projection;
  s.threads = 2;
  Simulator sim(model, s);
  for (int i = 0; i < 5; ++i) sim.step();
  const long before = allocations.load();
  for (int i = 0; i < 20; ++i) sim.step();
  EXPECT_EQ(allocations.load() - before, 0);
}

TEST(SupernodalAllocations, SolvesAllocateNothingAndFactorizationsDoNotGrow) {
  if (!kCountsMalloc) GTEST_SKIP() << "under AddressSanitizer only operator new is counted";
  Scene scene = loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / "cloth.json");
  ConstraintSystem system;
  system.build(scene.model);
  system.evaluate({0.0, scene.model.q(), scene.model.v()});
  InverseMass W;
  W.build(scene.model);
  W.update(scene.model, scene.model.q());
  Eigen::VectorXd shift;
  ConstraintMatrix(system.jacobian(), W.matrix()).diagonal(shift);
  shift *= 1e-10;
  const ConstraintMatrix A(system.jacobian(), W.matrix(), &shift);
  const std::unique_ptr<Factorization> f = makeFactorization(FactorizationKind::Supernodal, A);
  f->analyze(A);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(A.size());
  for (int i = 0; i < 3; ++i) {
    f->factorize(A);
    f->solveInPlace(x);
  }
  long before = allocations.load();
  for (int i = 0; i < 10; ++i) f->solveInPlace(x);
  EXPECT_EQ(allocations.load() - before, 0) << "solving with the factors allocated";
  before = allocations.load();
  f->factorize(A);
  const long one = allocations.load() - before;
  before = allocations.load();
  for (int i = 0; i < 10; ++i) f->factorize(A);
  EXPECT_EQ(allocations.load() - before, 10 * one) << "factorizations allocate more and more";
  std::cout << "[ info ] a supernodal factorization of cloth.json allocates " << one
            << " blocks, all in libgomp's OpenMP regions\n";
}

}  // namespace
}  // namespace tinkertoy
