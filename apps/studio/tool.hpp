// The Studio's building tools: what each is called in scripts and on its button, its key and
// what it does.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace tinkertoy::studio {

// Drag and Delete, the point-mass tools (Particle … Wire) and the rigid-body tools (Bar … Motor).
enum class Tool { Drag, Particle, Rod, Spring, Nail, Wire, Bar, Disc, Hinge, Weld, Motor, Box, Polygon, Ground, Delete };

struct ToolInfo {
  Tool tool;
  std::string_view name;   // in scripts: {"tool": "hinge"}
  const char* label;       // on its button
  char key;                // its shortcut: a digit or an upper-case letter (GLFW's key code)
  const char* help;
};

// In the tool bar's order.
inline constexpr std::array<ToolInfo, 15> kTools{{
    {Tool::Drag, "drag", "Drag", '1',
     "running: pull a body (or the nearest); paused: move it; on empty space: pan"},
    {Tool::Particle, "particle", "Particle", '2', "click to add a 1 kg particle"},
    {Tool::Rod, "rod", "Rod", '3',
     "drag between two points for a rigid rod: particles, empty space (a new particle), or points of rigid bodies "
     "(a distance joint)"},
    {Tool::Spring, "spring", "Spring", '4', "drag between two points for a damped spring (50 N/m)"},
    {Tool::Nail, "nail", "Nail", '5', "click a particle to nail it where it is (a rigid body: hinge it there)"},
    {Tool::Wire, "wire", "Wire", '6', "drag from a particle to a centre: the particle slides on that circle"},
    {Tool::Bar, "bar", "Bar", 'B',
     "drag from one end to the other for a rigid bar (a box; its mass from the density); ends snap to bar ends"},
    {Tool::Disc, "disc", "Disc", 'D', "drag from the centre to the rim for a rigid disc (its mass from the density)"},
    {Tool::Hinge, "hinge", "Hinge", 'J',
     "click where bodies overlap to pin them together with a revolute joint; on one body, to the world"},
    {Tool::Weld, "weld", "Weld", 'W', "click where bodies overlap to weld them together; on one body, to the world"},
    {Tool::Motor, "motor", "Motor", 'M',
     "click a hinge to drive it at the speed below with at most the torque below (again: remove the motor)"},
    {Tool::Box, "box", "Box", 'X',
     "drag from one corner to the other for a box to drop (its mass from the density); turns collisions on"},
    {Tool::Polygon, "polygon", "Polygon", 'N',
     "drag from the centre to a corner for a regular polygon of the sides below; turns collisions on"},
    {Tool::Ground, "ground", "Ground", 'G',
     "click the points of static ground, then the last one again (or Enter): a segment or a polyline; turns "
     "collisions on"},
    {Tool::Delete, "delete", "Delete", '7', "click an item to delete it (a particle takes its rods and springs along)"},
}};

inline const ToolInfo& toolInfo(Tool tool) {
  for (const ToolInfo& t : kTools) {
    if (t.tool == tool) return t;
  }
  return kTools.front();
}

inline std::optional<Tool> toolNamed(std::string_view name) {
  for (const ToolInfo& t : kTools) {
    if (t.name == name) return t.tool;
  }
  return std::nullopt;
}

// The tool whose shortcut is `key` (a GLFW key code), if any.
inline std::optional<Tool> toolForKey(int key) {
  for (const ToolInfo& t : kTools) {
    if (t.key == key) return t.tool;
  }
  return std::nullopt;
}

// "drag, particle, …, delete": for messages.
inline std::string toolNames() {
  std::string names;
  for (const ToolInfo& t : kTools) names += (names.empty() ? "" : ", ") + std::string(t.name);
  return names;
}

}  // namespace tinkertoy::studio
