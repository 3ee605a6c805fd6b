#include "tinkertoy/dynamics/work_ledger.hpp"

#include "tinkertoy/archive/state_archive.hpp"

#include <numeric>

namespace tinkertoy {

double WorkLedger::total() const { return std::accumulate(work.begin(), work.end(), 0.0); }

WorkLedger& WorkLedger::operator+=(const WorkLedger& other) {
  for (std::size_t s = 0; s < kWorkSources; ++s) work[s] += other.work[s];
  return *this;
}

WorkLedger& WorkLedger::operator-=(const WorkLedger& other) {
  for (std::size_t s = 0; s < kWorkSources; ++s) work[s] -= other.work[s];
  return *this;
}

WorkLedger WorkLedger::trapezoid(const WorkLedger& start, const WorkLedger& end, double h) {
  WorkLedger result;
  for (std::size_t s = 0; s < kWorkSources; ++s) result.work[s] = 0.5 * h * (start.work[s] + end.work[s]);
  return result;
}

void WorkLedger::serialize(StateArchive& archive) {
  for (double& w : work) archive.number(w);
}

}  // namespace tinkertoy
