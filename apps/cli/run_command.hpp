// `tinkertoy run`: simulate a scene, print a summary, optionally write a trajectory CSV and
// a summary JSON.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "tinkertoy/dynamics/simulation_settings.hpp"

namespace tinkertoy::cli {

// Command-line overrides; an empty optional keeps the scene's setting.
struct RunOptions {
  std::string scene;
  std::optional<double> duration, dt, ks, kd, tolerance, regularization;
  std::optional<int> maxIterations, iterations, substeps;
  std::optional<FormulationKind> formulation;
  std::optional<IntegratorKind> integrator;
  std::optional<SolverKind> solver;
  std::optional<PositionCorrection> positionCorrection;
  bool project = false;
  std::string trajectory;  // CSV path, empty for none
  long every = 1;          // record every N-th step
  std::string summary;     // JSON path, empty for none
};

int runScene(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
