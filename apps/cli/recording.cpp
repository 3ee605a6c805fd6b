// One simulation run sampled into pictures and trails (recording.hpp).
#include "recording.hpp"

namespace tinkertoy::cli {

namespace {

// Appends the current position of every point mass, then of every rigid body, to the trails.
void extendTrails(const Sketch& sketch, double time, std::vector<Trail>& trails) {
  trails.resize(sketch.dots.size() + sketch.shapes.size());
  std::size_t i = 0;
  const auto add = [&](const Eigen::Vector2d& p) {
    trails[i].times.push_back(time);
    trails[i].points.push_back(p);
    ++i;
  };
  for (const SketchDot& dot : sketch.dots) add(dot.at);
  for (const SketchShape& shape : sketch.shapes) add(shape.center);
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

Recording record(SceneRun& run, std::span<const double> times, double end, const RecordingOptions& options,
                 ProgressBar& progress) {
  Model& model = run.scene.model;
  Simulator& simulator = run.simulator;
  const double dt = run.scene.settings.dt;
  const SketchOptions sketchOptions{.constraintForces = options.constraintForces};
  Recording recording;
  std::size_t next = 0;  // the next frame to keep
  double nextTrailTime = 0.0;
  // Keeps the frames due at the current state: a frame shows the first step at or after its
  // time, where `run --duration time` would stop (the same rounding as stepsToReach).
  const auto sample = [&] {
    const double now = model.time();
    while (next < times.size() && times[next] <= now + 1e-9 * dt) {
      recording.frames.push_back({now, sketch(model, &simulator, sketchOptions)});
      ++next;
    }
    if (options.trails && now >= nextTrailTime - 0.5 * dt) {
      extendTrails(sketch(model, &simulator), now, recording.trails);
      nextTrailTime = now + options.trailInterval;
    }
  };
  sample();
  const std::uint64_t steps = stepsToReach(end, dt);
  try {
    for (std::uint64_t i = 1; i <= steps; ++i) {
      simulator.step();
      sample();
      progress.update(i, model.time());
    }
  } catch (const SimulationError& e) {
    recording.failure = e.what();
  }
  progress.finish();
  return recording;
}

}  // namespace tinkertoy::cli
