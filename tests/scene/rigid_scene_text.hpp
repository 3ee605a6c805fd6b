// Scene text for the rigid-body scene tests: bodies, joints and settings as JSON strings, built
// from the few bodies most joints join (a rod, a turned disc, a particle).
#pragma once

#include <string>

namespace tinkertoy::rigid_scene_text {

inline std::string rigid(const std::string& id, const std::string& fields) {
  return R"({"id": ")" + id + R"(", "type": "rigid", )" + fields + "}";
}

// A rod along x from the origin, and a disc turned by 0.6 rad: the bodies most joints join.
inline const std::string kRod = rigid("rod", R"("mass": 1, "position": [0.5, 0], "shape": {"type": "box", "size": [1, 0.05]})");
inline const std::string kArm =
    rigid("arm", R"("mass": 2, "position": [1.5, 0.5], "angle": 0.6, "shape": {"type": "circle", "radius": 0.2})");
inline const std::string kParticle = R"("particles": [{"id": "p", "mass": 1, "position": [1, 0]}])";

// {extra, "bodies": [bodies], "constraints": [constraints]}
inline std::string sceneJson(const std::string& bodies, const std::string& constraints = "", const std::string& extra = "") {
  return "{" + extra + (extra.empty() ? "" : ", ") + R"("bodies": [)" + bodies + R"(], "constraints": [)" + constraints +
         "]}";
}
// One rigid body "b" with the given fields.
inline std::string oneBody(const std::string& fields) { return sceneJson(rigid("b", fields)); }
// The rod, the arm and the particle "p", joined by one constraint.
inline std::string joint(const std::string& constraint, const std::string& settings = "") {
  return sceneJson(kRod + ", " + kArm, constraint, kParticle + (settings.empty() ? "" : ", \"settings\": " + settings));
}
// The rod, the arm and the particle "p", with the given forces.
inline std::string forces(const std::string& list) {
  return sceneJson(kRod + ", " + kArm, "", kParticle + R"(, "forces": [)" + list + "]");
}
// A scene with only settings.
inline std::string settings(const std::string& object) { return R"({"settings": )" + object + "}"; }

inline const std::string kBox = R"("mass": 1, "position": [0, 0], "shape": {"type": "box", "size": [1, 0.1]})";
inline std::string shape(const std::string& object) { return R"("mass": 1, "position": [0, 0], "shape": )" + object; }

}  // namespace tinkertoy::rigid_scene_text
