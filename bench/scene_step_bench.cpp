#include "scene_step_bench.hpp"

#include <benchmark/benchmark.h>

#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::bench {

namespace {

// Each iteration: the scene loaded afresh (not timed), then `steps` steps from its initial state.
void stepScene(benchmark::State& state, const char* file, long steps) {
  for (auto _ : state) {
    state.PauseTiming();
    Scene scene = loadScene(std::string(TINKERTOY_SOURCE_DIR) + "/scenes/" + file);
    Simulator simulator(scene.model, scene.settings);
    state.ResumeTiming();
    for (long i = 0; i < steps; ++i) simulator.step();
  }
  state.counters["steps"] = static_cast<double>(steps);
}

}  // namespace

void registerSceneSteps() {
  benchmark::RegisterBenchmark("scene_step/double_pendulum", stepScene, "double_pendulum.json", 20000L)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace tinkertoy::bench
