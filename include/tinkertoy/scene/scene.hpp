// Scene: a model and its simulation settings, loaded from (and written to) a JSON scene file.
//
// The format is documented in docs/scene-format.md. Loading validates everything; every
// error is a SceneError whose path() is the JSON path of the offending value, e.g.
// "constraints[1].b", and whose message says why:
//
//   scenes/bad.json: constraints[1].b: no particle with id 'p9'
//
// Particle ids become the model's particle names; a constraint is named by its "id" if it
// has one, else by its JSON path, so simulation errors point back into the file.
//
//   tinkertoy::Scene scene = tinkertoy::loadScene("scenes/pendulum.json");
//   tinkertoy::Simulator sim(scene.model, scene.settings);
//   while (scene.model.time() < scene.duration) sim.step();
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <optional>
#include <string_view>

#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

struct Scene {
  std::string name;
  Model model;
  SimulationSettings settings;
  double duration = 10.0;  // s
  std::string description;  // where the scene comes from and what it shows (free text)
  // s, after which the motion repeats (a mechanism a motor turns at a constant speed), when the
  // scene declares it: a strobe picture spaces its exposures within one period.
  std::optional<double> period;
};

class SceneError : public std::runtime_error {
 public:
  // What is wrong: a value (missing, of the wrong type, out of range, not fitting the rest), or
  // a field the format does not have at that place (a typo, most often).
  enum class Kind { Value, UnknownField };

  // The message reads "<source>: <path>: <reason>", leaving out empty parts.
  SceneError(std::string path, const std::string& reason, std::string_view source = {}, Kind kind = Kind::Value);
  [[nodiscard]] const std::string& reason() const { return reason_; }
  // JSON path of the offending value ("" for the whole document).
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] Kind kind() const { return kind_; }

 private:
  std::string path_;
  std::string reason_;
  Kind kind_;
};

// Changes to the settings as read, made before the model is built (a command line's flags), so
// that the checks of what the settings can run see the settings that will run.
using SettingsAdjustment = std::function<void(SimulationSettings&)>;

// Parses scene JSON. `source` prefixes error messages (a file name, or "<string>"). What it
// accepts, a Simulator with the scene's settings runs: a constraint the formulation cannot solve
// (a limit, motor, spring or rope at the acceleration level) is a SceneError at its JSON path.
Scene parseScene(std::string_view json, std::string_view source = "<string>", const SettingsAdjustment& adjust = {});
// Reads and parses a scene file. A missing or unreadable file is a SceneError too.
Scene loadScene(const std::filesystem::path& file, const SettingsAdjustment& adjust = {});

// The scene as scene JSON, with the model's current state as its initial state: parsing the
// result gives the same model in the same state (docs/scene-format.md, "Writing scenes").
// Throws std::invalid_argument for what the format cannot express (a custom body, curve or
// constraint type; a single-point constraint on an off-centre point of a rigid body).
std::string writeScene(const Scene& scene);
// writeScene into a file; a file that cannot be written is a SceneError.
void saveScene(const Scene& scene, const std::filesystem::path& file);

// What a state saved from this scene's simulator belongs to (Simulator::saveState's `origin`):
// a hash of the model's bodies, forces and constraints with their parameters, as the scene
// writer gives them, leaving out the bodies' state (which a restore replaces), the settings
// (which the state file compares one by one) and the scene's name, description, period and
// duration. The command line and the Python module both pass it, so a state saved by one is
// restored by the other, and only an edit of the model refuses it. Empty for a model the scene
// format cannot express.
std::string modelOrigin(const Scene& scene);

}  // namespace tinkertoy
