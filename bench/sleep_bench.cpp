#include "sleep_bench.hpp"

#include <benchmark/benchmark.h>

#include <ctime>

#include "bench_models.hpp"
#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy::bench {

namespace {

constexpr long kTimedSteps = 120;

double processSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

void stepPile(benchmark::State& state, bool sleep) {
  const Scenario scenario = scenarioByName("many_pyramids").value();
  int asleep = 0;
  double seconds = 0.0;
  for (auto _ : state) {
    Model model = tinkertoyModel(scenario);
    SimulationSettings settings = softStepSettings(scenario, 1);
    settings.velocity.sleep = sleep;
    Simulator simulator(model, settings);
    const auto boxes = static_cast<int>(scenario.boxes.size());
    // Settle (untimed): 3 s awake, or until every box sleeps.
    for (double t = 0.0; t < (sleep ? 10.0 : 3.0); t += scenario.dt) {
      simulator.step();
      if (sleep && simulator.diagnostics().asleep == boxes) break;
    }
    asleep = simulator.diagnostics().asleep;
    const double start = processSeconds();
    for (long k = 0; k < kTimedSteps; ++k) simulator.step();
    seconds = processSeconds() - start;
    state.SetIterationTime(seconds);
  }
  state.counters["ms_per_step"] = 1e3 * seconds / kTimedSteps;
  state.counters["asleep"] = asleep;
}

}  // namespace

void registerSleepSteps() {
  for (const bool sleep : {false, true}) {
    benchmark::RegisterBenchmark(sleep ? "sleeping/many_pyramids/asleep" : "sleeping/many_pyramids/awake", stepPile, sleep)
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace tinkertoy::bench
