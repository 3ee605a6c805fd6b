// Studio: what the canvas shows and from where (studio.hpp) — the picture of the model, the
// map between canvas points and world points through the 3D view, the views V steps through,
// traced points, and framing.
#include <algorithm>
#include <utility>

#include "layout.hpp"
#include "studio.hpp"
#include "tinkertoy/view/default_view.hpp"
#include "tinkertoy/view/swing_bounds.hpp"

namespace tinkertoy::studio {

void Studio::setWindowSize(const Eigen::Vector2d& window) {
  window_ = window;
  camera_ = layout::onCanvas(camera_, window);
}

Sketch Studio::picture(bool constraintForces, bool contacts) {
  return sketch(document_.scene().model, &session_.simulator(),
                {.constraintForces = constraintForces, .contacts = contacts, .view = view_});
}

Eigen::VectorXd Studio::worldAt(const Eigen::Vector2d& picture, double depth) const {
  return view_.toWorld(picture, depth).head(document_.scene().model.dimension());
}

Eigen::Vector2d Studio::pictureOf(const BodyPoint& p) const {
  return view_.toPicture(document_.scene().model.position(p));
}

double Studio::depthOf(const BodyPoint& p) const { return view_.depth(document_.scene().model.position(p)); }

void Studio::traceSelectedPoint() {
  const Model& model = document_.scene().model;
  if (!selectedPoint_ || !model.contains(selectedPoint_->body)) {
    report("select a point first: click a particle or a point of a rigid body with the Drag tool, then press P", false);
    return;
  }
  const bool traced = session_.toggleTrace(*selectedPoint_);
  report((traced ? "tracing " : "stopped tracing ") + model.describe(*selectedPoint_), false);
}

void Studio::nextView() {
  if (document_.scene().model.dimension() != 3) {
    report("a 2D model is drawn in its own plane: there is only the front view", false);
    return;
  }
  // front → top → side → oblique → front; a view turned by hand goes to the front first.
  constexpr std::pair<const char*, const char*> kNext[] = {
      {"front", "top"}, {"top", "side"}, {"side", "oblique"}, {"oblique", "front"}};
  const char* next = "front";
  for (const auto& [name, after] : kNext) {
    const ViewDirection v = *ViewDirection::named(name);
    if (v.azimuth == view_.azimuth && v.elevation == view_.elevation) next = after;
  }
  const ViewDirection turned = *ViewDirection::named(next);
  view_.azimuth = turned.azimuth;  // perspective, if on, stays on
  view_.elevation = turned.elevation;
  report(std::string("view: ") + next, false);
}

void Studio::togglePerspective() {
  const Model& model = document_.scene().model;
  if (model.dimension() != 3) {
    report("a 2D model is drawn in its own plane, without perspective", false);
    return;
  }
  if (view_.perspective()) {
    view_.eyeDistance = 0.0;
    view_.focus.setZero();
  } else {
    view_ = inPerspective(view_, model);
  }
  report(view_.perspective() ? "perspective (O: orthographic)" : "orthographic (O: perspective)", false);
}

// The model, the circles it can swing through where it is held (swing_bounds.hpp), and the
// paths its points took so far (trails and traces), so that F shows the whole motion, not only
// the pose of the moment.
void Studio::frameModel() {
  const Model& model = document_.scene().model;
  const Sketch picture = sketch(model, nullptr, {.view = view_});
  Bounds bounds = picture.bounds();
  bounds.add(session_.pathBounds(view_));
  bounds.add(swingBounds(model, picture));
  if (bounds.empty()) {
    camera_ = layout::newCanvasCamera(window_);
    return;
  }
  camera_ = layout::onCanvas(Camera::frame(bounds, layout::onCanvas(camera_, window_).viewport, 0.12), window_);
}

}  // namespace tinkertoy::studio
