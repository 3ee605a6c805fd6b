// Document: the scene being built in the Studio — the live Scene, the file it belongs to, the
// state Reset returns to, and undo/redo.
//
// Every edit goes through the scene format. The live model is written out (writeScene), the
// JSON is changed, and the result is loaded again (parseScene). So the Studio builds no physics
// objects of its own, the loader validates every edit (a zero-length rod is refused with the
// loader's message and changes nothing), and undo is a stack of scene texts. Items are found in
// the JSON by JSON pointer: "/particles/2", "/constraints/5", "/forces/0".
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scene_json.hpp"
#include "tinkertoy/scene/scene.hpp"
#include "tinkertoy/view/sketch.hpp"

namespace tinkertoy::studio {

class Document {
 public:
  // An empty canvas.
  Document();

  // Loads a scene file. On a bad file throws SceneError and keeps the current document.
  void open(const std::filesystem::path& file);
  void newCanvas();
  // Writes the scene as built (the state Reset returns to) to its file, or to `file`, which
  // becomes its file. Throws SceneError if the file cannot be written.
  void save();
  void saveAs(const std::filesystem::path& file);

  [[nodiscard]] const std::optional<std::filesystem::path>& file() const { return file_; }
  // Whether the design (what Reset returns to) differs from the file's, or from the empty
  // canvas: an edit undone back to the saved state is not a change.
  [[nodiscard]] bool dirty() const { return dirty_; }
  [[nodiscard]] Scene& scene() { return scene_; }
  [[nodiscard]] const Scene& scene() const { return scene_; }
  // Grows by one whenever scene() is replaced or its settings change, so a simulator of the old
  // one can be rebuilt.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }

  // The live scene as JSON (and as scene text), at its current state.
  [[nodiscard]] Json json() const;
  [[nodiscard]] std::string text() const { return writeScene(scene_); }
  // Applies `change` to json() and loads the result: the current state with the change made.
  // The previous state goes on the undo stack and the result becomes what Reset returns to.
  // On a loader error throws SceneError (its path is in the changed JSON) and changes nothing.
  void edit(const std::function<void(Json&)>& change);
  // Records a change already made to the live model through the library (a move, a removal):
  // `before` (text() before the change) goes on the undo stack, and the model as it is becomes
  // what Reset returns to.
  void recordChange(std::string before);
  // The simulation settings, changed without reloading the model; an edit like any other: the
  // previous design goes on the undo stack, and the design takes the new settings.
  void setSettings(const SimulationSettings& settings);

  void undo();
  void redo();
  [[nodiscard]] bool canUndo() const { return !undo_.empty(); }
  [[nodiscard]] bool canRedo() const { return !redo_.empty(); }
  // Back to the state after the last edit, load or undo.
  void reset();

  // Where a model item sits in json(), or nothing for what the file does not hold (gravity,
  // a mouse drag, a broken joint).
  [[nodiscard]] std::optional<Json::json_pointer> locate(const SketchItem& item) const;
  // The model item at a pointer locate() gave, in the live scene.
  [[nodiscard]] SketchItem find(const Json::json_pointer& pointer) const;
  // An id no body has yet, nor is in `taken`: "<prefix><n>".
  [[nodiscard]] std::string freshBodyId(const std::string& prefix, const std::set<std::string>& taken = {}) const;

 private:
  void load(Scene scene, std::string text);
  // The design is the saved one now (after open, save, new canvas).
  void markSaved();
  // The design changed: dirty unless it is the saved one again.
  void designChanged();
  void pushUndo(std::string before);
  // Undo (from undo_ to redo_) or redo (the other way): the design (the state right after the
  // last change, not the running state) goes on `to`.
  void travel(std::vector<std::string>& from, std::vector<std::string>& to, std::string_view source);

  Scene scene_;
  std::string design_;  // scene text Reset returns to
  std::vector<std::string> undo_, redo_;
  std::optional<std::filesystem::path> file_;
  Json savedDesign_;  // the design as last opened or saved, as JSON (formatting aside)
  bool dirty_ = false;
  std::uint64_t revision_ = 0;
};

// The scene a new canvas starts from: 2D, gravity, Witkin's formulation with RK4, exact LDLᵀ
// solves and projection, so rods hold to round-off while the user pulls on them.
std::string_view emptyCanvasScene();

}  // namespace tinkertoy::studio
