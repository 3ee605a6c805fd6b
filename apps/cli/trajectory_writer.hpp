// TrajectoryWriter: one CSV row per recorded step.
//
// Columns: time, step k's t0 + k·dt (exact to the printed digits; the model's own clock is a
// running sum of dt, which drifts: 0.1 added ten times is 0.9999999999999999); then for every particle <id>.x, <id>.y[, <id>.z], <id>.vx, <id>.vy[, <id>.vz];
// for every rigid body <id>.x, <id>.y, <id>.angle, <id>.vx, <id>.vy, <id>.angular_velocity;
// for every other body its coordinates <id>.u0, <id>.u1, …, their rates <id>.u_dot0, …, and
// the world positions of its points <id>.p0.x, <id>.p0.y[, <id>.p0.z], <id>.p1.x, …; then
// kinetic_energy, potential_energy, total_energy, constraint_error (‖C‖∞), velocity_error
// (‖Ċ‖∞) and work, the work ledger's total since the start (so total_energy − its first value −
// work is the numerical error). Numbers are written with 17 significant digits; a column name
// whose id holds a comma, a double quote or a line break is quoted as RFC 4180 says (csv.hpp).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tinkertoy/dynamics/simulator.hpp"

namespace tinkertoy::cli {

class TrajectoryWriter {
 public:
  // Writes to `path` (named `shownAs` in messages). Throws std::runtime_error if the file cannot
  // be created.
  TrajectoryWriter(const std::filesystem::path& path, const std::string& shownAs, const Model& model);
  // One row of the model at `time`, s, with the ledger's total `work` since the start, J.
  void write(const Model& model, const StepDiagnostics& diagnostics, double time, double work);
  // Flushes and closes the file: "" if every row was written, else why not.
  [[nodiscard]] std::string finish();

 private:
  std::ofstream out_;
  std::string name_;
  std::vector<char> posed_;  // by body: its coordinates say all (a particle's position, a rigid body's pose)
};

}  // namespace tinkertoy::cli
