// The step loop must not allocate (DESIGN §3: "keep allocations out of the step loop"). This
// binary replaces the global operator new with a counting one and steps every shipped scene
// with both solvers after a warm-up step (the first step sizes the scratch space).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <new>

#include "tinkertoy/scene/scene.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

// A deliberate replacement of the global allocation functions; GCC cannot see that new and
// delete are replaced as a pair and warns that free() meets operator new's pointers.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace tinkertoy {
namespace {

class StepsWithoutAllocating : public ::testing::TestWithParam<SolverKind> {};

// The counter sees allocations at all, or the test below could not fail.
TEST(AllocationCounter, CountsAnAllocation) {
  const long before = allocations.load();
  auto* probe = new double(1.0);
  EXPECT_EQ(allocations.load() - before, 1);
  delete probe;
}

TEST_P(StepsWithoutAllocating, EveryShippedScene) {
  const std::filesystem::path scenes = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scenes)) {
    if (entry.path().extension() != ".json") continue;
    Scene scene = loadScene(entry.path());
    scene.settings.solver.kind = GetParam();
    scene.settings.solver.regularization = 1e-10;  // cloth-like scenes may be redundant for LDLT
    Simulator sim(scene.model, scene.settings);
    sim.step();
    const long before = allocations.load();
    for (int i = 0; i < 20; ++i) sim.step();
    EXPECT_EQ(allocations.load() - before, 0) << entry.path().filename() << " allocated while stepping";
    ++checked;
  }
  EXPECT_GE(checked, 14);
}

INSTANTIATE_TEST_SUITE_P(Solvers, StepsWithoutAllocating,
                         ::testing::Values(SolverKind::ConjugateGradient, SolverKind::SparseLdlt),
                         [](const ::testing::TestParamInfo<SolverKind>& param) {
                           return std::string(solverName(param.param));
                         });

}  // namespace
}  // namespace tinkertoy
