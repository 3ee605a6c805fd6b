// `tinkertoy plot`: energies and constraint errors against time, drawn by gnuplot (driven
// through a pipe) from a scene it simulates or from a trajectory CSV, as SVG, PNG or PDF.
//
// Panels (--what, stacked top to bottom in the order given):
//   energy            kinetic K, potential V and total E = K + V, J
//   energy-drift      E(t) − E(0), the work ledger's W(t) and E(t) − E(0) − W(t), J
//   constraint-error  ‖C‖∞ on a log scale
//   velocity-error    ‖Ċ‖∞ on a log scale
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "flag_checks.hpp"
#include "scene_run.hpp"

namespace tinkertoy::cli {

struct PlotOptions {
  std::string input;  // a scene (JSON) or a trajectory (.csv)
  SimulationFlags simulation;
  std::string output;
  std::vector<std::string> what{"energy", "constraint-error"};
  PixelSize size{900, 600};
  bool progress = false;
};

// The panel names --what accepts.
inline const std::vector<std::string> kPlotPanels = {"energy", "energy-drift", "constraint-error", "velocity-error"};

int plotSeries(const PlotOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
