#include "ghost_run.hpp"

#include <algorithm>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "scene_run.hpp"
#include "tinkertoy/model/spring_for_rod.hpp"

namespace tinkertoy::studio {

namespace {

constexpr std::size_t kHistoryLength = 3600;  // samples, as the first run's plots keep

}  // namespace

GhostRun::GhostRun(Scene scene, std::string flags) : scene_(std::move(scene)), flags_(std::move(flags)) {
  simulator_ = std::make_unique<Simulator>(scene_.model, scene_.settings);
  simulator_->refreshDiagnostics();
  record();
}

std::unique_ptr<GhostRun> GhostRun::start(const std::string& text, const std::string& flags) {
  std::ostringstream problem;
  const std::optional<cli::SimulationFlags> parsed = cli::parseFlagText("--ghost", flags, problem);
  if (!parsed) {
    std::string message = problem.str();
    if (message.rfind("error: ", 0) == 0) message.erase(0, 7);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw std::invalid_argument(message);
  }
  try {
    Scene scene = parseScene(text, "<ghost>", [&parsed](SimulationSettings& s) { cli::applyFlags(*parsed, s); });
    std::vector<ForceId> springs = cli::applySceneFlags(*parsed, scene);
    auto ghost = std::unique_ptr<GhostRun>(new GhostRun(std::move(scene), flags));
    ghost->rodSprings_ = std::move(springs);
    ghost->history_.clear();  // the first sample again, with the springs known
    ghost->record();
    return ghost;
  } catch (const std::exception& e) {
    throw std::invalid_argument("--ghost '" + flags + "': " + e.what());
  }
}

void GhostRun::advanceTo(double time) {
  const double dt = scene_.settings.dt;
  const std::clock_t start = std::clock();
  while (error_.empty() && scene_.model.time() + 0.5 * dt < time) {
    try {
      simulator_->step();
    } catch (const std::exception& e) {
      error_ = e.what();
      break;
    }
    ++steps_;
    work_ += simulator_->diagnostics().work;
    record();
  }
  seconds_ += static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

void GhostRun::record() {
  const StepDiagnostics& d = simulator_->diagnostics();
  // Rods made springs count by their stretch: the ghost is that far off its rods.
  const double offRods = std::max(d.constraintError, largestStretch(scene_.model, rodSprings_));
  history_.push_back({scene_.model.time(), d.kineticEnergy, d.potentialEnergy, d.totalEnergy(), offRods, work_.total()});
  if (history_.size() > kHistoryLength) history_.pop_front();
}

}  // namespace tinkertoy::studio
