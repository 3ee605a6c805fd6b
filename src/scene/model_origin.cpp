// What a saved state belongs to beyond the model's sizes and names (scene.hpp, modelOrigin).
//
// The scene as the writer gives it, less what is not the model: the run's settings and duration,
// the scene's name, description and period, and each body's state (position, velocity, angle,
// angular velocity, u, u_dot, a chain's angles and rates), which a restore replaces anyway.
// What is left, the bodies' kinds and parameters, the forces and the constraints with theirs, is
// hashed (FNV-1a of its compact dump).
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "common/fnv1a.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {

namespace {

constexpr const char* kStateKeys[] = {"position", "velocity", "angle", "angular_velocity",
                                      "u",        "u_dot",    "angles", "angular_velocities"};
constexpr const char* kSceneKeys[] = {"settings", "duration", "name", "description", "period"};

}  // namespace

std::string modelOrigin(const Scene& scene) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(writeScene(scene));
  } catch (const std::invalid_argument&) {
    return "";  // a model the format cannot express: the simulator's fingerprint alone tells it
  }
  for (const char* key : kSceneKeys) document.erase(key);
  for (const char* list : {"particles", "bodies"}) {
    if (!document.contains(list)) continue;
    for (nlohmann::json& body : document[list]) {
      for (const char* key : kStateKeys) body.erase(key);
    }
  }
  std::ostringstream hex;
  hex << "a model whose parameters hash to " << std::hex << std::setw(16) << std::setfill('0')
      << detail::fnv1a(document.dump());
  return hex.str();
}

}  // namespace tinkertoy
