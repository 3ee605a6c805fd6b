// Pixel-space geometry of a picture's marks (strokes.hpp).
#include "tinkertoy/view/strokes.hpp"

#include <algorithm>
#include <cmath>

namespace tinkertoy {

std::vector<Eigen::Vector2d> zigzag(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double amplitude, int turns) {
  const double length = (b - a).norm();
  if (length < 1e-9) return {};
  const Eigen::Vector2d along = (b - a) / length, across(-along.y(), along.x());
  const double lead = std::min(8.0 / 6.0 * amplitude, 0.15 * length);
  std::vector<Eigen::Vector2d> points{a, a + lead * along};
  for (int k = 1; k < turns; ++k) {
    const double s = lead + (length - 2 * lead) * k / turns;
    points.push_back(a + s * along + ((k % 2) ? amplitude : -amplitude) * across);
  }
  points.push_back(b - lead * along);
  points.push_back(b);
  return points;
}

std::vector<std::array<Eigen::Vector2d, 2>> dashes(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double dash) {
  const double length = (b - a).norm();
  std::vector<std::array<Eigen::Vector2d, 2>> result;
  for (double s = 0.0; s < length; s += 2 * dash) {
    result.push_back({a + (b - a) * (s / length), a + (b - a) * (std::min(s + dash, length) / length)});
  }
  return result;
}

std::array<Eigen::Vector2d, 3> arrowHead(const Eigen::Vector2d& from, const Eigen::Vector2d& to, double size) {
  const double length = (to - from).norm();
  if (length <= 0.0) return {to, to, to};
  const Eigen::Vector2d along = (to - from) / length, across(-along.y(), along.x());
  const double head = std::min(size, 0.4 * length);
  const Eigen::Vector2d back = to - head * along;
  return {to, back + 0.5 * head * across, back - 0.5 * head * across};
}

std::array<Eigen::Vector2d, 2> spanAcross(const SketchLine& line, const Bounds& view) {
  const double reach = (line.point - view.center()).norm() + view.size().norm();
  return {line.point - reach * line.direction, line.point + reach * line.direction};
}

namespace {

// A motor: three quarters of a circle round the pin, with an arrowhead at the end it turns
// toward (pixels have y down, so counter-clockwise on the picture is a decreasing pixel angle).
std::vector<PinMark> motorMarks(int turn, const Eigen::Vector2d& at, double u) {
  constexpr double kRadius = 14.0, kSweep = 1.5 * 3.141592653589793;
  constexpr int kSegments = 24;
  PinMark arc{.kind = PinMark::Kind::Polyline, .width = 2.0 * u, .colour = colours::kMouse};
  const auto point = [&](double angle) { return Eigen::Vector2d(at + kRadius * u * Eigen::Vector2d(std::cos(angle), std::sin(angle))); };
  for (int k = 0; k <= kSegments; ++k) arc.points.push_back(point(-turn * kSweep * k / kSegments));
  const double end = -turn * kSweep;
  const Eigen::Vector2d tip = point(end);
  const Eigen::Vector2d along = -turn * Eigen::Vector2d(-std::sin(end), std::cos(end));  // the way it turns, at the tip
  const Eigen::Vector2d across(-along.y(), along.x());
  PinMark head{.kind = PinMark::Kind::FilledPolygon,
               .points = {tip + 6.0 * u * along, tip - 3.0 * u * along + 5.0 * u * across, tip - 3.0 * u * along - 5.0 * u * across},
               .colour = colours::kMouse};
  return {arc, head};
}

std::vector<PinMark> shapeMarks(const SketchPin& pin, const Eigen::Vector2d& at, double u);

}  // namespace

std::vector<PinMark> pinMarks(const SketchPin& pin, const Eigen::Vector2d& at, double u) {
  std::vector<PinMark> marks = shapeMarks(pin, at, u);
  if (pin.motor != 0) {
    const std::vector<PinMark> motor = motorMarks(pin.motor, at, u);
    marks.insert(marks.end(), motor.begin(), motor.end());
  }
  return marks;
}

namespace {

// The pin's own marks, by its kind.
std::vector<PinMark> shapeMarks(const SketchPin& pin, const Eigen::Vector2d& at, double u) {
  using Kind = PinMark::Kind;
  const auto circle = [&](Kind kind, double radius, Colour colour, double width = 0.0) {
    return PinMark{.kind = kind, .points = {at}, .radius = radius * u, .width = width * u, .colour = colour};
  };
  const auto offset = [&](double x, double y) { return Eigen::Vector2d(at + u * Eigen::Vector2d(x, y)); };
  switch (pin.kind) {
    case SketchPin::Kind::Nail:
    case SketchPin::Kind::Pivot:  // a triangle standing on a base, the held point on its tip
      return {{.kind = Kind::FilledPolygon, .points = {at, offset(-8, 12), offset(8, 12)}, .colour = colours::kPin},
              {.kind = Kind::Polyline, .points = {offset(-12, 12), offset(12, 12)}, .width = 2.0 * u,
               .colour = colours::kInk},
              circle(Kind::FilledCircle, 3.0, colours::kInk)};
    case SketchPin::Kind::Hinge:
      return {circle(Kind::FilledCircle, 5.0, {255, 255, 255}), circle(Kind::Circle, 5.0, colours::kInk, 2.0)};
    case SketchPin::Kind::Weld:
      return {{.kind = Kind::FilledPolygon, .points = {offset(-4, -4), offset(4, -4), offset(4, 4), offset(-4, 4)},
               .colour = colours::kInk}};
    case SketchPin::Kind::Slider: {  // the axis it slides along (pixels have y down)
      const Eigen::Vector2d d(pin.direction.x(), -pin.direction.y());
      return {{.kind = Kind::Polyline, .points = {at - 24.0 * u * d, at + 24.0 * u * d}, .width = 2.0 * u,
               .colour = colours::kWire},
              circle(Kind::FilledCircle, 4.0, colours::kInk)};
    }
    case SketchPin::Kind::Driver:
      return {circle(Kind::Circle, 8.0, colours::kMouse, 2.5)};
    case SketchPin::Kind::Pulley:
      return {circle(Kind::Circle, 7.0, colours::kInk, 2.0), circle(Kind::FilledCircle, 2.0, colours::kInk)};
  }
  return {};
}

}  // namespace

double roundStep(double minimum) {
  const double decade = std::pow(10.0, std::floor(std::log10(minimum)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * decade >= minimum) return m * decade;
  }
  return 10.0 * decade;
}

}  // namespace tinkertoy
