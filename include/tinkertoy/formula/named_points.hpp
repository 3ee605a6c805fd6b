// The variables of a formula over named points (a formula constraint's or potential's): the point
// named n gives x<n>, y<n>, z<n> and phi<n> (the angle of its frame, for a rigid body's point), in
// that order, point after point, and the time t follows (docs/formula.md, "Variables").
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

using NamedPoints = std::vector<std::pair<std::string, BodyPoint>>;

inline constexpr std::size_t kVariablesPerPoint = 4;  // x, y, z, phi
inline constexpr std::size_t kZVariable = 2;          // z's place among a point's variables
inline constexpr std::size_t kAngleVariable = 3;      // phi's

// The variables' names in the formulas' input order: x, y, z, phi of each point, then t.
[[nodiscard]] std::vector<std::string> namedPointVariables(const NamedPoints& points);

// Throws std::invalid_argument unless `name` is 1 to 32 letters, digits and _, not starting with
// a digit.
void requirePointName(const std::string& name);

// Throws std::invalid_argument unless there are 1 to `most` points with good, distinct names.
void requireNamedPoints(const NamedPoints& points, std::size_t most);

}  // namespace tinkertoy
