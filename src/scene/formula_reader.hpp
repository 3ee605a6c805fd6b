// Reading a curve written as formulas (docs/scene-format.md, "formula" curves):
//
//   {"type": "formula", "x": "cos(u)", "y": "0.5*sin(2*u)" [, "z": ... in 3D]
//    [, "parameters": {"a": 1.0}] [, "period": 6.283185307179586]}
//
// The scene's formula constraints and potentials are read by SceneBuilder (formula_reader.cpp).
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "scene/json_reader.hpp"
#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy::scene {

// Throws SceneError naming the coordinate's path (with the formula's column and caret), a bad
// parameter's, or "period" for a curve that does not close after it.
std::shared_ptr<const Curve> readFormulaCurve(const JsonObject& curve, int dimension,
                                              std::span<const std::string_view> extraFields);

}  // namespace tinkertoy::scene
