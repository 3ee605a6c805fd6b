// makeForce: a built-in force from its settings (forces/force_settings.hpp).
//
//   model.addForce(makeForce(SpringSettings{.a = ball, .anchor = Eigen::Vector2d(0, 1),
//                                           .parameters = {.stiffness = 50.0, .rest_length = 1.0}}));
#pragma once

#include <memory>

#include "tinkertoy/forces/force.hpp"
#include "tinkertoy/forces/force_settings.hpp"

namespace tinkertoy {

// The force the settings describe. Throws std::invalid_argument for std::monostate (the settings
// of a force defined outside the library), FormulaError for a formula potential's bad V. Its
// parameters are checked when it joins a model (Force::validate), as a force built by its
// constructor is.
[[nodiscard]] std::unique_ptr<Force> makeForce(const ForceSettings& settings);

}  // namespace tinkertoy
