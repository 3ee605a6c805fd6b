// Canvas: drawing a Sketch and picking from it (canvas.hpp).
#include "canvas.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tinkertoy::studio {

namespace {

ImVec2 px(const Camera& camera, const Eigen::Vector2d& world) {
  const Eigen::Vector2d p = camera.toPixels(world);
  return {static_cast<float>(p.x()), static_cast<float>(p.y())};
}

Eigen::Vector2d vec(const ImVec2& p) { return {p.x, p.y}; }
ImVec2 im(const Eigen::Vector2d& p) { return {static_cast<float>(p.x()), static_cast<float>(p.y())}; }

ImU32 mix(ImU32 a, ImU32 b, double t) {
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  const auto f = static_cast<float>(std::clamp(t, 0.0, 1.0));
  return ImGui::ColorConvertFloat4ToU32({x.x + (y.x - x.x) * f, x.y + (y.y - x.y) * f, x.z + (y.z - x.z) * f,
                                         x.w + (y.w - x.w) * f});
}

constexpr ImU32 kInk = IM_COL32(40, 44, 52, 255);
constexpr ImU32 kWire = IM_COL32(110, 120, 140, 255);
constexpr ImU32 kTension = IM_COL32(214, 39, 40, 255);
constexpr ImU32 kCompression = IM_COL32(31, 119, 180, 255);
constexpr ImU32 kRope = IM_COL32(140, 100, 60, 255);
constexpr ImU32 kSoft = IM_COL32(148, 103, 189, 255);
constexpr ImU32 kSpring = IM_COL32(60, 130, 90, 255);
constexpr ImU32 kMouse = IM_COL32(255, 127, 14, 255);
constexpr ImU32 kForce = IM_COL32(44, 160, 44, 255);
constexpr ImU32 kSelected = IM_COL32(255, 170, 0, 255);
constexpr ImU32 kHovered = IM_COL32(255, 200, 90, 160);
constexpr ImU32 kGrid = IM_COL32(222, 222, 214, 255);
constexpr ImU32 kAxis = IM_COL32(180, 180, 170, 255);

ImU32 shapeFill(RigidBody::Motion motion) {
  switch (motion) {
    case RigidBody::Motion::Static:
      return IM_COL32(160, 160, 160, 200);
    case RigidBody::Motion::Kinematic:
      return IM_COL32(140, 200, 140, 170);
    case RigidBody::Motion::Dynamic:
      break;
  }
  return IM_COL32(130, 170, 220, 170);
}

// Distance from p to the segment ab, in pixels.
double segmentDistance(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double t = ab.squaredNorm() > 0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
  return (a + t * ab - p).norm();
}

bool insidePolygon(const std::vector<Eigen::Vector2d>& polygon, const Eigen::Vector2d& p) {
  bool inside = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Eigen::Vector2d& a = polygon[i];
    const Eigen::Vector2d& b = polygon[j];
    if ((a.y() > p.y()) != (b.y() > p.y()) && p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x()) {
      inside = !inside;
    }
  }
  return inside;
}

// An infinite line as a segment longer than the view.
std::pair<Eigen::Vector2d, Eigen::Vector2d> visibleSpan(const Camera& camera, const SketchLine& line) {
  const Bounds view = camera.visible();
  const double reach = (line.point - view.center()).norm() + view.size().norm();
  return {line.point - reach * line.direction, line.point + reach * line.direction};
}

void ring(ImDrawList& draw, ImVec2 at, double radius, ImU32 colour) {
  draw.AddCircle(at, static_cast<float>(radius), colour, 0, 3.0f);
}

void zigzag(ImDrawList& draw, ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
  const Eigen::Vector2d p = vec(a), q = vec(b);
  const double length = (q - p).norm();
  if (length < 1e-6) return;
  const Eigen::Vector2d along = (q - p) / length, across(-along.y(), along.x());
  constexpr int kTurns = 12;
  const double lead = std::min(8.0, 0.15 * length), amplitude = 6.0;
  std::vector<ImVec2> points{a, im(p + lead * along)};
  for (int k = 1; k < kTurns; ++k) {
    const double s = lead + (length - 2 * lead) * k / kTurns;
    points.push_back(im(p + s * along + ((k % 2) ? amplitude : -amplitude) * across));
  }
  points.push_back(im(q - lead * along));
  points.push_back(b);
  draw.AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, thickness);
}

void dashed(ImDrawList& draw, ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
  const Eigen::Vector2d p = vec(a), q = vec(b);
  const double length = (q - p).norm();
  constexpr double kDash = 8.0;
  for (double s = 0.0; s < length; s += 2 * kDash) {
    draw.AddLine(im(p + (q - p) * (s / length)), im(p + (q - p) * (std::min(s + kDash, length) / length)), colour,
                 thickness);
  }
}

void arrow(ImDrawList& draw, ImVec2 from, ImVec2 to, ImU32 colour) {
  const Eigen::Vector2d a = vec(from), b = vec(to);
  const double length = (b - a).norm();
  if (length < 2.0) return;
  const Eigen::Vector2d along = (b - a) / length, across(-along.y(), along.x());
  const double head = std::min(10.0, 0.4 * length);
  draw.AddLine(from, to, colour, 2.5f);
  draw.AddTriangleFilled(to, im(b - head * along + 0.5 * head * across), im(b - head * along - 0.5 * head * across),
                         colour);
}

void pin(ImDrawList& draw, const Camera& camera, const SketchPin& p) {
  const ImVec2 at = px(camera, p.at);
  switch (p.kind) {
    case SketchPin::Kind::Nail:
    case SketchPin::Kind::Pivot:
      draw.AddTriangleFilled({at.x, at.y}, {at.x - 8, at.y + 12}, {at.x + 8, at.y + 12}, IM_COL32(90, 90, 90, 255));
      draw.AddLine({at.x - 12, at.y + 12}, {at.x + 12, at.y + 12}, kInk, 2.0f);
      draw.AddCircleFilled(at, 3.0f, kInk);
      break;
    case SketchPin::Kind::Hinge:
      draw.AddCircleFilled(at, 5.0f, IM_COL32(255, 255, 255, 255));
      draw.AddCircle(at, 5.0f, kInk, 0, 2.0f);
      break;
    case SketchPin::Kind::Weld:
      draw.AddRectFilled({at.x - 4, at.y - 4}, {at.x + 4, at.y + 4}, kInk);
      break;
    case SketchPin::Kind::Slider: {
      const Eigen::Vector2d d(p.direction.x(), -p.direction.y());
      draw.AddLine(im(vec(at) - 24.0 * d), im(vec(at) + 24.0 * d), kWire, 2.0f);
      draw.AddCircleFilled(at, 4.0f, kInk);
      break;
    }
    case SketchPin::Kind::Driver:
      draw.AddCircle(at, 8.0f, kMouse, 0, 2.5f);
      break;
    case SketchPin::Kind::Pulley:
      draw.AddCircle(at, 7.0f, kInk, 0, 2.0f);
      draw.AddCircleFilled(at, 2.0f, kInk);
      break;
  }
}

}  // namespace

double dotRadius(double mass) { return 6.0 * std::clamp(std::cbrt(mass), 0.7, 1.8); }

Hit pick(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel) {
  // Point masses first (the nearest within reach), then pins, connections, wires, shapes.
  const SketchDot* nearest = nullptr;
  double best = 0.0;
  for (const SketchDot& dot : sketch.dots) {
    const double d = (camera.toPixels(dot.at) - pixel).norm();
    if (d <= std::max(dotRadius(dot.mass) + 4.0, 9.0) && (!nearest || d < best)) nearest = &dot, best = d;
  }
  if (nearest) return {nearest->point.body, nearest->point};
  for (const SketchPin& p : sketch.pins) {
    if (!std::holds_alternative<std::monostate>(p.item) && (camera.toPixels(p.at) - pixel).norm() <= 8.0) return {p.item, {}};
  }
  constexpr double kReach = 6.0;
  for (const SketchLink& l : sketch.links) {
    if (segmentDistance(pixel, camera.toPixels(l.a), camera.toPixels(l.b)) <= kReach) return {l.item, {}};
  }
  for (const SketchSpring& s : sketch.springs) {
    if (segmentDistance(pixel, camera.toPixels(s.a), camera.toPixels(s.b)) <= kReach) return {s.item, {}};
  }
  for (const SketchCurve& c : sketch.curves) {
    for (std::size_t i = 0; i + 1 < c.points.size() + (c.closed ? 1 : 0); ++i) {
      if (segmentDistance(pixel, camera.toPixels(c.points[i]), camera.toPixels(c.points[(i + 1) % c.points.size()])) <=
          kReach) {
        return {c.item, {}};
      }
    }
  }
  for (const SketchLine& l : sketch.lines) {
    const auto [a, b] = visibleSpan(camera, l);
    if (segmentDistance(pixel, camera.toPixels(a), camera.toPixels(b)) <= kReach) return {l.item, {}};
  }
  const Eigen::Vector2d world = camera.toWorld(pixel);
  for (auto s = sketch.shapes.rbegin(); s != sketch.shapes.rend(); ++s) {
    const bool inside = s->type == Shape::Type::Circle ? (world - s->center).norm() <= s->radius
                                                        : insidePolygon(s->outline, world);
    if (inside) return {s->body, BodyPoint{s->body, Eigen::Vector2d(Eigen::Rotation2Dd(-s->angle) * (world - s->center))}};
  }
  return {};
}

void drawGrid(ImDrawList& draw, const Camera& camera) {
  const ImVec2 corner = im(camera.offset), far = im(camera.offset + camera.viewport);
  draw.AddRectFilled(corner, far, kBackgroundColour);
  // The step: 1, 2 or 5 × 10^k m, the smallest at least 40 px.
  const double raw = 40.0 / camera.scale;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = decade;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= raw) {
      step = m * decade;
      break;
    }
  }
  const Bounds view = camera.visible();
  for (double x = std::floor(view.min.x() / step) * step; x <= view.max.x(); x += step) {
    const bool axis = std::abs(x) < 0.5 * step;
    draw.AddLine(px(camera, {x, view.min.y()}), px(camera, {x, view.max.y()}), axis ? kAxis : kGrid, axis ? 2.0f : 1.0f);
  }
  for (double y = std::floor(view.min.y() / step) * step; y <= view.max.y(); y += step) {
    const bool axis = std::abs(y) < 0.5 * step;
    draw.AddLine(px(camera, {view.min.x(), y}), px(camera, {view.max.x(), y}), axis ? kAxis : kGrid, axis ? 2.0f : 1.0f);
  }
  // Scale bar, bottom left: one grid step.
  const float length = static_cast<float>(step * camera.scale);
  const ImVec2 start{corner.x + 16, far.y - 16};
  draw.AddLine(start, {start.x + length, start.y}, kInk, 3.0f);
  draw.AddLine({start.x, start.y - 5}, {start.x, start.y + 5}, kInk, 2.0f);
  draw.AddLine({start.x + length, start.y - 5}, {start.x + length, start.y + 5}, kInk, 2.0f);
  char label[32];
  std::snprintf(label, sizeof label, "%g m", step);
  draw.AddText({start.x + length + 8, start.y - ImGui::GetFontSize() / 2}, kInk, label);
}

void drawTrails(ImDrawList& draw, const Camera& camera, const std::vector<std::vector<std::deque<Eigen::Vector2d>>>& trails) {
  for (const auto& body : trails) {
    for (const auto& trail : body) {
      for (std::size_t i = 1; i < trail.size(); ++i) {
        const double age = 1.0 - static_cast<double>(i) / static_cast<double>(trail.size());
        draw.AddLine(px(camera, trail[i - 1]), px(camera, trail[i]), mix(IM_COL32(31, 119, 180, 200), IM_COL32(31, 119, 180, 0), age),
                     2.0f);
      }
    }
  }
}

void drawSketch(ImDrawList& draw, const Camera& camera, const Sketch& sketch, const SketchItem& selected,
                const SketchItem& hovered) {
  const auto highlight = [&](const SketchItem& item) -> std::optional<ImU32> {
    if (std::holds_alternative<std::monostate>(item)) return std::nullopt;
    if (item == selected) return kSelected;
    if (item == hovered) return kHovered;
    return std::nullopt;
  };
  for (const SketchShape& s : sketch.shapes) {
    const ImU32 fill = shapeFill(s.motion);
    if (s.type == Shape::Type::Circle) {
      const ImVec2 c = px(camera, s.center);
      const auto r = static_cast<float>(s.radius * camera.scale);
      draw.AddCircleFilled(c, r, fill, 48);
      draw.AddCircle(c, r, kInk, 48, 2.0f);
      draw.AddLine(c, px(camera, s.center + s.radius * Eigen::Vector2d(std::cos(s.angle), std::sin(s.angle))), kInk, 2.0f);
      if (auto h = highlight(s.body)) draw.AddCircle(c, r + 3.0f, *h, 48, 3.0f);
    } else {
      std::vector<ImVec2> outline;
      for (const Eigen::Vector2d& p : s.outline) outline.push_back(px(camera, p));
      draw.AddConvexPolyFilled(outline.data(), static_cast<int>(outline.size()), fill);
      draw.AddPolyline(outline.data(), static_cast<int>(outline.size()), highlight(s.body).value_or(kInk),
                       ImDrawFlags_Closed, highlight(s.body) ? 4.0f : 2.0f);
    }
  }
  for (const SketchCurve& c : sketch.curves) {
    std::vector<ImVec2> points;
    for (const Eigen::Vector2d& p : c.points) points.push_back(px(camera, p));
    draw.AddPolyline(points.data(), static_cast<int>(points.size()), highlight(c.item).value_or(kWire),
                     c.closed ? ImDrawFlags_Closed : ImDrawFlags_None, 2.0f);
  }
  for (const SketchLine& l : sketch.lines) {
    const auto [a, b] = visibleSpan(camera, l);
    draw.AddLine(px(camera, a), px(camera, b), highlight(l.item).value_or(kWire), 2.0f);
  }
  for (const SketchSpring& s : sketch.springs) {
    zigzag(draw, px(camera, s.a), px(camera, s.b), highlight(s.item).value_or(kSpring), 2.0f);
  }
  double maxLambda = 0.0;
  for (const SketchLink& l : sketch.links) {
    if (l.kind == SketchLink::Kind::Rod && std::isfinite(l.value)) maxLambda = std::max(maxLambda, std::abs(l.value));
  }
  for (const SketchLink& l : sketch.links) {
    const ImVec2 a = px(camera, l.a), b = px(camera, l.b);
    if (auto h = highlight(l.item)) draw.AddLine(a, b, *h, 9.0f);
    switch (l.kind) {
      case SketchLink::Kind::Rod: {
        ImU32 colour = kInk;
        if (std::isfinite(l.value) && maxLambda > 0.0) {
          colour = mix(kInk, l.value < 0 ? kTension : kCompression, std::abs(l.value) / maxLambda);
        }
        draw.AddLine(a, b, colour, 4.0f);
        break;
      }
      case SketchLink::Kind::Rope:
        draw.AddLine(a, b, kRope, 2.0f);
        break;
      case SketchLink::Kind::Soft:
        dashed(draw, a, b, kSoft, 3.0f);
        break;
      case SketchLink::Kind::Link:
        draw.AddLine(a, b, kInk, 4.0f);
        break;
      case SketchLink::Kind::Pulley:
        draw.AddLine(a, b, kInk, 1.5f);
        break;
      case SketchLink::Kind::Mouse: {
        dashed(draw, a, b, kMouse, 2.5f);
        draw.AddCircle(b, 5.0f, kMouse, 0, 2.0f);
        if (std::isfinite(l.value)) {
          char label[32];
          std::snprintf(label, sizeof label, "%.3g N", l.value);
          draw.AddText({b.x + 10, b.y - 8}, kMouse, label);
        }
        break;
      }
    }
  }
  for (const SketchPin& p : sketch.pins) {
    pin(draw, camera, p);
    if (auto h = highlight(p.item)) ring(draw, px(camera, p.at), 10.0, *h);
  }
  for (const SketchDot& d : sketch.dots) {
    const ImVec2 at = px(camera, d.at);
    const double r = dotRadius(d.mass);
    draw.AddCircleFilled(at, static_cast<float>(r), kDotColour, 24);
    if (auto h = highlight(d.point.body)) ring(draw, at, r + 3.0, *h);
  }
  double maxForce = 0.0;
  for (const SketchArrow& a : sketch.arrows) maxForce = std::max(maxForce, a.force.norm());
  for (const SketchArrow& a : sketch.arrows) {
    if (maxForce <= 0.0) break;
    const Eigen::Vector2d tip = camera.toPixels(a.at) + 80.0 / maxForce * Eigen::Vector2d(a.force.x(), -a.force.y());
    arrow(draw, px(camera, a.at), im(tip), kForce);
  }
}

void drawPreview(ImDrawList& draw, const Camera& camera, const Eigen::Vector2d& from, const Eigen::Vector2d& to) {
  dashed(draw, px(camera, from), px(camera, to), kSelected, 3.0f);
  draw.AddCircle(px(camera, to), 6.0f, kSelected, 0, 2.0f);
}

}  // namespace tinkertoy::studio
