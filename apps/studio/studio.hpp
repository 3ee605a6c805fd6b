// Studio: the Tinkertoy Studio application — building tools, the mouse drag, panels and
// shortcuts over a Document (the scene and its edits), a Session (the running simulation)
// and the Canvas (the picture). It reads input only through ImGui's IO, so a script can feed
// it the same way a user does.
//
//   studio.frame(1.0 / 60, deterministic);   // between ImGui::NewFrame() and ImGui::Render()
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <functional>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "canvas.hpp"
#include "document.hpp"
#include "ghost_run.hpp"
#include "inspection.hpp"
#include "recent_files.hpp"
#include "scene_list.hpp"
#include "session.hpp"
#include "tool.hpp"
#include "window_capture.hpp"
#include "tinkertoy/view/camera.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy::studio {

// Whether `file` is one of the scenes shipped with Tinkertoy (scenes/, kept as shipped: Save
// writes a copy elsewhere).
bool isShippedExample(const std::filesystem::path& file);

class Studio {
 public:
  // Opens `scene`, or an empty canvas; a scene that fails to load leaves the empty canvas and
  // an error message. `scripted`: a replay, which keeps the recent-files list in memory.
  // Screenshots (F12) and recordings (F9) go to `captureDirectory`.
  Studio(const std::optional<std::filesystem::path>& scene, const Eigen::Vector2d& window, bool scripted,
         const std::filesystem::path& captureDirectory);

  // One frame: input, simulation (frameSeconds of it, times the time scale) and all drawing.
  void frame(double frameSeconds, bool deterministic);
  // A key press (GLFW key code and modifiers), queued for the next frame's shortcuts: each acts
  // exactly once, however short the press and however many come in one frame (polling ImGui's
  // key state lost quick taps and merged presses within a frame).
  void pressKey(int key, bool ctrl, bool shift);
  void setWindowSize(const Eigen::Vector2d& window);
  // After the frame is drawn and before it is shown: the screenshot or video frame asked for.
  void afterRender(int width, int height);

  void setTool(Tool tool);
  // Starts the simulation (as Space does when paused).
  void play() { session_.setPlaying(true); }
  // Compare mode: the model also runs under `flags` (settings flags, as `tinkertoy compare`
  // takes them), from its state now, drawn as a ghost; a bad flag is reported and changes
  // nothing. Empty flags run the scene's own settings. stopCompare() ends it.
  void compare(const std::string& flags);
  void stopCompare();
  // Opens a scene; a bad file leaves the document as it was and shows (and prints) why.
  void open(const std::filesystem::path& file);
  // Opens a scene once unsaved changes may go (asks first, as the Open dialog does): a file
  // dropped on the window or picked in the browser.
  void offerToOpen(const std::filesystem::path& file);
  // Writes the live model in its current state (an end drag is let go first).
  void dumpScene(const std::filesystem::path& file);
  [[nodiscard]] const Camera& camera() const { return camera_; }
  // How a 3D model is seen: oblique when one is opened, turned by a right-button drag, and
  // front, top, side or oblique in turn with V, in perspective or not with O. A 2D model is
  // always seen from the front, orthographically.
  [[nodiscard]] const ViewDirection& view() const { return view_; }
  // Whether the window may close now; with unsaved changes, asks first and says no.
  bool mayClose();

 private:
  // --- input on the canvas (studio.cpp)
  // Acts on the queued key presses, in order (none while a text field has the keyboard).
  void shortcuts();
  void shortcut(int key, bool ctrl, bool shift);
  void canvasInput();
  void beginGesture(const Hit& hit, const Eigen::Vector2d& world);
  // The body point whose path of the last few frames passed nearest `pixel`, within the grab's
  // reach: a press at a fast body lands where it was when the hand aimed.
  [[nodiscard]] std::optional<BodyPoint> recentlyPassed(const Eigen::Vector2d& pixel) const;
  void updateGesture(const Eigen::Vector2d& world, const Eigen::Vector2d& pixel);
  void endGesture(const Eigen::Vector2d& world, const Eigen::Vector2d& pixel);
  void remove(const SketchItem& item);
  // --- the point-mass tools (point_mass_tools.cpp)
  void addParticle(const Eigen::Vector2d& world);
  void connect(const Hit& from, const Eigen::Vector2d& fromWorld, const Hit& to, const Eigen::Vector2d& toWorld);
  void nail(const Hit& hit);
  void wire(const Hit& hit, const Eigen::Vector2d& center);
  // --- the rigid-body tools (rigid_body_tools.cpp); 2D only, as rigid bodies are
  // False, with a message, if the model cannot have rigid bodies.
  bool rigidBodiesAllowed();
  // A bar from `from` to `to`, or a disc centred at `from` with its rim through `to` (world, m).
  void placePart(const Eigen::Vector2d& from, const Eigen::Vector2d& to);
  // A revolute joint (or a weld) at the part point nearest `pixel`, joining the bodies there.
  void join(const Eigen::Vector2d& pixel, bool weld);
  // Puts a motor on the revolute joint `hit` names, or takes it off.
  void toggleMotor(const Hit& hit);
  // The fields of the tool in hand (density, width, sides, motor speed and torque), in the tool bar.
  void partOptions();
  // --- the contact tools (contact_tools.cpp)
  // A box with corners `from` and `to`, or a regular polygon centred at `from` with a corner at
  // `to` (world, m); turns collisions on.
  void placeShape(const Eigen::Vector2d& from, const Eigen::Vector2d& to);
  // The Ground tool's click: the polyline's next point, or its end on the last point again.
  void groundClick(const Eigen::Vector2d& world);
  // Makes the clicked points static ground (a segment, or a polyline of three or more).
  void finishGround();
  // Runs an edit of the document; a loader error is shown and changes nothing.
  bool edit(const std::function<void(Json&)>& change);
  void afterLoad();
  void newCanvas();
  // Runs `action` now, or after the user agrees to discard unsaved changes.
  void whenDiscardable(std::function<void()> action);
  void frameModel();
  // The model as drawn now (the picture the pointer acts on).
  [[nodiscard]] Sketch picture(bool constraintForces = false, bool contacts = false);
  // The world point at `picture` (a point on the canvas, m) and `depth` toward the viewer,
  // [dimension]: in 2D the picture point itself.
  [[nodiscard]] Eigen::VectorXd worldAt(const Eigen::Vector2d& picture, double depth) const;
  // Where a body point is on the picture plane, and its depth.
  [[nodiscard]] Eigen::Vector2d pictureOf(const BodyPoint& p) const;
  [[nodiscard]] double depthOf(const BodyPoint& p) const;
  void nextView();
  // 3D: perspective on the model as it is now (default_view.hpp's inPerspective), or off.
  void togglePerspective();
  // Starts or stops tracing the point last clicked with the Drag tool (P).
  void traceSelectedPoint();
  void report(const std::string& message, bool error);
  void togglePlay();
  void reset();
  void undo();
  void redo();
  void save();
  // What screenshots and recordings are named after: the scene file's stem, or "untitled".
  [[nodiscard]] std::string captureName() const;

  // --- windows (panels.cpp)
  void toolbar();
  void sidePanel();
  void inspector();
  // One field of the inspected item at `at` in the scene's JSON, edited by its kind (a number, a
  // vector, a flag); an object's fields each get their own ("shape.size").
  void inspectorField(const Json::json_pointer& at, const std::string& name, const Json& value);
  // A colliding body's friction and restitution where it has none of its own: the settings' it
  // falls back on, which an edit makes its own.
  void surfaceFields(const Json::json_pointer& at, const Json& item);
  void settingsPanel();
  // The compare mode's flags field, start and stop, and the one-line table of the two runs' costs.
  void comparePanel();
  // With a rigid rod selected: the ghost with a spring in its place, of a stiffness to choose.
  void springForSelectedRod();
  // Keeps the ghost on the first run's clock; after an edit, a reset or an undo it starts again
  // from the model's state then.
  void advanceGhost();
  void plots();
  void workLedger();
  [[nodiscard]] std::string ledgerText() const;
  void statusBar();
  void helpOverlay();
  void messageBanner();
  void fileDialogs();  // file_dialogs.cpp

  struct Gesture {
    enum class Kind { None, Pan, Orbit, Move, Drag, Connect, Wire, Part };
    Kind kind = Kind::None;
    Hit start;
    Eigen::Vector2d startWorld = Eigen::Vector2d::Zero();
    Eigen::Vector2d lastPixel = Eigen::Vector2d::Zero();
    Eigen::Vector2d grabOffset = Eigen::Vector2d::Zero();
    double depth = 0.0;  // of the point grabbed (a 3D model is moved and dragged in its plane)
    std::string before;  // the scene text before a move, for undo
  };

  Document document_;
  Session session_;
  RecentFiles recent_;
  WindowCapture capture_;
  Camera camera_;
  ViewDirection view_;  // always the front view for a 2D model (set on open, turned only in 3D)
  Eigen::Vector2d window_;
  Tool tool_ = Tool::Drag;
  // What the rigid-body tools build with.
  struct PartSettings {
    double density = 10.0;                  // kg/m² (a plane body's mass per area)
    double barWidth = 0.08;                 // m
    double motorSpeed = std::numbers::pi;   // rad/s, counter-clockwise
    double motorTorque = 50.0;              // N·m, the most the motor exerts
    int sides = 5;                          // of a regular polygon, 3 to kMaxConvexVertices
  };
  PartSettings parts_;
  Gesture gesture_;
  std::vector<Eigen::Vector2d> groundPoints_;  // the Ground tool's polyline so far (world, m)
  SketchItem selected_, hovered_;
  std::optional<BodyPoint> selectedPoint_;  // the body point clicked with the Drag tool
  Sketch sketch_;
  Eigen::Vector2d pointer_ = Eigen::Vector2d::Zero();  // on the picture plane, m
  std::string message_;
  bool messageIsError_ = false;
  double messageAge_ = 0.0;  // s
  double clock_ = 0.0;       // s: the frame clock, what recordings are timed by

  struct KeyPress {
    int key;
    bool ctrl, shift;
  };
  std::vector<KeyPress> pressedKeys_;  // since the last frame, in order
  bool showTrails_ = false, showForces_ = false, showContacts_ = false, showHelp_ = false;
  bool openDialog_ = false, saveDialog_ = false, confirmDiscard_ = false;
  std::function<void()> afterDiscard_;  // what to do once unsaved changes may go
  bool closeConfirmed_ = false;
  std::string pathField_;
  std::vector<SceneEntry> examples_;  // the Open dialog's, read when it opens
  Inspection inspection_;  // the selected item's JSON as the inspector shows it
  std::unique_ptr<GhostRun> ghost_;  // compare mode's second run, when on
  std::string ghostFlags_;           // the compare field's text
  bool openCompare_ = false;         // open the Compare section at the next frame
  std::uint64_t ghostRevision_ = 0;  // the document revision the ghost started from
  float springStiffness_ = 1000.0f, springDamping_ = 1.0f;  // N/m, N·s/m: a selected rod made a spring
  double plotWindow_ = 10.0;         // s of history the plots show (∞: all they keep)
};

}  // namespace tinkertoy::studio
