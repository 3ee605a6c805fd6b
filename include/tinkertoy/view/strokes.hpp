// Strokes: the pixel-space geometry of the marks a picture is made of (a spring's zigzag, a
// dashed line, an arrow's head, the span of an infinite line, a scale bar's length), shared by
// every drawing backend so they draw the same shapes.
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "tinkertoy/view/bounds.hpp"
#include "tinkertoy/view/sketch.hpp"
#include "tinkertoy/view/style.hpp"

namespace tinkertoy {

// A spring from a to b as a polyline: straight leads at both ends, `turns` zigzags of half-width
// `amplitude` between them. Empty when a and b coincide.
std::vector<Eigen::Vector2d> zigzag(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double amplitude,
                                    int turns = 12);

// The dashes of a dashed line from a to b: segments `dash` long with gaps of `dash`.
std::vector<std::array<Eigen::Vector2d, 2>> dashes(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double dash);

// The triangle of an arrow's head at `to`, pointing away from `from`: tip, and the two back
// corners; `size` is its length, at most 0.4 of the arrow.
std::array<Eigen::Vector2d, 3> arrowHead(const Eigen::Vector2d& from, const Eigen::Vector2d& to, double size);

// A segment of an infinite line long enough to cross all of `view` (world coordinates).
std::array<Eigen::Vector2d, 2> spanAcross(const SketchLine& line, const Bounds& view);

// A pin (nail, hinge, weld, slider, driver, pulley) as simple marks, in pixels: a backend
// draws each as a filled polygon, a stroked polyline or a filled or stroked circle.
struct PinMark {
  enum class Kind { FilledPolygon, Polyline, FilledCircle, Circle };
  Kind kind = Kind::FilledCircle;
  std::vector<Eigen::Vector2d> points;  // the polygon's or polyline's corners; a circle's centre
  double radius = 0.0;                  // circles, px
  double width = 0.0;                   // strokes, px
  Colour colour;
};
// The marks of `pin` drawn at pixel `at`, sizes multiplied by `unit`.
std::vector<PinMark> pinMarks(const SketchPin& pin, const Eigen::Vector2d& at, double unit = 1.0);

// A round length for a grid or scale bar: 1, 2 or 5 × 10^k, the smallest at least `minimum`.
double roundStep(double minimum);

}  // namespace tinkertoy
