// Recording: what `tinkertoy render` draws, gathered in one simulation run. The simulation
// steps at its own dt; a picture (a Sketch) is kept at each requested time, showing the first
// step at or after it (the state `run --duration time` ends in), so rendering never changes
// the physics. Trails keep the paths of every point mass and rigid body, or of chosen body
// points, at a fine, fixed interval of simulated time.
#pragma once

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

#include "progress_bar.hpp"
#include "scene_run.hpp"
#include "tinkertoy/view/sketch.hpp"

namespace tinkertoy::cli {

struct Frame {
  double time = 0.0;  // s, the simulated time of the state shown
  Sketch sketch;
  std::vector<Eigen::Vector2d> trailEnds;  // where each trail is at this frame (with trails)
};

// A point's path: positions at increasing simulated times.
struct Trail {
  BodyId body;  // whose point it is
  std::vector<double> times;
  std::vector<Eigen::Vector2d> points;
};

// What a picture frames: `bounds`, and the bodies left out of them because they left the
// model's neighbourhood for good.
struct Framing {
  Bounds bounds;
  std::vector<BodyId> departed;
};

struct Recording {
  std::vector<Frame> frames;
  // One per traced point, or else one per point mass (Sketch::dots), then per rigid body (its
  // origin, Sketch::shapes).
  std::vector<Trail> trails;
  std::string failure;        // the simulation's error when it blew up before the last frame; else empty
  Bounds start;               // what the picture of the model at the start covers

  // Everything any frame or trail covers.
  [[nodiscard]] Bounds bounds() const;
  // The bounds to frame. A body that ends outside the neighbourhood of the start (the square
  // about the start's centre whose side is kNeighbourhood × the start's longest side, at least
  // 1 m) has left for good: when part of the model stays, the picture frames the part that
  // stays (the bounds clipped to the neighbourhood) and names the bodies that left. When
  // everything leaves (a thrown particle), the motion is the subject: all of it is framed.
  [[nodiscard]] Framing framing() const;
  static constexpr double kNeighbourhood = 4.0;
};

// What a recording holds in memory is bounded (docs/rendering.md, "Limits"): its frames at most
// kMaxFrameMarks marks in all (frames × Sketch::markCount(), about 1 GB), its trails at most
// kMaxTrailPoints points in all: a run too long for trailInterval keeps its trail points further
// apart, evenly in steps.
inline constexpr std::size_t kMaxFrameMarks = 10'000'000;
inline constexpr std::size_t kMaxTrailPoints = 10'000'000;
// "" when `frames` pictures of the model as it is now fit within kMaxFrameMarks, else why not.
std::string checkFrameMemory(const Sketch& now, double frames);

struct RecordingOptions {
  SketchOptions sketch;  // what the frames show (constraint forces) and from where (front for 2D)
  bool trails = false;
  std::vector<BodyPoint> traced;       // the points whose trails to keep (with `trails`); none: all
  double trailInterval = 1.0 / 240.0;  // s of simulated time between trail points, at least
  std::size_t maxTrailPoints = kMaxTrailPoints;  // in all the trails
};

// Steps `run` until `end` (s), keeping a frame at each of `times` (ascending, ≤ end). On a
// blow-up the recording stops at the last good state and says why in `failure`.
Recording record(SceneRun& run, std::span<const double> times, double end, const RecordingOptions& options,
                 ProgressBar& progress);

}  // namespace tinkertoy::cli
