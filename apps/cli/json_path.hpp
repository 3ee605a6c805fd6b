// JSON paths into a scene document, as SceneError names them: "bodies[2].mass", "settings.dt",
// "constraints[0].motor_speed". `tinkertoy sweep --set` writes its values there (and the Python
// package's tinkertoy.sweep does the same in Python).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace tinkertoy::cli {

// Sets the value at `path` in `document`. Every step but the last must exist; the last may be a
// new key of an object. Throws std::invalid_argument naming the path and the step that is
// malformed or missing.
void setAtPath(nlohmann::json& document, std::string_view path, nlohmann::json value);

}  // namespace tinkertoy::cli
