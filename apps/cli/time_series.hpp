// TimeSeries: the quantities `tinkertoy plot` draws, sampled over simulated time, from a
// trajectory CSV (`run --trajectory`) or from simulating a scene.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "progress_bar.hpp"
#include "scene_run.hpp"

namespace tinkertoy::cli {

struct TimeSeries {
  std::vector<double> time;             // s
  std::vector<double> kinetic;          // K, J
  std::vector<double> potential;        // V, J
  std::vector<double> total;            // E = K + V, J
  std::vector<double> constraintError;  // ‖C‖∞
  std::vector<double> velocityError;    // ‖Ċ‖∞
  std::vector<double> work;             // the work ledger's total since the start, J

  [[nodiscard]] std::size_t size() const { return time.size(); }
  // A sample of the state `d` measured, with the ledger's total `work` by then.
  void add(double t, const StepDiagnostics& d, double work);
};

// The columns a trajectory CSV must have for `plot`.
inline constexpr const char* kSeriesColumns[] = {"time", "kinetic_energy", "potential_energy", "total_energy",
                                                 "constraint_error", "velocity_error", "work"};

// The most a trajectory CSV given to `plot` may hold: 10 million rows (`run --every` thins a
// longer run), so that an endless or runaway file (a FIFO fed forever) is refused, not read until
// memory runs out.
inline constexpr std::size_t kMaxTrajectoryRows = 10'000'000;

// Reads a trajectory CSV. Throws std::runtime_error "FILE:LINE: reason" for a missing column, a
// value that is not a finite number, a ragged row, a file with no rows or with more than
// `maxRows` (kMaxTrajectoryRows; a test passes fewer).
TimeSeries readTrajectory(const std::filesystem::path& file, std::size_t maxRows = kMaxTrajectoryRows);

// Simulates `run` to the scene's duration, keeping the initial state, every k-th step so that
// there are at most `maxSamples` samples, and the last step. A blow-up ends the series at the
// last good state and leaves the simulation's message in `failure`.
TimeSeries simulateSeries(SceneRun& run, std::size_t maxSamples, ProgressBar& progress, std::string& failure);

}  // namespace tinkertoy::cli
