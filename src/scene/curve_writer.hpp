// Writing a curve (a bead's wire, a driven point's path) as the scene object curve_reader.hpp
// reads back (docs/scene-format.md, "Curves").
#pragma once

#include "scene/json_writer.hpp"
#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy::scene {

// `c` in a scene of `dimension`. Throws std::invalid_argument for a curve the format has no type
// for, or a formula curve written in C++.
Json writeCurve(const Curve& c, int dimension);

}  // namespace tinkertoy::scene
