#include "load_bench.hpp"

#include <benchmark/benchmark.h>

#include <string>

#include "pendulum_row_scene.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::bench {
namespace {

void loadPendulumRow(benchmark::State& state) {
  const int particles = static_cast<int>(state.range(0));
  const std::string text = pendulumRowSceneText(particles);
  for (auto _ : state) {
    Scene scene = parseScene(text);
    benchmark::DoNotOptimize(scene.model.q().data());
    state.PauseTiming();  // the model's destruction is not loading
    {
      const Scene gone = std::move(scene);
    }
    state.ResumeTiming();
  }
  state.SetComplexityN(particles);
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}

}  // namespace

void registerLoading() {
  auto* b = benchmark::RegisterBenchmark("load/pendulum_row", loadPendulumRow);
  for (const long n : {10000, 20000, 40000, 80000, 160000, 260000}) b->Arg(n);
  b->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);
}

}  // namespace tinkertoy::bench
