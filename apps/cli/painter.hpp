// Painter: draws a model's Sketch with cairo, in the style the Studio uses (view/style.hpp,
// view/strokes.hpp), onto any cairo surface: a PNG, SVG or PDF picture, or a video frame.
//
//   Painter painter(cr, camera, {.unit = 1.0});
//   painter.background();
//   painter.sketch(frame.sketch);
//   painter.legend("t = 2.000 s", scene.name);
#pragma once

#include <cairo.h>

#include <string>
#include <vector>

#include "recording.hpp"
#include "tinkertoy/view/camera.hpp"
#include "tinkertoy/view/sketch.hpp"

namespace tinkertoy::cli {

struct PaintScale {
  double unit = 1.0;       // pixels per Studio pixel: line widths, dot sizes and text grow with it
  double maxLambda = 0.0;  // |λ| drawn fully red or blue (the 95th percentile over all frames)
  double maxForce = 0.0;   // N drawn as the longest arrow (the largest over all frames)
  DepthRange depths;       // of every frame: one shading of near and far for the whole video
};

// The strip at the bottom of a picture that holds the legend, px.
double legendHeight(double unit);

// The rods' full-colour |λ| (the 95th percentile of every rod in every frame), the largest
// constraint force and the depths of the frames.
PaintScale measureScale(const std::vector<Frame>& frames, double unit);

class Painter {
 public:
  // The camera maps world to pixels of the picture above the legend strip.
  Painter(cairo_t* cr, const Camera& camera, const PaintScale& scale) : cr_(cr), camera_(camera), scale_(scale) {}

  // Fills the whole picture (the camera's viewport and the legend strip below it).
  void background();
  // Every trail up to `time`, ending at `ends` (where the frame at that time has them).
  void trails(const std::vector<Trail>& trails, double time, const std::vector<Eigen::Vector2d>& ends);
  // The sketch, at `opacity` (a strobe's earlier exposures are fainter).
  void sketch(const Sketch& sketch, double opacity = 1.0);
  // The sketch as a ghost: every mark in colours::kGhost, see-through, whatever its own colour.
  void ghost(const Sketch& sketch);
  // The legend strip: `time` at the left, a scale bar, `title` at the right.
  void legend(const std::string& time, const std::string& title);

 private:
  void body(const Sketch& sketch);
  void link(const SketchLink& link);
  void pin(const SketchPin& pin);
  void dot(const SketchDot& dot);

  cairo_t* cr_;
  Camera camera_;
  PaintScale scale_;
};

}  // namespace tinkertoy::cli
