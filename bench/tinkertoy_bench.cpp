// tinkertoy-bench: chain-N, cloth-G and joint_grid-N with each solver, the factorizations,
// loading at scale, a shipped scene's bare step loop, what a formula costs, and a pile awake and
// asleep (bench/RESULTS.md).
//
// Each benchmark simulates the whole scenario once and reports, besides the wall time:
//   ms_per_step      wall milliseconds per step, over the steps that ran
//   C_over_L         final ‖C‖∞ divided by the rod length (the grid spacing for joint_grid)
//   C_max_over_L     largest ‖C‖∞ over the run, divided by the same
//   energy_drift     max over steps of |E(t) − E(0)|, J
//   iters_per_solve  mean solver iterations per linear solve (1 for a fresh factorization; the
//                    pass count for sequential impulses)
//   solves_per_step, factorizations_per_step, projection_iterations_per_step
//                    linear solves, numeric factorizations and projection (Gauss–Newton)
//                    iterations per step
//   simulated_s      simulated time reached: less than the scenario's duration if it blew up
//                    (the blow-up message goes to stderr; the other counters cover the steps run)
//
// chain and cloth run with the formulation chosen on the command line, with cg and ldlt at the
// acceleration level or sequential and ldlt (a global solve) at the velocity level. joint_grid
// is Box2D's velocity-level benchmark: dt = 1/60 s, 4 substeps, sequential impulses at several
// iteration counts and the global solve, with Baumgarte correction as Box2D has.
//
// Usage: tinkertoy-bench [--benchmark_filter=REGEX] [--formulation=acceleration|velocity]
//                       [--integrator=rk4|...] [--project] [--correction=none|baumgarte|projection]
//                       [--iterations=N] [--substeps=N] [--duration=S] [--dt=H]
//   --duration=S  simulate S seconds instead of each scenario's own duration
//   --dt=H        step size for chain and cloth instead of 1/240 s
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_models.hpp"
#include "factorization_bench.hpp"
#include "formula_bench.hpp"
#include "load_bench.hpp"
#include "scene_step_bench.hpp"
#include "sleep_bench.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy::bench {
namespace {

// The scenarios measure the integrator and the solve alone, so projection (the library's
// default) is off unless --project turns it on.
SimulationSettings benchDefaults() {
  SimulationSettings s{.dt = 1.0 / 240.0};
  s.projection.enabled = false;
  return s;
}

struct Options {
  SimulationSettings settings = benchDefaults();
  double duration = 0.0;  // 0: the scenario's own duration
};
Options options;

// A family of scenarios (bench/scenario.hpp) by the name before its size: "chain", "cloth",
// "joint_grid".
void simulate(benchmark::State& state, const std::string& family, SimulationSettings settings) {
  const int size = static_cast<int>(state.range(0));
  for (auto _ : state) {
    const Scenario scenario = scenarioByName(family + "-" + std::to_string(size)).value();
    Model model = tinkertoyModel(scenario);
    Simulator simulator(model, settings);
    RunStatistics stats(simulator.diagnostics());
    const double duration = options.duration > 0.0 ? options.duration : scenario.duration;
    const auto steps = static_cast<long>(std::lround(duration / settings.dt));
    const auto start = std::chrono::steady_clock::now();
    long done = 0;
    try {
      for (; done < steps; ++done) {
        simulator.step();
        stats.add(simulator.diagnostics());
      }
    } catch (const SimulationError& e) {
      // Keep the measurement of the steps that ran; simulated_s tells how far the run got.
      std::fprintf(stderr, "%s: %s\n", scenario.name.c_str(), e.what());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(seconds);
    state.counters["simulated_s"] = simulator.model().time();
    state.counters["ms_per_step"] = done > 0 ? 1e3 * seconds / static_cast<double>(done) : 0.0;
    state.counters["C_over_L"] = stats.constraintErrorFinal / scenario.length;
    state.counters["C_max_over_L"] = stats.constraintErrorMax / scenario.length;
    state.counters["energy_drift"] = stats.energyDriftMax;
    state.counters["iters_per_solve"] = stats.iterationsPerSolve();
    state.counters["solves_per_step"] = stats.steps > 0 ? static_cast<double>(stats.solves) / static_cast<double>(stats.steps) : 0.0;
    state.counters["factorizations_per_step"] = stats.factorizationsPerStep();
    state.counters["projection_iterations_per_step"] =
        stats.steps > 0 ? static_cast<double>(stats.projectionIterations) / static_cast<double>(stats.steps) : 0.0;
  }
}

void registerVariant(const std::string& family, const std::string& variant, const SimulationSettings& settings,
                     std::initializer_list<long> sizes) {
  const std::string label = family + "/" + variant;
  auto* b = benchmark::RegisterBenchmark(label.c_str(), simulate, family, settings);
  for (long size : sizes) b->Arg(size);
  b->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
}

// chain and cloth: the command line's settings, with each solver its formulation offers.
void registerScenario(const std::string& family, std::initializer_list<long> sizes) {
  const bool velocity = options.settings.formulation == FormulationKind::Velocity;
  const auto solvers = velocity ? std::vector{SolverKind::SequentialImpulses, SolverKind::SparseLdlt}
                                : std::vector{SolverKind::ConjugateGradient, SolverKind::SparseLdlt};
  for (const SolverKind solver : solvers) {
    SimulationSettings settings = options.settings;
    settings.solver.kind = solver;
    registerVariant(family, std::string(solverName(solver)), settings, sizes);
  }
}

// Box2D's joint grid: 1/60 s, 4 substeps; sequential impulses with Baumgarte at 4, 8 and 16
// passes and with the soft step at 1 (Box2D v3's setting), 4 and 8, on one thread and (the
// sequential kernel sharing each colour) on two; and a regularized LDLT.
void registerJointGrid(std::initializer_list<long> sizes) {
  const std::string grid = "joint_grid";
  SimulationSettings settings{.dt = 1.0 / 60.0, .formulation = FormulationKind::Velocity};
  settings.velocity.substeps = 4;
  settings.solver.kind = SolverKind::SequentialImpulses;
  for (const int threads : {1, 2}) {
    const std::string suffix = threads == 1 ? "" : "-2threads";
    settings.threads = threads;
    settings.velocity.positionCorrection = PositionCorrection::Baumgarte;
    for (const int iterations : {4, 8, 16}) {
      if (threads == 2 && iterations == 16) continue;
      settings.velocity.iterations = iterations;
      registerVariant(grid, "sequential-" + std::to_string(iterations) + suffix, settings, sizes);
    }
    settings.velocity.positionCorrection = PositionCorrection::SoftStep;
    for (const int iterations : {1, 4, 8}) {
      settings.velocity.iterations = iterations;
      registerVariant(grid, "soft-" + std::to_string(iterations) + suffix, settings, sizes);
    }
  }
  settings.threads = 1;
  settings.velocity.positionCorrection = PositionCorrection::Baumgarte;
  settings.solver.kind = SolverKind::SparseLdlt;
  settings.solver.regularization = 1e-9;  // the grid has more pin rows than degrees of freedom
  registerVariant(grid, "ldlt", settings, sizes);
}

double positiveNumber(const std::string& flag, const std::string& value) {
  double x = 0.0;
  std::size_t used = 0;
  try {
    x = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(x) || x <= 0.0) {
    throw std::invalid_argument(flag + ": expected a positive number, got '" + value + "'");
  }
  return x;
}

int positiveInteger(const std::string& flag, const std::string& value) {
  const double x = positiveNumber(flag, value);
  if (x != std::floor(x) || x > 100000) throw std::invalid_argument(flag + ": expected a whole number, got '" + value + "'");
  return static_cast<int>(x);
}

// The value of "--name=value" if arg is that flag.
std::optional<std::string> flagValue(const std::string& arg, const char* name) {
  const std::string prefix = std::string(name) + "=";
  if (arg.rfind(prefix, 0) != 0) return std::nullopt;
  return arg.substr(prefix.size());
}

// Strips our own flags before Google Benchmark sees the rest.
void parseOwnFlags(int& argc, char** argv) {
  SimulationSettings& s = options.settings;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--project") {
      s.projection.enabled = true;
    } else if (const auto durationValue = flagValue(arg, "--duration")) {
      options.duration = positiveNumber("--duration", *durationValue);
    } else if (const auto dtValue = flagValue(arg, "--dt")) {
      s.dt = positiveNumber("--dt", *dtValue);
    } else if (const auto iterationsValue = flagValue(arg, "--iterations")) {
      s.velocity.iterations = positiveInteger("--iterations", *iterationsValue);
    } else if (const auto substepsValue = flagValue(arg, "--substeps")) {
      s.velocity.substeps = positiveInteger("--substeps", *substepsValue);
    } else if (const auto integratorValue = flagValue(arg, "--integrator")) {
      const auto kind = parseIntegrator(*integratorValue);
      if (!kind) throw std::invalid_argument("--integrator: unknown integrator '" + *integratorValue + "'");
      s.integrator = *kind;
    } else if (const auto formulationValue = flagValue(arg, "--formulation")) {
      const auto kind = parseFormulation(*formulationValue);
      if (!kind) throw std::invalid_argument("--formulation: expected acceleration or velocity, got '" + *formulationValue + "'");
      s.formulation = *kind;
    } else if (const auto correctionValue = flagValue(arg, "--correction")) {
      const auto kind = parsePositionCorrection(*correctionValue);
      if (!kind) throw std::invalid_argument("--correction: expected none, baumgarte or projection, got '" + *correctionValue + "'");
      s.velocity.positionCorrection = *kind;
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
  registerScenario("chain", {10, 100, 1000, 10000});
  registerScenario("cloth", {16, 32, 64});
  registerJointGrid({10, 32, 100});
  registerFactorizations();
  registerLoading();
  registerSceneSteps();
  registerSleepSteps();
  registerFormulas();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  const tinkertoy::SimulationSettings& s = options.settings;
  benchmark::AddCustomContext("formulation", std::string(tinkertoy::formulationName(s.formulation)));
  benchmark::AddCustomContext("integrator", std::string(tinkertoy::integratorName(s.integrator)));
  benchmark::AddCustomContext("projection", s.projection.enabled ? "on" : "off");
  benchmark::AddCustomContext("dt", std::to_string(s.dt));
  benchmark::AddCustomContext("velocity", std::to_string(s.velocity.iterations) + " iterations, " +
                                              std::to_string(s.velocity.substeps) + " substeps, " +
                                              std::string(tinkertoy::positionCorrectionName(s.velocity.positionCorrection)));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
