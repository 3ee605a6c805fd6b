// The direct solve's factorizations on the matrices of the benchmark scenarios: J W Jᵀ of each
// model at its starting state (with 1e-9 diag(A) added, as the exact mode regularizes the
// redundant joint grid), one numeric factorization per iteration. Counters:
//   rows             m, the constraint rows
//   mflop            the factorization's flop count from its symbolic analysis (with assembly)
//   solve_ms         CPU milliseconds of one solve with the factors
// Registered as factorize/<kind>/<scenario>, e.g. factorize/supernodal/joint_grid-100.
#include "factorization_bench.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <stdexcept>

#include "bench_models.hpp"
#include "tinkertoy/solvers/direct_solver.hpp"

namespace tinkertoy::bench {

namespace {

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void factorize(benchmark::State& state, const std::string& name, FactorizationKind kind) {
  const Scenario scenario = scenarioByName(name).value();
  const Model model = tinkertoyModel(scenario);
  const StateConstraintMatrix matrix(model);
  const ConstraintMatrix& A = matrix.matrix();
  const std::unique_ptr<Factorization> f = makeFactorization(kind, A);
  try {
    f->analyze(A);  // the tree factorization refuses a grid's many loops
  } catch (const std::invalid_argument& e) {
    state.SkipWithError(e.what());
    return;
  }
  for (auto _ : state) f->factorize(A);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(A.size());
  constexpr int kSolves = 20;
  const double start = cpuSeconds();
  for (int i = 0; i < kSolves; ++i) f->solveInPlace(x);
  state.counters["solve_ms"] = 1e3 * (cpuSeconds() - start) / kSolves;
  state.counters["rows"] = static_cast<double>(A.size());
  state.counters["mflop"] = 1e-6 * f->cost().factorize;
}

}  // namespace

void registerFactorizations() {
  const std::vector<std::string> scenarios{"chain-1000", "chain-10000", "tree-12", "star-1000",
                                           "cloth-32",   "cloth-64",    "joint_grid-32", "joint_grid-100"};
  for (const FactorizationKind kind : {FactorizationKind::Simplicial, FactorizationKind::Supernodal, FactorizationKind::Tree}) {
    for (const std::string& name : scenarios) {
      const std::string label = "factorize/" + std::string(factorizationName(kind)) + "/" + name;
      benchmark::RegisterBenchmark(label.c_str(), factorize, name, kind)->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace tinkertoy::bench
