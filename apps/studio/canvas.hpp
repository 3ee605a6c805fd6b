// Canvas: the Studio's picture of the model, drawn from a Sketch with ImGui's draw lists, and
// the reverse question: which item is under the pointer.
#pragma once

#include <imgui.h>

#include <deque>
#include <optional>
#include <vector>

#include "tinkertoy/view/camera.hpp"
#include "tinkertoy/view/sketch.hpp"
#include "tinkertoy/view/style.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy::studio {

// What the pointer is over: a model item and, for a point mass or a rigid body, the body point
// under it (a rigid body's site in its own frame).
struct Hit {
  SketchItem item;
  std::optional<BodyPoint> point;
  [[nodiscard]] bool empty() const { return std::holds_alternative<std::monostate>(item); }
};

Hit pick(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel);
// Every body under `pixel`, as the body point there: the rigid bodies whose shape is within a few
// pixels (the topmost first), then the nearest point mass within reach. What a joint placed
// there joins.
std::vector<BodyPoint> bodiesUnder(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel);
// The body point nearest `pixel` within `reach` pixels — a point mass, or the nearest point of a
// rigid body's outline — for a grab that just missed a moving body.
std::optional<BodyPoint> nearestBody(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel,
                                     double reach);
// Where a part placed at `pixel` goes (a world point, m): the nearest point that parts join at
// within reach — a bar's end (the middle of a box's short side), a shape's centre, a joint's pin,
// a point mass — or else the pointer itself.
Eigen::Vector2d snapped(const Sketch& sketch, const Camera& camera, const Eigen::Vector2d& pixel);

// The grid (lines every 1, 2 or 5 × 10^k m, at least 40 px apart), the axes, and a scale bar.
void drawGrid(ImDrawList& draw, const Camera& camera);
// The world's axes as seen in a 3D view: x, y and z from the canvas's bottom-left corner.
void drawAxes(ImDrawList& draw, const Camera& camera, const ViewDirection& view);
// A point's recent path (world positions, seen through `view`), fading with age: trails in
// colours::kTrail, the points the user traces in colours::kTrace.
void drawTrail(ImDrawList& draw, const Camera& camera, const ViewDirection& view, const std::deque<Eigen::Vector3d>& trail,
               const Colour& colour);
// A second run's picture over the first (compare mode): its links, springs, outlines and
// point masses, all in colours::kGhost, see-through.
void drawGhost(ImDrawList& draw, const Camera& camera, const Sketch& sketch);
// Everything in the sketch, rods coloured by λ (red tension, blue compression), with rings
// around the selected and the hovered item.
void drawSketch(ImDrawList& draw, const Camera& camera, const Sketch& sketch, const SketchItem& selected,
                const SketchItem& hovered);
// What a drag is about to make: a line (a rod, spring, wire or bar), a circle centred at `from`
// through `to` (a disc, or the circle a regular polygon's corners lie on), or a rectangle with
// corners `from` and `to` (a box).
enum class PreviewShape { Line, Circle, Rectangle };
void drawPreview(ImDrawList& draw, const Camera& camera, const Eigen::Vector2d& from, const Eigen::Vector2d& to,
                 PreviewShape shape = PreviewShape::Line);
// The Ground tool's polyline so far (world points), and a dashed line from its last point to the pointer.
void drawPolylinePreview(ImDrawList& draw, const Camera& camera, const std::vector<Eigen::Vector2d>& points,
                         const Eigen::Vector2d& pointer);

}  // namespace tinkertoy::studio
