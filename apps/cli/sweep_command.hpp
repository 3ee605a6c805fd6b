// `tinkertoy sweep`: a scene run once per combination of parameter values, one CSV row per case,
// for people without Python (the Python package's tinkertoy.sweep does the same on Dask).
//
//   tinkertoy sweep scenes/four_bar.json --set bodies[1].mass=0.5,1,2 --set settings.dt=1e-3,5e-4 -o results.csv
//
// Each --set PATH=V1,V2,... is an axis; the cases are every combination, the last axis varying
// fastest, numbered from 0 in that order. Each value is JSON (a number, true, [0, 1]); a value that
// is not JSON is a string (--set settings.solver=cg,ldlt). --shard I/N runs only the cases whose
// number is I modulo N, so N machines (GNU parallel, a Slurm job array) split one sweep and the
// parts' rows, concatenated, are the whole sweep's.
//
// A case that fails (a value the scene rejects, a blow-up) is a row with its message in "error",
// and the others still run; the exit code is then 3. A malformed --set, a path the scene does not
// have, or a bad scene stop the command before it runs anything (exit code 2).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "scene_run.hpp"

namespace tinkertoy::cli {

struct SweepOptions {
  std::string scene;
  std::vector<std::string> sets;  // "PATH=V1,V2,...", one per axis
  std::string output;             // the CSV
  long shardIndex = 0;            // run the cases whose number is shardIndex modulo shardCount
  long shardCount = 1;
  SimulationFlags simulation;
  bool progress = false;  // draw a progress bar over the cases on stderr
};

// "I/N" with 0 ≤ I < N as {I, N}; throws std::invalid_argument saying why not.
std::pair<long, long> parseShard(const std::string& text);

int sweepScene(const SweepOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
