// One simulation run sampled into pictures and trails (recording.hpp).
#include "recording.hpp"

#include <algorithm>
#include <sstream>

namespace tinkertoy::cli {

namespace {

// A trailed point now: its body and where it is on the picture.
struct TrailPoint {
  BodyId body;
  Eigen::Vector2d at;
};

// The traced points, or else every point mass, then every rigid body's origin.
std::vector<TrailPoint> trailPoints(const Model& model, const RecordingOptions& options) {
  std::vector<TrailPoint> points;
  if (!options.traced.empty()) {
    for (const BodyPoint& p : options.traced) points.push_back({p.body, options.sketch.view.toPicture(model.position(p))});
    return points;
  }
  const Sketch now = sketch(model, nullptr, {.view = options.sketch.view});
  for (const SketchDot& dot : now.dots) points.push_back({dot.point.body, dot.at});
  for (const SketchShape& shape : now.shapes) points.push_back({shape.body, shape.center});
  return points;
}

std::vector<Eigen::Vector2d> trailEnds(const Model& model, const RecordingOptions& options) {
  std::vector<Eigen::Vector2d> ends;
  if (options.trails) {
    for (const TrailPoint& p : trailPoints(model, options)) ends.push_back(p.at);
  }
  return ends;
}

}  // namespace

Bounds Recording::bounds() const {
  Bounds all;
  for (const Frame& frame : frames) all.add(frame.sketch.bounds());
  for (const Trail& trail : trails) {
    for (const Eigen::Vector2d& p : trail.points) all.add(p);
  }
  return all;
}

Framing Recording::framing() const {
  Framing framing{.bounds = bounds()};
  if (frames.empty() || start.empty()) return framing;
  Bounds near;
  near.add(start.center(), 0.5 * kNeighbourhood * std::max(start.size().maxCoeff(), 1.0));
  bool anyStays = false;
  const auto classify = [&](BodyId body, const Eigen::Vector2d& at) {
    if (near.contains(at)) {
      anyStays = true;
    } else if (std::find(framing.departed.begin(), framing.departed.end(), body) == framing.departed.end()) {
      framing.departed.push_back(body);
    }
  };
  const Sketch& last = frames.back().sketch;
  for (const SketchDot& dot : last.dots) classify(dot.point.body, dot.at);
  for (const SketchShape& shape : last.shapes) classify(shape.body, shape.center);
  if (framing.departed.empty() || !anyStays) {
    framing.departed.clear();
    return framing;
  }
  framing.bounds = Bounds{};
  for (const Frame& frame : frames) framing.bounds.add(frame.sketch.boundsWithin(near));
  // The paths of the bodies that stay (the departed ones' starts are theirs to leave).
  for (const Trail& trail : trails) {
    if (std::find(framing.departed.begin(), framing.departed.end(), trail.body) != framing.departed.end()) continue;
    for (const Eigen::Vector2d& p : trail.points) framing.bounds.addWithin(p, near);
  }
  return framing;
}

std::string checkFrameMemory(const Sketch& now, double frames) {
  const std::size_t marks = std::max<std::size_t>(1, now.markCount());
  if (frames <= static_cast<double>(kMaxFrameMarks / marks)) return {};
  std::ostringstream reason;
  reason << frames << " pictures of " << marks << " marks each are more than the " << kMaxFrameMarks
         << " marks a recording holds in memory; at most " << kMaxFrameMarks / marks << " pictures of this model fit";
  return reason.str();
}

Recording record(SceneRun& run, std::span<const double> times, double end, const RecordingOptions& options,
                 ProgressBar& progress) {
  const Model& model = run.scene.model;
  const double dt = run.scene.settings.dt;
  // Frames and trail points are taken by step number, not by comparing sums of dt, which
  // drift: frame j shows step stepsToReach(times[j], dt), where `run --duration` would stop.
  const std::uint64_t steps = stepsToReach(end, dt);
  const std::uint64_t trailCount = options.trails ? trailPoints(model, options).size() : 0;
  const std::uint64_t trailEvery = std::max({std::uint64_t{1}, static_cast<std::uint64_t>(std::lround(options.trailInterval / dt)),
                                             (steps * trailCount + options.maxTrailPoints - 1) / options.maxTrailPoints});
  Recording recording;
  std::size_t next = 0;  // the next frame to keep
  const auto sample = [&](std::uint64_t step) {
    while (next < times.size() && stepsToReach(times[next], dt) <= step) {
      recording.frames.push_back({model.time(), sketch(model, &run.simulator, options.sketch),
                                  trailEnds(model, options)});
      ++next;
    }
    if (options.trails && step % trailEvery == 0) {
      const std::vector<TrailPoint> points = trailPoints(model, options);
      recording.trails.resize(points.size());
      for (std::size_t i = 0; i < points.size(); ++i) {
        recording.trails[i].body = points[i].body;
        recording.trails[i].times.push_back(model.time());
        recording.trails[i].points.push_back(points[i].at);
      }
    }
  };
  recording.start = sketch(model, nullptr, {.view = options.sketch.view}).bounds();
  sample(0);
  recording.failure = stepScene(run, steps, progress, sample);
  return recording;
}

}  // namespace tinkertoy::cli
