// ProgressBar: one line on stderr that a long command redraws in place, e.g.
//
//   simulating [##########----------]  50%  t = 5.00 s  182000 steps/s  ETA 1 s
//
// Drawn only when enabled (stderr is a terminal and --quiet was not given), at most ten
// times a second, and erased by finish() so the command's own output starts on a clean line.
// Its own terminal codes (return, erase line) go past the escaping of a PrintableStreambuf.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace tinkertoy::cli {

class ProgressBar {
 public:
  // `total` units of work (steps, frames), named by `unit`; `label` says what is being done.
  ProgressBar(std::ostream& err, bool enabled, std::string label, std::uint64_t total, std::string unit = "steps");
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // `done` units finished, at simulated time `time` (s; NaN leaves the time out).
  void update(std::uint64_t done, double time);
  // Erases the bar (once).
  void finish();

 private:
  void draw(std::uint64_t done, double time);

  std::ostream err_;  // stderr itself, under any PrintableStreambuf
  bool enabled_;
  std::string label_, unit_;
  std::uint64_t total_;
  std::chrono::steady_clock::time_point start_, lastDrawn_;
  bool drawn_ = false;
};

}  // namespace tinkertoy::cli
