// Canvas: drawing a Sketch and picking from it (canvas.hpp).
#include "canvas.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "tinkertoy/view/strokes.hpp"
#include "tinkertoy/view/style.hpp"

namespace tinkertoy::studio {

namespace {

ImVec2 px(const Camera& camera, const Eigen::Vector2d& world) {
  const Eigen::Vector2d p = camera.toPixels(world);
  return {static_cast<float>(p.x()), static_cast<float>(p.y())};
}

Eigen::Vector2d vec(const ImVec2& p) { return {p.x, p.y}; }
ImVec2 im(const Eigen::Vector2d& p) { return {static_cast<float>(p.x()), static_cast<float>(p.y())}; }

ImU32 im(Colour c) { return IM_COL32(c.r, c.g, c.b, c.a); }

// The Studio's own marks; everything else is coloured by the shared style (view/style.hpp).
constexpr ImU32 kSelected = IM_COL32(255, 170, 0, 255);
constexpr ImU32 kHovered = IM_COL32(255, 200, 90, 160);
constexpr ImU32 kGrid = IM_COL32(222, 222, 214, 255);
constexpr ImU32 kAxis = IM_COL32(180, 180, 170, 255);
const ImU32 kInk = im(colours::kInk);

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

void ring(ImDrawList& draw, ImVec2 at, double radius, ImU32 colour) {
  draw.AddCircle(at, static_cast<float>(radius), colour, 0, 3.0f);
}

void polyline(ImDrawList& draw, const std::vector<Eigen::Vector2d>& points, ImU32 colour, float thickness) {
  std::vector<ImVec2> converted;
  for (const Eigen::Vector2d& p : points) converted.push_back(im(p));
  draw.AddPolyline(converted.data(), static_cast<int>(converted.size()), colour, 0, thickness);
}

void dashed(ImDrawList& draw, ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
  for (const auto& [from, to] : dashes(vec(a), vec(b), 8.0)) draw.AddLine(im(from), im(to), colour, thickness);
}

void arrow(ImDrawList& draw, ImVec2 from, ImVec2 to, ImU32 colour) {
  if ((vec(to) - vec(from)).norm() < 2.0) return;
  const auto [tip, left, right] = arrowHead(vec(from), vec(to), 10.0);
  draw.AddLine(from, to, colour, 2.5f);
  draw.AddTriangleFilled(im(tip), im(left), im(right), colour);
}

void pin(ImDrawList& draw, const Camera& camera, const SketchPin& p, double fade) {
  for (const PinMark& mark : pinMarks(p, camera.toPixels(p.at))) {
    const ImU32 colour = im(atDepth(mark.colour, fade));
    const auto width = static_cast<float>(mark.width), radius = static_cast<float>(mark.radius);
    std::vector<ImVec2> points;
    for (const Eigen::Vector2d& q : mark.points) points.push_back(im(q));
    switch (mark.kind) {
      case PinMark::Kind::FilledPolygon:
        draw.AddConvexPolyFilled(points.data(), static_cast<int>(points.size()), colour);
        break;
      case PinMark::Kind::Polyline:
        draw.AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, width);
        break;
      case PinMark::Kind::FilledCircle:
        draw.AddCircleFilled(points[0], radius, colour);
        break;
      case PinMark::Kind::Circle:
        draw.AddCircle(points[0], radius, colour, 0, width);
        break;
    }
  }
}

}  // namespace

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
    const auto [a, b] = spanAcross(l, camera.visible());
    if (segmentDistance(pixel, camera.toPixels(a), camera.toPixels(b)) <= kReach) return {l.item, {}};
  }
  const Eigen::Vector2d world = camera.toWorld(pixel);
  for (auto s = sketch.shapes.rbegin(); s != sketch.shapes.rend(); ++s) {
    const bool inside = s->type == Shape::Type::Circle ? (world - s->center).norm() <= s->radius
                                                        : s->area && insidePolygon(s->outline, world);
    if (inside) return {s->body, BodyPoint{s->body, Eigen::Vector2d(Eigen::Rotation2Dd(-s->angle) * (world - s->center))}};
  }
  return {};
}

std::vector<BodyPoint> bodiesUnder(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel) {
  constexpr double kReach = 6.0;  // px
  const Eigen::Vector2d world = camera.toWorld(pixel);
  std::vector<BodyPoint> under;
  for (auto s = sketch.shapes.rbegin(); s != sketch.shapes.rend(); ++s) {
    bool near = false;
    if (s->type == Shape::Type::Circle) {
      near = (world - s->center).norm() * camera.scale <= s->radius * camera.scale + kReach;
    } else {
      near = s->area && insidePolygon(s->outline, world);
      const std::size_t edges = s->closed ? s->outline.size() : s->outline.size() - 1;
      for (std::size_t i = 0; i < edges && !near; ++i) {
        const Eigen::Vector2d a = camera.toPixels(s->outline[i]);
        const Eigen::Vector2d b = camera.toPixels(s->outline[(i + 1) % s->outline.size()]);
        near = segmentDistance(pixel, a, b) <= kReach;
      }
    }
    if (near) under.push_back({s->body, Eigen::Vector2d(Eigen::Rotation2Dd(-s->angle) * (world - s->center))});
  }
  const Hit hit = pick(Sketch{.dots = sketch.dots}, camera, pixel);
  if (hit.point) under.push_back(*hit.point);
  return under;
}

std::optional<BodyPoint> nearestBody(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel,
                                     double reach) {
  std::optional<BodyPoint> nearest;
  double best = reach;
  const auto consider = [&](double distance, const BodyPoint& point) {
    if (distance <= best) best = distance, nearest = point;
  };
  for (const SketchDot& d : sketch.dots) consider((camera.toPixels(d.at) - pixel).norm(), d.point);
  const Eigen::Vector2d world = camera.toWorld(pixel);
  for (const SketchShape& s : sketch.shapes) {
    // The nearest point of the outline, in pixels, and as a site in the body's frame.
    Eigen::Vector2d closest = s.center;
    if (s.type == Shape::Type::Circle) {
      const Eigen::Vector2d out = world - s.center;
      if (out.norm() > 0.0) closest = s.center + s.radius * out.normalized();
    } else {
      double edge = INFINITY;
      const std::size_t edges = s.closed ? s.outline.size() : s.outline.size() - 1;
      for (std::size_t i = 0; i < edges; ++i) {
        const Eigen::Vector2d a = s.outline[i], ab = s.outline[(i + 1) % s.outline.size()] - a;
        const Eigen::Vector2d q = a + std::clamp((world - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) * ab;
        if ((q - world).norm() < edge) edge = (q - world).norm(), closest = q;
      }
    }
    consider((camera.toPixels(closest) - pixel).norm(),
             {s.body, Eigen::Vector2d(Eigen::Rotation2Dd(-s.angle) * (closest - s.center))});
  }
  return nearest;
}

Eigen::Vector2d snapped(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel) {
  constexpr double kReach = 9.0;  // px
  std::vector<Eigen::Vector2d> targets;
  for (const SketchShape& s : sketch.shapes) {
    targets.push_back(s.center);
    if (s.type != Shape::Type::Box) continue;
    // A bar's ends: the middles of the box's two short sides.
    const auto& c = s.outline;
    const bool alongFirst = (c[1] - c[0]).norm() >= (c[2] - c[1]).norm();
    const auto [i, j] = alongFirst ? std::pair{1, 3} : std::pair{0, 2};
    targets.push_back(0.5 * (c[i] + c[(i + 1) % 4]));
    targets.push_back(0.5 * (c[j] + c[(j + 1) % 4]));
  }
  for (const SketchPin& p : sketch.pins) targets.push_back(p.at);
  for (const SketchDot& d : sketch.dots) targets.push_back(d.at);
  Eigen::Vector2d best = camera.toWorld(pixel);
  double nearest = kReach;
  for (const Eigen::Vector2d& t : targets) {
    const double d = (camera.toPixels(t) - pixel).norm();
    if (d <= nearest) nearest = d, best = t;
  }
  return best;
}

void drawGrid(ImDrawList& draw, const Camera& camera) {
  const ImVec2 corner = im(camera.offset), far = im(camera.offset + camera.viewport);
  draw.AddRectFilled(corner, far, im(colours::kBackground));
  const double step = roundStep(40.0 / camera.scale);  // m, at least 40 px
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

void drawAxes(ImDrawList& draw, const Camera& camera, const ViewDirection& view) {
  const Eigen::Vector2d origin = camera.offset + Eigen::Vector2d(40.0, camera.viewport.y() - 70.0);
  constexpr double kLength = 28.0;  // px, of an axis seen side on
  const std::array<std::pair<Eigen::Vector3d, const char*>, 3> axes{
      {{Eigen::Vector3d::UnitX(), "x"}, {Eigen::Vector3d::UnitY(), "y"}, {Eigen::Vector3d::UnitZ(), "z"}}};
  for (const auto& [axis, name] : axes) {
    const Eigen::Vector2d p = view.toPicture(axis);
    const Eigen::Vector2d tip = origin + kLength * Eigen::Vector2d(p.x(), -p.y());
    draw.AddLine(im(origin), im(tip), kAxis, 2.0f);
    draw.AddText(im(tip + Eigen::Vector2d(3.0, -8.0)), kInk, name);
  }
}

void drawTrail(ImDrawList& draw, const Camera& camera, const ViewDirection& view, const std::deque<Eigen::Vector3d>& trail,
               const Colour& colour) {
  const Colour clear{colour.r, colour.g, colour.b, 0};
  for (std::size_t i = 1; i < trail.size(); ++i) {
    const double age = 1.0 - static_cast<double>(i) / static_cast<double>(trail.size());
    draw.AddLine(px(camera, view.toPicture(trail[i - 1])), px(camera, view.toPicture(trail[i])),
                 im(mix(colour, clear, age)), 2.0f);
  }
}

void drawGhost(ImDrawList& draw, const Camera& camera, const Sketch& sketch) {
  const ImU32 ghost = im(colours::kGhost);
  for (const SketchShape& shape : sketch.shapes) {
    if (shape.type == Shape::Type::Circle) {
      draw.AddCircle(px(camera, shape.center), static_cast<float>(shape.radius * camera.scale), ghost, 48, 2.5f);
      continue;
    }
    std::vector<ImVec2> outline;
    for (const Eigen::Vector2d& p : shape.outline) outline.push_back(px(camera, p));
    draw.AddPolyline(outline.data(), static_cast<int>(outline.size()), ghost,
                     shape.closed ? ImDrawFlags_Closed : ImDrawFlags_None, 2.5f);
  }
  for (const SketchLink& link : sketch.links) draw.AddLine(px(camera, link.a), px(camera, link.b), ghost, 3.0f);
  for (const SketchSpring& spring : sketch.springs) draw.AddLine(px(camera, spring.a), px(camera, spring.b), ghost, 2.0f);
  for (const SketchDot& dot : sketch.dots) draw.AddCircleFilled(px(camera, dot.at), 6.0f, ghost);
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
    const ImU32 fill = im(shapeFill(s.motion, s.asleep));
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
      if (s.area) draw.AddConvexPolyFilled(outline.data(), static_cast<int>(outline.size()), fill);
      draw.AddPolyline(outline.data(), static_cast<int>(outline.size()), highlight(s.body).value_or(kInk),
                       s.closed ? ImDrawFlags_Closed : ImDrawFlags_None, highlight(s.body) || !s.area ? 4.0f : 2.0f);
    }
  }
  for (const SketchCurve& c : sketch.curves) {
    std::vector<ImVec2> points;
    for (const Eigen::Vector2d& p : c.points) points.push_back(px(camera, p));
    draw.AddPolyline(points.data(), static_cast<int>(points.size()), highlight(c.item).value_or(im(colours::kWire)),
                     c.closed ? ImDrawFlags_Closed : ImDrawFlags_None, 2.0f);
  }
  for (const SketchLine& l : sketch.lines) {
    const auto [a, b] = spanAcross(l, camera.visible());
    draw.AddLine(px(camera, a), px(camera, b), highlight(l.item).value_or(im(colours::kWire)), 2.0f);
  }
  const DepthRange depths = sketch.depths();
  for (const SketchSpring& s : sketch.springs) {
    polyline(draw, zigzag(camera.toPixels(s.a), camera.toPixels(s.b), 6.0),
             highlight(s.item).value_or(im(atDepth(colours::kSpring, depths.fade(s.depth)))), 2.0f);
  }
  double maxLambda = 0.0;
  for (const SketchLink& l : sketch.links) {
    if (l.kind == SketchLink::Kind::Rod && std::isfinite(l.value)) maxLambda = std::max(maxLambda, std::abs(l.value));
  }
  const auto link = [&](const SketchLink& l) {
    const ImVec2 a = px(camera, l.a), b = px(camera, l.b);
    const double fade = depths.fade(l.depth);
    const auto ink = [fade](Colour c) { return im(atDepth(c, fade)); };
    if (auto h = highlight(l.item)) draw.AddLine(a, b, *h, 9.0f);
    switch (l.kind) {
      case SketchLink::Kind::Rod:
        draw.AddLine(a, b, ink(rodColour(l.value, maxLambda)), 4.0f);
        break;
      case SketchLink::Kind::Rope:
        draw.AddLine(a, b, ink(colours::kRope), 2.0f);
        break;
      case SketchLink::Kind::Soft:
        dashed(draw, a, b, ink(colours::kSoft), 3.0f);
        break;
      case SketchLink::Kind::Link:
        draw.AddLine(a, b, ink(colours::kInk), 4.0f);
        break;
      case SketchLink::Kind::Pulley:
        draw.AddLine(a, b, ink(colours::kInk), 1.5f);
        break;
      case SketchLink::Kind::Mouse: {
        dashed(draw, a, b, im(colours::kMouse), 2.5f);
        draw.AddCircle(b, 5.0f, im(colours::kMouse), 0, 2.0f);
        if (std::isfinite(l.value)) {
          char label[32];
          std::snprintf(label, sizeof label, "%.3g N", l.value);
          draw.AddText({b.x + 10, b.y - 8}, im(colours::kMouse), label);
        }
        break;
      }
    }
  };
  for (const SketchMark& mark : sketch.backToFront()) {
    switch (mark.kind) {
      case SketchMark::Kind::Link:
        link(sketch.links[mark.index]);
        break;
      case SketchMark::Kind::Pin: {
        const SketchPin& p = sketch.pins[mark.index];
        pin(draw, camera, p, depths.fade(p.depth));
        if (auto h = highlight(p.item)) ring(draw, px(camera, p.at), 10.0, *h);
        break;
      }
      case SketchMark::Kind::Dot: {
        const SketchDot& d = sketch.dots[mark.index];
        const ImVec2 at = px(camera, d.at);
        const double r = dotRadius(d.mass);
        draw.AddCircleFilled(at, static_cast<float>(r), im(atDepth(colours::kDot, depths.fade(d.depth))), 24);
        if (auto h = highlight(d.point.body)) ring(draw, at, r + 3.0, *h);
        break;
      }
    }
  }
  double maxForce = 0.0;
  for (const SketchArrow& a : sketch.arrows) maxForce = std::max(maxForce, a.force.norm());
  for (const SketchArrow& a : sketch.arrows) {
    if (maxForce <= 0.0) break;
    const Eigen::Vector2d tip =
        camera.toPixels(a.at) + kLongestArrow / maxForce * Eigen::Vector2d(a.force.x(), -a.force.y());
    arrow(draw, px(camera, a.at), im(tip), im(colours::kForce));
  }
  for (const SketchContact& c : sketch.contacts) {  // a dot and its normal, 16 px long
    const ImVec2 at = px(camera, c.at);
    draw.AddLine(at, ImVec2(at.x + 16.0f * static_cast<float>(c.normal.x()), at.y - 16.0f * static_cast<float>(c.normal.y())),
                 im(colours::kContact), 2.0f);
    draw.AddCircleFilled(at, 3.0f, im(colours::kContact));
  }
}

void drawPreview(ImDrawList& draw, const Camera& camera, const Eigen::Vector2d& from, const Eigen::Vector2d& to,
                 PreviewShape shape) {
  dashed(draw, px(camera, from), px(camera, to), kSelected, 3.0f);
  if (shape == PreviewShape::Circle) {
    draw.AddCircle(px(camera, from), static_cast<float>((to - from).norm() * camera.scale), kSelected, 64, 2.0f);
  }
  if (shape == PreviewShape::Rectangle) {
    const ImVec2 a = px(camera, from), b = px(camera, to);
    draw.AddRect(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)), ImVec2(std::max(a.x, b.x), std::max(a.y, b.y)), kSelected,
                 0.0f, 0, 2.0f);
  }
  draw.AddCircle(px(camera, to), 6.0f, kSelected, 0, 2.0f);
}

void drawPolylinePreview(ImDrawList& draw, const Camera& camera, const std::vector<Eigen::Vector2d>& points,
                         const Eigen::Vector2d& pointer) {
  if (points.empty()) return;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    draw.AddLine(px(camera, points[k]), px(camera, points[k + 1]), kSelected, 3.0f);
  }
  for (const Eigen::Vector2d& p : points) draw.AddCircleFilled(px(camera, p), 4.0f, kSelected);
  dashed(draw, px(camera, points.back()), px(camera, pointer), kSelected, 2.0f);
}

}  // namespace tinkertoy::studio
