// Drawing a Sketch with cairo (painter.hpp).
#include "painter.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "tinkertoy/view/strokes.hpp"
#include "tinkertoy/view/style.hpp"

namespace tinkertoy::cli {

namespace {

void setColour(cairo_t* cr, Colour c) { cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0); }

void moveTo(cairo_t* cr, const Eigen::Vector2d& p) { cairo_move_to(cr, p.x(), p.y()); }
void lineTo(cairo_t* cr, const Eigen::Vector2d& p) { cairo_line_to(cr, p.x(), p.y()); }

void polyline(cairo_t* cr, const std::vector<Eigen::Vector2d>& points, bool closed = false) {
  if (points.empty()) return;
  moveTo(cr, points.front());
  for (std::size_t i = 1; i < points.size(); ++i) lineTo(cr, points[i]);
  if (closed) cairo_close_path(cr);
}

void circle(cairo_t* cr, const Eigen::Vector2d& c, double radius) {
  cairo_new_sub_path(cr);
  cairo_arc(cr, c.x(), c.y(), radius, 0.0, 2.0 * std::numbers::pi);
}

void stroke(cairo_t* cr, Colour colour, double width) {
  setColour(cr, colour);
  cairo_set_line_width(cr, width);
  cairo_stroke(cr);
}

void fill(cairo_t* cr, Colour colour) {
  setColour(cr, colour);
  cairo_fill(cr);
}

void segment(cairo_t* cr, const Eigen::Vector2d& a, const Eigen::Vector2d& b, Colour colour, double width) {
  moveTo(cr, a);
  lineTo(cr, b);
  stroke(cr, colour, width);
}

void setFont(cairo_t* cr, double size) {
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

double textWidth(cairo_t* cr, const std::string& text) {
  cairo_text_extents_t extents;
  cairo_text_extents(cr, text.c_str(), &extents);
  return extents.x_advance;
}

}  // namespace

double legendHeight(double unit) { return std::round(30.0 * unit); }

PaintScale measureScale(const std::vector<Frame>& frames, double unit) {
  PaintScale scale{.unit = unit};
  std::vector<double> loads;  // |λ| of every rod in every frame
  for (const Frame& frame : frames) {
    for (const SketchLink& l : frame.sketch.links) {
      if (l.kind == SketchLink::Kind::Rod && std::isfinite(l.value)) loads.push_back(std::abs(l.value));
    }
    for (const SketchArrow& a : frame.sketch.arrows) scale.maxForce = std::max(scale.maxForce, a.force.norm());
    scale.depths.add(frame.sketch.depths());
  }
  // A few violent moments (a jerk at the start) would leave every other frame's rods dark, so
  // full colour is the 95th percentile of the loads; the rare larger ones saturate.
  if (!loads.empty()) {
    const auto at = loads.begin() + static_cast<std::ptrdiff_t>(0.95 * static_cast<double>(loads.size() - 1));
    std::nth_element(loads.begin(), at, loads.end());
    scale.maxLambda = *at;
  }
  return scale;
}

void Painter::background() {
  setColour(cr_, colours::kBackground);
  cairo_paint(cr_);
}

void Painter::trails(const std::vector<Trail>& trails, double time, const std::vector<Eigen::Vector2d>& ends) {
  cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
  for (std::size_t i = 0; i < trails.size(); ++i) {
    const Trail& trail = trails[i];
    std::vector<Eigen::Vector2d> points;
    for (std::size_t k = 0; k < trail.points.size() && trail.times[k] <= time; ++k) {
      points.push_back(camera_.toPixels(trail.points[k]));
    }
    if (i < ends.size()) points.push_back(camera_.toPixels(ends[i]));
    if (points.size() < 2) continue;
    polyline(cr_, points);
    stroke(cr_, colours::kTrail, 1.5 * scale_.unit);
  }
}

void Painter::sketch(const Sketch& s, double opacity) {
  if (opacity < 1.0) cairo_push_group(cr_);
  body(s);
  if (opacity < 1.0) {
    cairo_pop_group_to_source(cr_);
    cairo_paint_with_alpha(cr_, opacity);
  }
}

void Painter::ghost(const Sketch& s) {
  cairo_push_group(cr_);
  body(s);
  cairo_pattern_t* marks = cairo_pop_group(cr_);
  setColour(cr_, colours::kGhost);
  cairo_mask(cr_, marks);
  cairo_pattern_destroy(marks);
}

void Painter::body(const Sketch& s) {
  const double u = scale_.unit;
  cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
  for (const SketchShape& shape : s.shapes) {
    if (shape.type == Shape::Type::Circle) {
      const Eigen::Vector2d c = camera_.toPixels(shape.center);
      circle(cr_, c, shape.radius * camera_.scale);
      fill(cr_, shapeFill(shape.motion, shape.asleep));
      circle(cr_, c, shape.radius * camera_.scale);
      stroke(cr_, colours::kInk, 2.0 * u);
      segment(cr_, c,
              camera_.toPixels(shape.center + shape.radius * Eigen::Vector2d(std::cos(shape.angle), std::sin(shape.angle))),
              colours::kInk, 2.0 * u);
    } else {
      std::vector<Eigen::Vector2d> outline;
      for (const Eigen::Vector2d& p : shape.outline) outline.push_back(camera_.toPixels(p));
      if (shape.area) {
        polyline(cr_, outline, true);
        fill(cr_, shapeFill(shape.motion, shape.asleep));
      }
      polyline(cr_, outline, shape.closed);
      stroke(cr_, colours::kInk, (shape.area ? 2.0 : 3.0) * u);
    }
  }
  for (const SketchCurve& c : s.curves) {
    std::vector<Eigen::Vector2d> points;
    for (const Eigen::Vector2d& p : c.points) points.push_back(camera_.toPixels(p));
    polyline(cr_, points, c.closed);
    stroke(cr_, colours::kWire, 2.0 * u);
  }
  for (const SketchLine& l : s.lines) {
    const auto [a, b] = spanAcross(l, camera_.visible());
    segment(cr_, camera_.toPixels(a), camera_.toPixels(b), colours::kWire, 2.0 * u);
  }
  for (const SketchSpring& spring : s.springs) {
    polyline(cr_, zigzag(camera_.toPixels(spring.a), camera_.toPixels(spring.b), 6.0 * u));
    stroke(cr_, atDepth(colours::kSpring, scale_.depths.fade(spring.depth)), 2.0 * u);
  }
  for (const SketchMark& mark : s.backToFront()) {
    switch (mark.kind) {
      case SketchMark::Kind::Link:
        link(s.links[mark.index]);
        break;
      case SketchMark::Kind::Pin:
        pin(s.pins[mark.index]);
        break;
      case SketchMark::Kind::Dot:
        dot(s.dots[mark.index]);
        break;
    }
  }
  for (const SketchArrow& arrow : s.arrows) {
    if (!(scale_.maxForce > 0.0)) break;
    const Eigen::Vector2d from = camera_.toPixels(arrow.at);
    const Eigen::Vector2d to = from + kLongestArrow * u / scale_.maxForce * Eigen::Vector2d(arrow.force.x(), -arrow.force.y());
    if ((to - from).norm() < 2.0 * u) continue;
    segment(cr_, from, to, colours::kForce, 2.5 * u);
    const auto [tip, left, right] = arrowHead(from, to, 10.0 * u);
    polyline(cr_, {tip, left, right}, true);
    fill(cr_, colours::kForce);
  }
  for (const SketchContact& c : s.contacts) {  // a dot and its normal, 16 px long
    const Eigen::Vector2d at = camera_.toPixels(c.at);
    segment(cr_, at, at + 16.0 * u * Eigen::Vector2d(c.normal.x(), -c.normal.y()), colours::kContact, 2.0 * u);
    circle(cr_, at, 3.0 * u);
    fill(cr_, colours::kContact);
  }
}

void Painter::link(const SketchLink& l) {
  const double u = scale_.unit, fade = scale_.depths.fade(l.depth);
  const Eigen::Vector2d a = camera_.toPixels(l.a), b = camera_.toPixels(l.b);
  switch (l.kind) {
    case SketchLink::Kind::Rod:
      segment(cr_, a, b, atDepth(rodColour(l.value, scale_.maxLambda), fade), 4.0 * u);
      break;
    case SketchLink::Kind::Link:
      segment(cr_, a, b, atDepth(colours::kInk, fade), 4.0 * u);
      break;
    case SketchLink::Kind::Rope:
      segment(cr_, a, b, atDepth(colours::kRope, fade), 2.0 * u);
      break;
    case SketchLink::Kind::Pulley:
      segment(cr_, a, b, atDepth(colours::kInk, fade), 1.5 * u);
      break;
    case SketchLink::Kind::Soft:
    case SketchLink::Kind::Mouse:
      for (const auto& [from, to] : dashes(a, b, 8.0 * u)) {
        segment(cr_, from, to, atDepth(l.kind == SketchLink::Kind::Soft ? colours::kSoft : colours::kMouse, fade),
                3.0 * u);
      }
      break;
  }
}

void Painter::dot(const SketchDot& d) {
  circle(cr_, camera_.toPixels(d.at), dotRadius(d.mass) * scale_.unit);
  fill(cr_, atDepth(colours::kDot, scale_.depths.fade(d.depth)));
}

void Painter::pin(const SketchPin& p) {
  const double fade = scale_.depths.fade(p.depth);
  for (PinMark mark : pinMarks(p, camera_.toPixels(p.at), scale_.unit)) {
    mark.colour = atDepth(mark.colour, fade);
    switch (mark.kind) {
      case PinMark::Kind::FilledPolygon:
        polyline(cr_, mark.points, true);
        fill(cr_, mark.colour);
        break;
      case PinMark::Kind::Polyline:
        polyline(cr_, mark.points);
        stroke(cr_, mark.colour, mark.width);
        break;
      case PinMark::Kind::FilledCircle:
        circle(cr_, mark.points[0], mark.radius);
        fill(cr_, mark.colour);
        break;
      case PinMark::Kind::Circle:
        circle(cr_, mark.points[0], mark.radius);
        stroke(cr_, mark.colour, mark.width);
        break;
    }
  }
}

void Painter::legend(const std::string& time, const std::string& title) {
  const double u = scale_.unit, height = legendHeight(u);
  const double top = camera_.offset.y() + camera_.viewport.y(), width = camera_.viewport.x();
  const double baseline = top + 0.5 * height + 4.5 * u, pad = 12.0 * u;
  cairo_rectangle(cr_, 0.0, top, width, height);
  fill(cr_, {232, 232, 224});
  segment(cr_, {0.0, top}, {width, top}, {200, 200, 190}, 1.0 * u);
  setFont(cr_, 13.0 * u);

  setColour(cr_, colours::kInk);
  cairo_move_to(cr_, pad, baseline);
  cairo_show_text(cr_, time.c_str());
  double x = pad + std::max(textWidth(cr_, time), 110.0 * u) + 2.0 * pad;

  // Scale bar: a round length at least 60 px long.
  const double metres = roundStep(60.0 * u / camera_.scale), length = metres * camera_.scale;
  const double y = top + 0.5 * height;
  segment(cr_, {x, y}, {x + length, y}, colours::kInk, 3.0 * u);
  segment(cr_, {x, y - 5 * u}, {x, y + 5 * u}, colours::kInk, 2.0 * u);
  segment(cr_, {x + length, y - 5 * u}, {x + length, y + 5 * u}, colours::kInk, 2.0 * u);
  char label[32];
  std::snprintf(label, sizeof label, "%g m", metres);
  setColour(cr_, colours::kInk);
  cairo_move_to(cr_, x + length + 8.0 * u, baseline);
  cairo_show_text(cr_, label);
  x += length + 8.0 * u + textWidth(cr_, label) + 2.0 * pad;

  // The title, right-aligned, clipped to the space left.
  cairo_save(cr_);
  cairo_rectangle(cr_, x, top, std::max(0.0, width - x - pad), height);
  cairo_clip(cr_);
  setColour(cr_, {110, 110, 110});
  cairo_move_to(cr_, std::max(x, width - pad - textWidth(cr_, title)), baseline);
  cairo_show_text(cr_, title.c_str());
  cairo_restore(cr_);
}

}  // namespace tinkertoy::cli
