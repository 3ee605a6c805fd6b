// RunStatistics: a whole run summarized from its per-step diagnostics.
//
// The command line's --summary, the benchmarks and the tests all report these numbers, so
// they are computed in one place:
//
//   energyDriftMax       max over steps of |E(t) − E(0)|, J
//   work                 the work ledger: Σ over steps of each source's work, J (dynamics/work_ledger.hpp)
//   energyErrorMax       max over steps of |E(t) − E(0) − W(t)|, J: the numerical error, what
//                        the drift is once the ledger's sources are accounted for
//   constraintErrorMax   max over steps (including step 0) of ‖C‖∞
//   velocityErrorMax     max over steps (including step 0) of ‖Ċ‖∞
//   iterationsPerSolve   total solver iterations / total linear solves
//   factorizationsPerStep  numeric factorizations / steps (the direct solver reuses them)
//   unconvergedProjections steps whose position projection stopped short of its tolerance
//   residualMax          largest relative residual of any solve
//   adaptiveSteps, rejectedSteps   dopri5's own steps taken and rejected
//
//   RunStatistics stats(sim.diagnostics());
//   while (...) { sim.step(); stats.add(sim.diagnostics()); }
#pragma once

#include <cstdint>

#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy {

struct RunStatistics {
  explicit RunStatistics(const StepDiagnostics& initial);
  void add(const StepDiagnostics& step);

  std::uint64_t steps = 0;
  double energyInitial = 0.0;
  double energyFinal = 0.0;
  double energyDriftMax = 0.0;
  WorkLedger work;
  double energyErrorMax = 0.0;
  double constraintErrorMax = 0.0;
  double constraintErrorFinal = 0.0;
  double velocityErrorMax = 0.0;
  long solves = 0;
  long iterations = 0;
  long factorizations = 0;
  long projectionIterations = 0;
  long unconvergedProjections = 0;  // steps whose projection stopped above its tolerance
  long substepSplits = 0;           // substeps redone as halves for their projection to converge
  long adaptiveSteps = 0;           // dopri5's accepted steps
  long rejectedSteps = 0;           // and its rejected ones
  double residualMax = 0.0;
  int contactsMax = 0;          // the most contact points in a step
  double penetrationMax = 0.0;  // m, the deepest penetration a step started from
  int asleepFinal = 0;          // with sleep on: the bodies asleep after the last step

  [[nodiscard]] double iterationsPerSolve() const {
    return solves > 0 ? static_cast<double>(iterations) / static_cast<double>(solves) : 0.0;
  }
  [[nodiscard]] double factorizationsPerStep() const {
    return steps > 0 ? static_cast<double>(factorizations) / static_cast<double>(steps) : 0.0;
  }
};

}  // namespace tinkertoy
