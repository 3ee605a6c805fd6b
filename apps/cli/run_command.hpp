// `tinkertoy run`: simulate a scene, print a summary, optionally write a trajectory CSV and
// a summary JSON.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "scene_run.hpp"

namespace tinkertoy::cli {

struct RunOptions {
  std::string scene;
  SimulationFlags simulation;
  bool progress = false;   // draw a progress bar on stderr
  std::string trajectory;  // CSV path, empty for none
  long every = 1;          // record every N-th step
  std::string summary;     // JSON path, empty for none
  std::string saveState;   // state file to save (Simulator::saveState), empty for none
  std::optional<double> saveAt;  // simulated time, s, of the step it is saved after (default: the end)
  std::string resume;      // state file to continue from, empty to start at the scene's state
};

int runScene(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
