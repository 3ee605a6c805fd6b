// Studio: input and gestures (studio.hpp). The keyboard shortcuts are in studio_keys.cpp, what
// the building tools make in point_mass_tools.cpp and rigid_body_tools.cpp, the windows in
// panels.cpp, the picture and the view in studio_view.cpp.
#include "studio.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <array>
#include <cmath>
#include <iostream>

#include "common/article.hpp"
#include "layout.hpp"
#include "platform.hpp"
#include "scene_json.hpp"
#include "tinkertoy/dynamics/pose_projection.hpp"
#include "tinkertoy/view/default_view.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy::studio {

namespace {

constexpr double kMessageSeconds = 8.0;
constexpr double kErrorSeconds = 30.0;  // an error stays longer, and goes with "dismiss" sooner
constexpr double kOrbitPerPixel = 0.01;  // rad of view turn per pixel of a right-button drag
constexpr double kGrabReach = 40.0;      // px: a Drag press this near a moving body grabs it
constexpr std::size_t kRecentFrames = 20;  // a third of a second: how late a press at a fast body may be

}  // namespace

Studio::Studio(const std::optional<std::filesystem::path>& scene, const Eigen::Vector2d& window, bool scripted,
               const std::filesystem::path& captureDirectory)
    : session_(document_), recent_(!scripted), capture_(captureDirectory), window_(window) {
  camera_ = layout::newCanvasCamera(window);
  if (scene) open(*scene);
}

void Studio::setTool(Tool tool) {
  tool_ = tool;
  gesture_ = {};
  groundPoints_.clear();
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
  view_ = defaultView(document_.scene().model);
  session_.forgetScene();
  afterLoad();
  frameModel();
  report("opened " + file.string(), false);
}

void Studio::offerToOpen(const std::filesystem::path& file) {
  whenDiscardable([this, file] { open(file); });
}

void Studio::newCanvas() {
  session_.endDrag();
  document_.newCanvas();
  message_.clear();  // the last scene's news
  view_ = ViewDirection::front();
  session_.forgetScene();
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

std::optional<BodyPoint> Studio::recentlyPassed(const Eigen::Vector2d& pixel) const {
  const Model& model = document_.scene().model;
  const auto& trails = session_.trails();
  std::optional<BodyPoint> nearest;
  double best = kGrabReach;
  for (std::size_t b = 0; b < trails.size() && b < model.bodyCount(); ++b) {
    const BodyId body = model.bodyAt(b);
    const bool framed = model.body(body).hasFrame();  // its trail is its origin's
    for (std::size_t k = 0; k < trails[b].size(); ++k) {
      const auto& trail = trails[b][k];
      const std::size_t from = trail.size() > kRecentFrames ? trail.size() - kRecentFrames : 0;
      for (std::size_t i = from; i < trail.size(); ++i) {
        const double distance = (camera_.toPixels(view_.toPicture(trail[i])) - pixel).norm();
        if (distance > best) continue;
        best = distance;
        nearest = framed ? BodyPoint(body, Eigen::Vector2d::Zero()) : BodyPoint(body, static_cast<int>(k));
      }
    }
  }
  return nearest;
}

void Studio::reset() {
  session_.endDrag();
  document_.reset();
  session_.restart();
  frameModel();  // the view the model opened in, not the one it ran off to
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
  if (!document_.file() || isShippedExample(*document_.file())) {  // the examples stay as shipped
    saveDialog_ = true;
    return;
  }
  try {
    document_.save();
    platform::deliver(*document_.file());
    recent_.add(*document_.file());
    report("saved " + document_.file()->string(), false);
  } catch (const std::exception& e) {
    report(e.what(), true);
  }
}

void Studio::frame(double frameSeconds, bool deterministic) {
  clock_ += frameSeconds;
  messageAge_ += frameSeconds;
  if (messageAge_ > (messageIsError_ ? kErrorSeconds : kMessageSeconds)) message_.clear();
  shortcuts();
  canvasInput();
  session_.advance(frameSeconds, deterministic);
  advanceGhost();
  if (!session_.error().empty()) {
    report("the simulation stopped: " + session_.error(), true);  // the message says which state is kept
    session_.clearError();
  }
  sketch_ = picture(showForces_, showContacts_);

  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  drawGrid(draw, camera_);
  if (document_.scene().model.dimension() == 3) drawAxes(draw, camera_, view_);
  if (showTrails_) {
    for (const auto& body : session_.trails()) {
      for (const auto& trail : body) drawTrail(draw, camera_, view_, trail, colours::kTrail);
    }
  }
  for (const Session::Trace& trace : session_.traces()) drawTrail(draw, camera_, view_, trace.path, colours::kTrace);
  drawSketch(draw, camera_, sketch_, selected_, hovered_);
  if (ghost_) drawGhost(draw, camera_, sketch(ghost_->scene().model, &ghost_->simulator(), {.view = view_}));
  if (gesture_.kind == Gesture::Kind::Connect || gesture_.kind == Gesture::Kind::Wire ||
      gesture_.kind == Gesture::Kind::Part) {
    const bool part = gesture_.kind == Gesture::Kind::Part;
    const PreviewShape shape = !part                                          ? PreviewShape::Line
                               : tool_ == Tool::Disc || tool_ == Tool::Polygon ? PreviewShape::Circle
                               : tool_ == Tool::Box                            ? PreviewShape::Rectangle
                                                                               : PreviewShape::Line;
    drawPreview(draw, camera_, gesture_.startWorld, part ? snapped(sketch_, camera_, camera_.toPixels(pointer_)) : pointer_,
                shape);
  }
  drawPolylinePreview(draw, camera_, groundPoints_, pointer_);
  toolbar();
  sidePanel();
  statusBar();
  if (!capture_.capturing()) messageBanner();  // shown again once the picture is taken
  helpOverlay();
  fileDialogs();
}

void Studio::afterRender(int width, int height) {
  if (const auto note = capture_.afterRender(width, height, clock_)) report(note->message, note->error);
}

std::string Studio::captureName() const {
  return document_.file() ? document_.file()->stem().string() : std::string("untitled");
}

void Studio::pressKey(int key, bool ctrl, bool shift) { pressedKeys_.push_back({key, ctrl, shift}); }

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
  // A point mass is taken at its centre; a point of a rigid body snaps to a bar's end or a pin.
  if (hit.point) {
    gesture_.startWorld = hasFrame(model, *hit.point) ? snapped(sketch_, camera_, camera_.toPixels(world))
                                                      : pictureOf(*hit.point);
  }
  switch (tool_) {
    case Tool::Drag:
      selected_ = hit.item;
      selectedPoint_ = hit.point;
      if (!hit.point && hit.empty() && session_.playing()) {
        // A moving body is easy to miss: the nearest one within reach is grabbed instead.
        if (const auto near = nearestBody(sketch_, camera_, camera_.toPixels(world), kGrabReach)) {
          beginGesture({near->body, near}, world);
          return;
        }
        // ... or one that passed there a moment ago: a hand aims at a fast body a little late.
        if (const auto passed = recentlyPassed(camera_.toPixels(world))) {
          beginGesture({passed->body, passed}, world);
          return;
        }
      }
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
        report(detail::withArticle(model.body(hit.point->body).type()) +
                   " moves only along its own coordinates; press Space and drag it while it runs",
               false);
      }
      break;
    case Tool::Particle:
      if (hit.point) {
        selected_ = hit.item;
      } else {
        addParticle(world);
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
    case Tool::Bar:
    case Tool::Disc:
    case Tool::Box:
    case Tool::Polygon:
      if (!rigidBodiesAllowed()) break;
      gesture_.kind = Gesture::Kind::Part;
      gesture_.startWorld = snapped(sketch_, camera_, camera_.toPixels(world));
      break;
    case Tool::Hinge:
    case Tool::Weld:
      if (rigidBodiesAllowed()) join(camera_.toPixels(world), tool_ == Tool::Weld);
      break;
    case Tool::Motor:
      toggleMotor(hit);
      break;
    case Tool::Ground:
      if (rigidBodiesAllowed()) groundClick(world);
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
      // Paused, the model moves along its constraints: the rest follows the part in hand.
      try {
        projectPose(model, std::array{body});
      } catch (const std::exception& e) {
        report(std::string("the constraints cannot be met here: ") + e.what(), true);
      }
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
    case Gesture::Kind::Connect: {
      const Sketch now = picture();
      const Hit end = pick(now, camera_, pixel);
      const bool onRigidBody = end.point && hasFrame(document_.scene().model, *end.point);
      connect(g.start, g.startWorld, end, onRigidBody ? snapped(now, camera_, pixel) : world);
      break;
    }
    case Gesture::Kind::Wire:
      wire(g.start, world);
      break;
    case Gesture::Kind::Part:
      if (tool_ == Tool::Box || tool_ == Tool::Polygon) {
        placeShape(g.startWorld, snapped(sketch_, camera_, pixel));
      } else {
        placePart(g.startWorld, snapped(sketch_, camera_, pixel));
      }
      break;
    default:
      break;
  }
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
