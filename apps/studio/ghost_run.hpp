// GhostRun: the Studio's compare mode — the model run a second time, from the state it had when
// the comparison started, under other settings flags ("--ks 100 --kd 2", "--formulation
// velocity", as `tinkertoy compare --b` takes them). It follows the first run's clock, is drawn
// over it as a ghost, and keeps its own energy and ‖C‖∞ history for the plots and its own
// cost for the one-line table. With --spring-for, rods become springs, and their stretch counts
// in the ghost's ‖C‖∞: how far it is off the rods it no longer has.
//
//   GhostRun ghost = GhostRun::start(document.text(), "--integrator euler --no-project");  // throws
//   ghost.advanceTo(model.time());
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "session.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::studio {

class GhostRun {
 public:
  // The scene `text` (the live model, as Document::text() writes it) run under `flags`. Throws
  // std::invalid_argument with "--ghost '…': why" for flags that do not parse or settings that
  // do not fit the model.
  static std::unique_ptr<GhostRun> start(const std::string& text, const std::string& flags);

  // Steps until the ghost's time reaches `time` (whole steps of its dt), unless it blew up.
  void advanceTo(double time);

  [[nodiscard]] const std::string& flags() const { return flags_; }
  [[nodiscard]] const Scene& scene() const { return scene_; }
  [[nodiscard]] Simulator& simulator() { return *simulator_; }
  [[nodiscard]] const std::deque<HistorySample>& history() const { return history_; }
  // Steps taken and the CPU time they took, s.
  [[nodiscard]] long steps() const { return steps_; }
  [[nodiscard]] double seconds() const { return seconds_; }
  // Why the ghost stopped (a blow-up), "" while it runs.
  [[nodiscard]] const std::string& error() const { return error_; }
  // Whether --spring-for made rods springs, whose stretch the ghost's ‖C‖∞ then counts.
  [[nodiscard]] bool replacesRods() const { return !rodSprings_.empty(); }

 private:
  GhostRun(Scene scene, std::string flags);
  void record();

  Scene scene_;
  std::unique_ptr<Simulator> simulator_;
  std::vector<ForceId> rodSprings_;  // the springs --spring-for put in place of rods
  std::string flags_;
  std::deque<HistorySample> history_;
  WorkLedger work_;
  long steps_ = 0;
  double seconds_ = 0.0;
  std::string error_;
};

}  // namespace tinkertoy::studio
