// The blow-up criterion for a finite state (runaway_watch.hpp).
#include "tinkertoy/dynamics/runaway_watch.hpp"

#include <algorithm>
#include <cmath>

#include "tinkertoy/archive/state_archive.hpp"

namespace tinkertoy {

namespace {

// |T| + |V| + M (L / dt)²: the energy the model has, or could have if every body crossed it each step.
double energyScale(double kinetic, double potential, double mass, double size, double dt) {
  const double crossing = size / dt;  // m/s: the model's size in one step
  return std::abs(kinetic) + std::abs(potential) + mass * crossing * crossing;
}

}  // namespace

void RunawayWatch::restart(double kinetic, double potential, double mass, double size, double dt) {
  runScale_ = energyScale(kinetic, potential, mass, size, dt);
  rebase(kinetic, potential, mass, size, dt);  // S = the run's own, well inside the cap
}

void RunawayWatch::rebase(double kinetic, double potential, double mass, double size, double dt) {
  energy_ = kinetic + potential;
  scale_ = std::min(energyScale(kinetic, potential, mass, size, dt), kEditGrowth * runScale_);
  work_ = 0.0;
  absoluteWork_ = 0.0;
}

RunawayWatch::Verdict RunawayWatch::judge(double energy, const WorkLedger& stepWork) const {
  double absolute = absoluteWork_;
  for (const double w : stepWork.work) absolute += std::abs(w);
  Verdict verdict;
  verdict.error = energy - energy_ - (work_ + stepWork.total());
  verdict.scale = scale_ + absolute;
  verdict.runaway = scale_ > 0.0 && std::abs(verdict.error) > kFactor * verdict.scale;
  return verdict;
}

void RunawayWatch::commit(const WorkLedger& stepWork) {
  work_ += stepWork.total();
  for (const double w : stepWork.work) absoluteWork_ += std::abs(w);
}

void RunawayWatch::serialize(StateArchive& archive) {
  for (double* x : {&energy_, &scale_, &work_, &absoluteWork_, &runScale_}) archive.number(*x);
  if (archive.reading() && !(std::isfinite(energy_) && std::isfinite(scale_) && scale_ >= 0.0 && std::isfinite(work_) &&
                             std::isfinite(absoluteWork_) && absoluteWork_ >= 0.0 && std::isfinite(runScale_) &&
                             runScale_ >= 0.0)) {
    throw StateError("the state file holds a blow-up reference that is not finite");
  }
}

}  // namespace tinkertoy
