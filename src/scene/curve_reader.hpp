// Reading the curve objects of a scene: wires for beads and paths for driven points.
//
//   {"type": "circle",  "center": [...], "radius": r [, "normal": [...] in 3D]}
//   {"type": "ellipse", "center": [...], "semi_axes": [a, b] [, "normal": [...] in 3D]}
//   {"type": "line",    "point": [...], "direction": [...]}
//   {"type": "segment", "from": [...], "to": [...]}
//   {"type": "spline",  "points": [[...], ...] [, "closed": true]}
//   {"type": "helix",   "center": [...], "radius": r, "pitch": p [, "axis": [...]]}   (3D)
//   {"type": "formula", "x": "cos(u)", "y": "sin(u)" [, "z": ...] [, "parameters": {...}] [, "period": P]}
//
// docs/scene-format.md gives each curve's parametrization.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "scene/json_reader.hpp"
#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy::scene {

// Reads `curve` in a scene of the given dimension. `extraFields` are fields the caller reads
// from the same object itself (a driven path's "speed" and "phase"). Throws SceneError.
std::shared_ptr<const Curve> readCurve(const JsonObject& curve, int dimension,
                                       std::span<const std::string_view> extraFields = {});

}  // namespace tinkertoy::scene
