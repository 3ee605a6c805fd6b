// Studio: tools, gestures and shortcuts (studio.hpp). The windows are in panels.cpp, the
// picture and the view in studio_view.cpp.
#include "studio.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cmath>
#include <iostream>

#include "layout.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy::studio {

namespace {

constexpr double kNewParticleMass = 1.0;    // kg
constexpr double kNewSpringStiffness = 50;  // N/m
constexpr double kNewSpringDamping = 1.0;   // N·s/m
constexpr double kMessageSeconds = 8.0;

// A point or vector as the scene format writes it: an array of its coordinates.
Json vectorJson(const Eigen::VectorXd& p) {
  Json array = Json::array();
  for (const double x : p) array.push_back(x);
  return array;
}

constexpr double kOrbitPerPixel = 0.01;  // rad of view turn per pixel of a right-button drag

// How the scene format names a body point (scene-format.md, "Points"): a chain's mass as
// {"body", "point"}, anything else by its body's id.
Json pointReference(const Model& model, const BodyPoint& p) {
  if (model.body(p.body).pointCount() > 1) return {{"body", model.name(p.body)}, {"point", p.site.index}};
  return model.name(p.body);
}

bool hasFrame(const Model& model, const BodyPoint& p) { return model.body(p.body).hasFrame(); }

}  // namespace

Studio::Studio(const std::optional<std::filesystem::path>& scene, const Eigen::Vector2d& window, bool scripted)
    : session_(document_), recent_(!scripted), window_(window) {
  camera_ = layout::newCanvasCamera(window);
  if (scene) open(*scene);
}

void Studio::setTool(Tool tool) {
  tool_ = tool;
  gesture_ = {};
}

void Studio::report(const std::string& message, bool error) {
  message_ = message;
  messageIsError_ = error;
  messageAge_ = 0.0;
  if (error) std::cerr << "tinkertoy-studio: " << message << '\n';
}

void Studio::open(const std::filesystem::path& file) {
  session_.endDrag();
  try {
    document_.open(file);
  } catch (const std::exception& e) {
    report(std::string("cannot open the scene: ") + e.what(), true);
    return;
  }
  recent_.add(file);
  view_ = document_.scene().model.dimension() == 3 ? ViewDirection::oblique() : ViewDirection::front();
  session_.clearTraces();
  afterLoad();
  frameModel();
  report("opened " + file.string(), false);
}

void Studio::newCanvas() {
  session_.endDrag();
  document_.newCanvas();
  view_ = ViewDirection::front();
  session_.clearTraces();
  afterLoad();
  camera_ = layout::newCanvasCamera(window_);
}

void Studio::whenDiscardable(std::function<void()> action) {
  afterDiscard_ = std::move(action);
  confirmDiscard_ = document_.dirty();  // ask first; the dialog runs the action on "Discard"
  if (!confirmDiscard_) afterDiscard_();
}

void Studio::afterLoad() {
  session_.restart();
  selected_ = hovered_ = std::monostate{};
  selectedPoint_.reset();
  gesture_ = {};
}

void Studio::dumpScene(const std::filesystem::path& file) {
  session_.endDrag();
  saveScene(document_.scene(), file);
}

bool Studio::mayClose() {
  if (!document_.dirty() || closeConfirmed_) return true;
  confirmDiscard_ = true;
  afterDiscard_ = [this] { closeConfirmed_ = true; };
  return false;
}

bool Studio::edit(const std::function<void(Json&)>& change) {
  session_.endDrag();
  const auto selection = document_.locate(selected_);  // edits add and change, so it stays put
  try {
    document_.edit(change);
  } catch (const std::exception& e) {
    report(e.what(), true);
    return false;
  }
  session_.sync();
  selected_ = selection ? document_.find(*selection) : SketchItem{};
  selectedPoint_.reset();  // the scene was reloaded: its ids are new
  return true;
}

void Studio::togglePlay() { session_.setPlaying(!session_.playing()); }

void Studio::reset() {
  session_.endDrag();
  document_.reset();
  session_.restart();
}

void Studio::undo() {
  if (!document_.canUndo()) return;
  session_.endDrag();
  document_.undo();
  afterLoad();
}

void Studio::redo() {
  if (!document_.canRedo()) return;
  session_.endDrag();
  document_.redo();
  afterLoad();
}

void Studio::save() {
  if (!document_.file()) {
    saveDialog_ = true;
    return;
  }
  try {
    document_.save();
    recent_.add(*document_.file());
    report("saved " + document_.file()->string(), false);
  } catch (const std::exception& e) {
    report(e.what(), true);
  }
}

void Studio::frame(double frameSeconds, bool deterministic) {
  messageAge_ += frameSeconds;
  if (!messageIsError_ && messageAge_ > kMessageSeconds) message_.clear();
  shortcuts();
  canvasInput();
  session_.advance(frameSeconds, deterministic);
  if (!session_.error().empty()) {
    report("the simulation stopped: " + session_.error() + " (the last good state is kept)", true);
    session_.clearError();
  }
  sketch_ = picture(showForces_);

  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  drawGrid(draw, camera_);
  if (document_.scene().model.dimension() == 3) drawAxes(draw, camera_, view_);
  if (showTrails_) {
    for (const auto& body : session_.trails()) {
      for (const auto& trail : body) drawTrail(draw, camera_, view_, trail);
    }
  }
  for (const Session::Trace& trace : session_.traces()) drawTrail(draw, camera_, view_, trace.path);
  drawSketch(draw, camera_, sketch_, selected_, hovered_);
  if (gesture_.kind == Gesture::Kind::Connect || gesture_.kind == Gesture::Kind::Wire) {
    drawPreview(draw, camera_, gesture_.startWorld, pointer_);
  }
  toolbar();
  sidePanel();
  statusBar();
  messageBanner();
  helpOverlay();
  fileDialogs();
}

void Studio::pressKey(int key, bool ctrl, bool shift) { pressedKeys_.push_back({key, ctrl, shift}); }

void Studio::shortcuts() {
  // A field being typed into takes the keys (ImGui has them from the backend); they are not
  // shortcuts then.
  if (!ImGui::GetIO().WantTextInput) {
    for (const KeyPress& press : pressedKeys_) shortcut(press.key, press.ctrl, press.shift);
  }
  pressedKeys_.clear();
}

void Studio::shortcut(int key, bool ctrl, bool shift) {
  if (ctrl) {
    if (key == GLFW_KEY_S) save();
    if (key == GLFW_KEY_Z) shift ? redo() : undo();
    if (key == GLFW_KEY_Y) redo();
    if (key == GLFW_KEY_O) openDialog_ = true;
    if (key == GLFW_KEY_N) whenDiscardable([this] { newCanvas(); });
    return;
  }
  switch (key) {
    case GLFW_KEY_SPACE:
      togglePlay();
      break;
    case GLFW_KEY_S:
      session_.step();
      break;
    case GLFW_KEY_R:
      reset();
      break;
    case GLFW_KEY_H:
    case GLFW_KEY_F1:
      showHelp_ = !showHelp_;
      break;
    case GLFW_KEY_F:
      frameModel();
      break;
    case GLFW_KEY_T:
      showTrails_ = !showTrails_;
      break;
    case GLFW_KEY_C:
      showForces_ = !showForces_;
      break;
    case GLFW_KEY_V:
      nextView();
      break;
    case GLFW_KEY_P:
      traceSelectedPoint();
      break;
    case GLFW_KEY_ESCAPE:
      gesture_ = {};
      selected_ = std::monostate{};
      selectedPoint_.reset();
      break;
    case GLFW_KEY_DELETE:
    case GLFW_KEY_BACKSPACE:
      if (!std::holds_alternative<std::monostate>(selected_)) remove(selected_);
      break;
    default: {
      constexpr Tool kByNumber[] = {Tool::Drag, Tool::Particle, Tool::Rod, Tool::Spring, Tool::Nail, Tool::Wire,
                                    Tool::Delete};
      if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + 7) setTool(kByNumber[key - GLFW_KEY_1]);
    }
  }
}

void Studio::canvasInput() {
  const ImGuiIO& io = ImGui::GetIO();
  const Eigen::Vector2d pixel(io.MousePos.x, io.MousePos.y);
  const Eigen::Vector2d corner = camera_.offset, far = camera_.offset + camera_.viewport;
  const bool onCanvas = !io.WantCaptureMouse && (pixel.array() >= corner.array()).all() && (pixel.array() < far.array()).all();
  pointer_ = camera_.toWorld(pixel);
  hovered_ = onCanvas ? pick(sketch_, camera_, pixel).item : SketchItem{};

  if (onCanvas && io.MouseWheel != 0.0f) camera_.zoomAbout(pixel, std::pow(1.2, io.MouseWheel));
  // The right button turns the view of a 3D model and pans a 2D one; the middle button pans.
  if (onCanvas && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    const bool orbit = document_.scene().model.dimension() == 3;
    gesture_ = {.kind = orbit ? Gesture::Kind::Orbit : Gesture::Kind::Pan, .lastPixel = pixel};
  }
  if (onCanvas && ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) gesture_ = {.kind = Gesture::Kind::Pan, .lastPixel = pixel};
  if (onCanvas && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    // Input is against what was drawn last frame, where the user saw it.
    sketch_ = picture();
    beginGesture(pick(sketch_, camera_, pixel), pointer_);
    gesture_.lastPixel = pixel;
  }
  const bool held = ImGui::IsMouseDown(ImGuiMouseButton_Left) || ImGui::IsMouseDown(ImGuiMouseButton_Right) ||
                    ImGui::IsMouseDown(ImGuiMouseButton_Middle);
  if (gesture_.kind != Gesture::Kind::None) {
    if (held) {
      updateGesture(pointer_, pixel);
    } else {
      endGesture(pointer_, pixel);
    }
  }
}

void Studio::beginGesture(const Hit& hit, const Eigen::Vector2d& world) {
  gesture_ = {.start = hit, .startWorld = world};
  Model& model = document_.scene().model;
  if (hit.point) gesture_.depth = depthOf(*hit.point);
  if (hit.point && !hasFrame(model, *hit.point)) gesture_.startWorld = pictureOf(*hit.point);
  switch (tool_) {
    case Tool::Drag:
      selected_ = hit.item;
      selectedPoint_ = hit.point;
      if (!hit.point) {
        if (hit.empty()) gesture_.kind = Gesture::Kind::Pan;
      } else if (session_.playing()) {
        session_.beginDrag(*hit.point, worldAt(world, gesture_.depth));
        gesture_.kind = Gesture::Kind::Drag;
      } else if (model.isParticle(hit.point->body) || hasFrame(model, *hit.point)) {
        gesture_.kind = Gesture::Kind::Move;
        gesture_.before = document_.text();
        const Eigen::VectorXd q = model.coordinates(hit.point->body);
        gesture_.grabOffset = hasFrame(model, *hit.point) ? Eigen::Vector2d(q[0], q[1]) - world : pictureOf(*hit.point) - world;
      } else {
        report("a " + std::string(model.body(hit.point->body).type()) +
                   " moves only along its own coordinates; press Space and drag it while it runs",
               false);
      }
      break;
    case Tool::Particle:
      if (hit.point) {
        selected_ = hit.item;
      } else {
        const std::string id = document_.freshBodyId("p");
        if (edit([&](Json& scene) {
              scene["particles"].push_back({{"id", id}, {"mass", kNewParticleMass}, {"position", vectorJson(worldAt(world, 0.0))}});
            })) {
          selected_ = document_.scene().model.findBody(id).value();
        }
      }
      break;
    case Tool::Rod:
    case Tool::Spring:
      gesture_.kind = Gesture::Kind::Connect;
      break;
    case Tool::Nail:
      if (hit.point) nail(hit);
      break;
    case Tool::Wire:
      if (hit.point) gesture_.kind = Gesture::Kind::Wire;
      break;
    case Tool::Delete:
      if (!hit.empty()) remove(hit.item);
      break;
  }
}

void Studio::updateGesture(const Eigen::Vector2d& world, const Eigen::Vector2d& pixel) {
  Model& model = document_.scene().model;
  switch (gesture_.kind) {
    case Gesture::Kind::Pan: {
      const Eigen::Vector2d d = (pixel - gesture_.lastPixel) / camera_.scale;
      camera_.center -= Eigen::Vector2d(d.x(), -d.y());
      break;
    }
    case Gesture::Kind::Orbit: {
      // Turning about the point at the middle of the canvas, which stays there.
      const Eigen::Vector3d pivot = view_.toWorld(camera_.center, 0.0);
      const Eigen::Vector2d d = pixel - gesture_.lastPixel;
      view_.orbit(-kOrbitPerPixel * d.x(), kOrbitPerPixel * d.y());
      camera_.center = view_.toPicture(pivot);
      break;
    }
    case Gesture::Kind::Drag:
      session_.moveDrag(worldAt(world, gesture_.depth));
      break;
    case Gesture::Kind::Move: {
      const BodyId body = gesture_.start.point->body;
      if (!model.contains(body)) break;
      Eigen::VectorXd q = model.coordinates(body);
      if (hasFrame(model, *gesture_.start.point)) {
        q.head<2>() = world + gesture_.grabOffset;
      } else {
        q = worldAt(world + gesture_.grabOffset, gesture_.depth);
      }
      model.setCoordinates(body, q);
      session_.simulator().refreshDiagnostics();
      break;
    }
    default:
      break;
  }
  gesture_.lastPixel = pixel;
}

void Studio::endGesture(const Eigen::Vector2d& world, const Eigen::Vector2d& pixel) {
  const Gesture g = gesture_;
  gesture_ = {};
  switch (g.kind) {
    case Gesture::Kind::Drag:
      session_.endDrag();
      break;
    case Gesture::Kind::Move:
      if (document_.text() != g.before) document_.recordChange(g.before);
      session_.sync();
      break;
    case Gesture::Kind::Connect:
      connect(g.start, g.startWorld, pick(picture(), camera_, pixel), world);
      break;
    case Gesture::Kind::Wire:
      wire(g.start, world);
      break;
    default:
      break;
  }
}

void Studio::connect(const Hit& from, const Eigen::Vector2d& fromWorld, const Hit& to, const Eigen::Vector2d& toWorld) {
  if ((from.point && to.point && *from.point == *to.point) || (toWorld - fromWorld).norm() * camera_.scale < 4.0) {
    return;  // a click, not a drag
  }
  const Model& model = document_.scene().model;
  // An end on nothing gets a new particle there.
  std::string newFrom, newTo;
  if (!from.point) newFrom = document_.freshBodyId("p");
  if (!to.point) newTo = document_.freshBodyId("p", {newFrom});
  const auto end = [&](Json& connection, const char* key, const char* anchorKey, const Hit& hit,
                       const std::string& fresh, const Eigen::Vector2d& at) {
    if (!hit.point) {
      connection[key] = fresh;
      return;
    }
    connection[key] = pointReference(model, *hit.point);
    if (hasFrame(model, *hit.point)) connection[anchorKey] = vectorJson(at);
  };
  const bool rod = tool_ == Tool::Rod;
  // In 3D a new end lies in the plane (parallel to the picture) of the point at the other end.
  const double depth = from.point ? depthOf(*from.point) : to.point ? depthOf(*to.point) : 0.0;
  edit([&](Json& scene) {
    for (const auto& [id, at] : {std::pair{newFrom, fromWorld}, std::pair{newTo, toWorld}}) {
      if (!id.empty()) {
        scene["particles"].push_back({{"id", id}, {"mass", kNewParticleMass}, {"position", vectorJson(worldAt(at, depth))}});
      }
    }
    Json connection{{"type", rod ? "distance" : "spring"}};
    end(connection, "a", "anchor_a", from, newFrom, fromWorld);
    end(connection, "b", "anchor_b", to, newTo, toWorld);
    if (rod) {
      scene["constraints"].push_back(connection);
    } else {
      connection["stiffness"] = kNewSpringStiffness;
      connection["damping"] = kNewSpringDamping;
      scene["forces"].push_back(connection);
    }
  });
}

void Studio::nail(const Hit& hit) {
  const Model& model = document_.scene().model;
  edit([&](Json& scene) {
    if (hasFrame(model, *hit.point)) {
      // A rigid body is nailed where it was clicked: a hinge to the world.
      scene["constraints"].push_back({{"type", "revolute"},
                                      {"a", pointReference(model, *hit.point)},
                                      {"b", nullptr},
                                      {"anchor", vectorJson(pictureOf(*hit.point))}});
    } else {
      scene["constraints"].push_back({{"type", "fixed"}, {"particle", pointReference(model, *hit.point)}});
    }
  });
}

void Studio::wire(const Hit& hit, const Eigen::Vector2d& center) {
  const Model& model = document_.scene().model;
  if (hasFrame(model, *hit.point)) {
    report("a wire holds a point mass; join rigid bodies with joints (see docs/scene-format.md)", true);
    return;
  }
  // In 3D the wire is a sphere about a point in the particle's plane (parallel to the picture).
  const Eigen::VectorXd centre = worldAt(center, depthOf(*hit.point));
  edit([&](Json& scene) {
    scene["constraints"].push_back(
        {{"type", "circle"}, {"particle", pointReference(model, *hit.point)}, {"center", vectorJson(centre)}});
  });
}

void Studio::remove(const SketchItem& item) {
  Model& model = document_.scene().model;
  session_.endDrag();
  std::string before = document_.text();
  if (const auto* body = std::get_if<BodyId>(&item); body && model.contains(*body)) {
    model.removeBody(*body);
  } else if (const auto* constraint = std::get_if<ConstraintId>(&item); constraint && model.contains(*constraint)) {
    model.removeConstraint(*constraint);
  } else if (const auto* force = std::get_if<ForceId>(&item); force && model.contains(*force)) {
    model.removeForce(*force);
  } else {
    return;
  }
  document_.recordChange(std::move(before));
  selected_ = hovered_ = std::monostate{};
  selectedPoint_.reset();
  session_.sync();
}

}  // namespace tinkertoy::studio
