// Document: edits as scene-format round trips (document.hpp).
#include "document.hpp"

#include <algorithm>

#include "tinkertoy/forces/force_settings.hpp"

namespace tinkertoy::studio {

namespace {

constexpr std::size_t kUndoDepth = 200;

// The writer leaves out gravity (it goes to the top level) and mouse springs (scene-format.md,
// "Writing scenes"); every other force is an entry of "forces".
bool isWritten(const Force& force) {
  const ForceSettings settings = force.settings();
  return !std::holds_alternative<GravitySettings>(settings) && !std::holds_alternative<MouseSpringSettings>(settings);
}

}  // namespace

std::string_view emptyCanvasScene() {
  return R"({
  "name": "untitled",
  "dimension": 2,
  "gravity": [0, -9.81],
  "settings": {"dt": 0.004166666666666667, "integrator": "rk4", "solver": "ldlt", "ks": 0, "kd": 0,
               "project": true},
  "particles": []
})";
}

Document::Document() : scene_(parseScene(emptyCanvasScene(), "<new canvas>")), design_(emptyCanvasScene()) {}

void Document::load(Scene scene, std::string text) {
  scene_ = std::move(scene);
  design_ = std::move(text);
  ++revision_;
  designChanged();
}

void Document::markSaved() {
  savedDesign_ = Json::parse(design_);
  dirty_ = false;
}

void Document::designChanged() { dirty_ = Json::parse(design_) != savedDesign_; }

void Document::newCanvas() {
  load(parseScene(emptyCanvasScene(), "<new canvas>"), std::string(emptyCanvasScene()));
  undo_.clear();
  redo_.clear();
  file_.reset();
  markSaved();
}

void Document::open(const std::filesystem::path& file) {
  Scene scene = loadScene(file);  // throws, leaving everything as it was
  std::string text = writeScene(scene);
  load(std::move(scene), std::move(text));
  undo_.clear();
  redo_.clear();
  file_ = file;
  markSaved();
}

void Document::save() {
  if (!file_) throw SceneError("", "the scene has no file yet; use Save As");
  saveAs(*file_);
}

void Document::saveAs(const std::filesystem::path& file) {
  // What Reset returns to, with the settings as they are now.
  Scene built = parseScene(design_, "<design>");
  built.settings = scene_.settings;
  built.duration = scene_.duration;
  saveScene(built, file);
  file_ = file;
  markSaved();
}

Json Document::json() const { return Json::parse(writeScene(scene_)); }

void Document::edit(const std::function<void(Json&)>& change) {
  std::string before = writeScene(scene_);
  Json json = Json::parse(before);
  change(json);
  std::string after = json.dump(2);
  Scene edited = parseScene(after, "<edit>");  // throws, leaving everything as it was
  pushUndo(std::move(before));
  load(std::move(edited), std::move(after));
}

void Document::recordChange(std::string before) {
  pushUndo(std::move(before));
  design_ = text();
  ++revision_;
  designChanged();
}

void Document::pushUndo(std::string before) {
  undo_.push_back(std::move(before));
  if (undo_.size() > kUndoDepth) undo_.erase(undo_.begin());
  redo_.clear();
}

void Document::setSettings(const SimulationSettings& settings) {
  // The design keeps its model and takes the new settings; the live model runs on with them.
  Scene design = parseScene(design_, "<design>");
  design.settings = settings;
  pushUndo(design_);
  design_ = writeScene(design);
  scene_.settings = settings;
  ++revision_;
  designChanged();
}

void Document::undo() { travel(undo_, redo_, "<undo>"); }

void Document::redo() { travel(redo_, undo_, "<redo>"); }

void Document::travel(std::vector<std::string>& from, std::vector<std::string>& to, std::string_view source) {
  if (from.empty()) return;
  to.push_back(design_);  // the state right after the last change, not wherever a run has taken it
  std::string text = std::move(from.back());
  from.pop_back();
  Scene scene = parseScene(text, source);  // before the text moves on
  load(std::move(scene), std::move(text));
}

void Document::reset() {
  const SimulationSettings settings = scene_.settings;
  load(parseScene(design_, "<reset>"), design_);
  scene_.settings = settings;
}

std::optional<Json::json_pointer> Document::locate(const SketchItem& item) const {
  const Model& model = scene_.model;
  if (const auto* body = std::get_if<BodyId>(&item); body && model.contains(*body)) {
    const bool particle = model.isParticle(*body);
    std::size_t k = 0;
    for (std::size_t i = 0; i < model.indexOf(*body); ++i) k += model.isParticle(model.bodyAt(i)) == particle ? 1 : 0;
    return Json::json_pointer((particle ? "/particles/" : "/bodies/") + std::to_string(k));
  }
  if (const auto* constraint = std::get_if<ConstraintId>(&item); constraint && model.contains(*constraint)) {
    if (!model.isEnabled(*constraint)) return std::nullopt;
    std::size_t k = 0;
    for (std::size_t i = 0; i < model.indexOf(*constraint); ++i) k += model.isEnabled(model.constraintAt(i)) ? 1 : 0;
    return Json::json_pointer("/constraints/" + std::to_string(k));
  }
  if (const auto* force = std::get_if<ForceId>(&item); force && model.contains(*force)) {
    if (!isWritten(model.force(*force))) return std::nullopt;
    std::size_t k = 0;
    for (std::size_t i = 0; i < model.forceCount(); ++i) {
      const ForceId other = model.forceAt(i);
      if (other == *force) return Json::json_pointer("/forces/" + std::to_string(k));
      k += isWritten(model.force(other)) ? 1 : 0;
    }
  }
  return std::nullopt;
}

SketchItem Document::find(const Json::json_pointer& pointer) const {
  const Model& model = scene_.model;
  const std::string array = pointer.parent_pointer().back();
  const std::size_t k = std::stoul(pointer.back());
  std::size_t seen = 0;
  if (array == "particles" || array == "bodies") {
    for (std::size_t i = 0; i < model.bodyCount(); ++i) {
      const BodyId id = model.bodyAt(i);
      if (model.isParticle(id) != (array == "particles")) continue;
      if (seen++ == k) return id;
    }
  } else if (array == "constraints") {
    for (std::size_t i = 0; i < model.constraintCount(); ++i) {
      const ConstraintId id = model.constraintAt(i);
      if (model.isEnabled(id) && seen++ == k) return id;
    }
  } else if (array == "forces") {
    for (std::size_t i = 0; i < model.forceCount(); ++i) {
      const ForceId id = model.forceAt(i);
      if (isWritten(model.force(id)) && seen++ == k) return id;
    }
  }
  return std::monostate{};
}

std::string Document::freshBodyId(const std::string& prefix, const std::set<std::string>& taken) const {
  for (std::size_t n = scene_.model.bodyCount() + 1;; ++n) {
    std::string id = prefix + std::to_string(n);
    if (!scene_.model.findBody(id) && !taken.contains(id)) return id;
  }
}

}  // namespace tinkertoy::studio
