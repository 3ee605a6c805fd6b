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
};

int runScene(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
