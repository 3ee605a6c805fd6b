// tinkertoy-bench: chain-N and cloth-G with both linear solvers (bench/RESULTS.md).
//
// Each benchmark simulates the whole scenario once and reports, besides the wall time:
//   ms_per_step      wall milliseconds per step
//   C_over_L         final ‖C‖∞ divided by the rod length
//   C_max_over_L     largest ‖C‖∞ over the run, divided by the rod length
//   energy_drift     max over steps of |E(t) − E(0)|, J
//   iters_per_solve  mean solver iterations per linear solve (1 for LDLT)
//   simulated_s      simulated time reached: less than the scenario's duration if it blew up
//                    (the blow-up message goes to stderr; the other counters cover the steps run)
//
// Usage: tinkertoy-bench [--benchmark_filter=REGEX] [--integrator=rk4|symplectic-euler|...]
//                       [--project] [--duration=S] [--dt=H]
//   --duration=S  simulate S seconds instead of the scenario's 10 s (chain) or 5 s (cloth)
//   --dt=H        step size in seconds instead of 1/240
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "bench_models.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy::bench {
namespace {

struct Options {
  IntegratorKind integrator = IntegratorKind::RungeKutta4;
  bool project = false;
  double duration = 0.0;  // 0: the scenario's own duration
  double dt = 1.0 / 240.0;
};
Options options;

void simulate(benchmark::State& state, BenchModel (*build)(int), double duration, SolverKind solver) {
  const int size = static_cast<int>(state.range(0));
  for (auto _ : state) {
    BenchModel bench = build(size);
    SimulationSettings settings;
    settings.dt = options.dt;
    settings.integrator = options.integrator;
    settings.solver.kind = solver;
    settings.projection.enabled = options.project;
    Simulator simulator(bench.model, settings);
    RunStatistics stats(simulator.diagnostics());
    const auto steps = static_cast<long>(std::lround((options.duration > 0.0 ? options.duration : duration) / settings.dt));
    const auto start = std::chrono::steady_clock::now();
    long done = 0;
    try {
      for (; done < steps; ++done) {
        simulator.step();
        stats.add(simulator.diagnostics());
      }
    } catch (const SimulationError& e) {
      // Keep the measurement of the steps that ran; simulated_s tells how far the run got.
      std::fprintf(stderr, "%s/%d: %s\n", std::string(solverName(solver)).c_str(), size, e.what());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(seconds);
    state.counters["simulated_s"] = simulator.model().time();
    state.counters["ms_per_step"] = done > 0 ? 1e3 * seconds / static_cast<double>(done) : 0.0;
    state.counters["C_over_L"] = stats.constraintErrorFinal / bench.rodLength;
    state.counters["C_max_over_L"] = stats.constraintErrorMax / bench.rodLength;
    state.counters["energy_drift"] = stats.energyDriftMax;
    state.counters["iters_per_solve"] = stats.iterationsPerSolve();
  }
}

void registerScenario(const char* name, BenchModel (*build)(int), double duration,
                      std::initializer_list<long> sizes) {
  for (SolverKind solver : {SolverKind::ConjugateGradient, SolverKind::SparseLdlt}) {
    const std::string label = std::string(name) + "/" + std::string(solverName(solver));
    auto* b = benchmark::RegisterBenchmark(label.c_str(), simulate, build, duration, solver);
    for (long size : sizes) b->Arg(size);
    b->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
  }
}

double positiveSeconds(const std::string& flag, const std::string& value) {
  double x = 0.0;
  std::size_t used = 0;
  try {
    x = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(x) || x <= 0.0) {
    throw std::invalid_argument(flag + ": expected a positive number of seconds, got '" + value + "'");
  }
  return x;
}

// Strips our own flags before Google Benchmark sees the rest.
void parseOwnFlags(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--project") {
      options.project = true;
    } else if (arg.rfind("--duration=", 0) == 0) {
      options.duration = positiveSeconds("--duration", arg.substr(std::strlen("--duration=")));
    } else if (arg.rfind("--dt=", 0) == 0) {
      options.dt = positiveSeconds("--dt", arg.substr(std::strlen("--dt=")));
    } else if (arg.rfind("--integrator=", 0) == 0) {
      const std::string name = arg.substr(std::strlen("--integrator="));
      const auto kind = parseIntegrator(name);
      if (!kind) throw std::invalid_argument("--integrator: unknown integrator '" + name + "'");
      options.integrator = *kind;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
}

}  // namespace
}  // namespace tinkertoy::bench

int main(int argc, char** argv) {
  using namespace tinkertoy::bench;
  try {
    parseOwnFlags(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  registerScenario("chain", chainModel, 10.0, {10, 100, 1000, 10000});
  registerScenario("cloth", clothModel, 5.0, {16, 32, 64});
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::AddCustomContext("integrator", std::string(tinkertoy::integratorName(options.integrator)));
  benchmark::AddCustomContext("projection", options.project ? "on" : "off");
  benchmark::AddCustomContext("dt", std::to_string(options.dt));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
