// Session: the Studio's running simulation of the document's scene — play, pause, single
// steps, time scale, the mouse drag, and what the panels show over time (energy and ‖C‖∞
// history, trails, steps per second, the last blow-up).
//
// The simulator is rebuilt whenever the document's scene is replaced or its settings change,
// so edits and settings take effect live; the model keeps its state across the rebuild.
#pragma once

#include <Eigen/Core>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "document.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/view/bounds.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy::studio {

// The model's energy (a mouse spring's left out: the mouse does work on the model) and ‖C‖∞.
struct HistorySample {
  double time = 0.0;
  double kinetic = 0.0, potential = 0.0, total = 0.0;  // J
  double constraintError = 0.0;                        // ‖C‖∞
  double work = 0.0;  // the work ledger's total since the history began, J (dynamics/work_ledger.hpp)
};

class Session {
 public:
  explicit Session(Document& document);

  // Rebuilds the simulator if the document changed since the last call; if the model's time went
  // back (an edit mid-run restarts it at 0), the history is cleared.
  void sync();
  // Paused, with the history and trails forgotten: for a scene just opened, reset or undone.
  void restart();

  [[nodiscard]] bool playing() const { return playing_; }
  void setPlaying(bool playing);
  // Advances by frameSeconds × timeScale of simulated time, in whole steps of dt (the rest
  // carries over to the next frame). Unless `deterministic`, stops early when a frame's
  // stepping takes longer than a frame should, so the window stays responsive. The history
  // gets a sample when a step was taken, measured right after it.
  void advance(double frameSeconds, bool deterministic);
  // One step of dt, paused or not.
  void step();
  double timeScale = 1.0;

  // Pulling a body point toward the pointer while the simulation runs: a mouse joint at the
  // velocity level in 2D, tuned to the mechanism it pulls on (mouse_grip.hpp), else a mouse
  // spring tuned to the dragged body's mass.
  // `target`: a world point, [dimension].
  void beginDrag(const BodyPoint& point, const Eigen::VectorXd& target);
  void moveDrag(const Eigen::VectorXd& target);
  void endDrag();
  [[nodiscard]] bool dragging() const { return !std::holds_alternative<std::monostate>(drag_); }

  [[nodiscard]] Simulator& simulator() { return *simulator_; }
  [[nodiscard]] const std::deque<HistorySample>& history() const { return history_; }
  // The work ledger since the history began: what each source put in or took out, J.
  [[nodiscard]] const WorkLedger& work() const { return work_; }
  // Recent positions of each body's points (rigid bodies: their origin), by body dense index;
  // in 3D (a 2D point has z = 0), so a picture can show them from any side.
  [[nodiscard]] const std::vector<std::vector<std::deque<Eigen::Vector3d>>>& trails() const { return trails_; }
  // A point the user chose to trace: its body by name (an edit reloads the scene and renews the
  // ids) and its site, and its recent path. Traces last through edits, undo and reset, each of
  // which starts their paths afresh; a trace whose body is gone records nothing.
  struct Trace {
    std::string body;
    Site site;
    std::deque<Eigen::Vector3d> path;
  };
  // Starts tracing `point`, or stops if it is traced already; true if it is traced now.
  bool toggleTrace(const BodyPoint& point);
  // For another scene (opened, or a new canvas): no traces, and the time scale back to 1×.
  void forgetScene() {
    traces_.clear();
    timeScale = 1.0;
  }
  [[nodiscard]] const std::vector<Trace>& traces() const { return traces_; }
  // Where every recorded path (trails and traces) lies, seen through `view`: the motion so far.
  [[nodiscard]] Bounds pathBounds(const ViewDirection& view) const;
  // The last step's solver work, named by what it does: "cg: 12 iterations", or for the direct
  // solver its factorizations (and the iterations of solves that reused one, if any).
  [[nodiscard]] std::string solverReport() const;
  // Steps per second of wall time, over the last second.
  [[nodiscard]] double stepsPerSecond() const { return stepsPerSecond_; }
  // The message of the last blow-up (the simulation paused, keeping the last good state).
  [[nodiscard]] const std::string& error() const { return error_; }
  void clearError() { error_.clear(); }

 private:
  void record();
  void clearHistory();
  void countStep();
  // One step; a failure pauses and keeps its message. False if it failed.
  bool tryStep();

  Document& document_;
  std::uint64_t revision_ = 0;
  std::unique_ptr<Simulator> simulator_;
  bool playing_ = false;
  double carry_ = 0.0;  // simulated time owed to the next frame, s
  std::variant<std::monostate, ForceId, ConstraintId> drag_;
  std::deque<HistorySample> history_;
  WorkLedger work_;
  std::vector<std::vector<std::deque<Eigen::Vector3d>>> trails_;
  std::vector<Trace> traces_;
  std::string error_;
  std::deque<std::chrono::steady_clock::time_point> stepTimes_;
  double stepsPerSecond_ = 0.0;
};

}  // namespace tinkertoy::studio
