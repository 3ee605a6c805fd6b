// The initial state's energy must be a double: every number of a scene is finite, but a velocity
// of 1e200, or a mass of 1e308 under gravity, has an energy that overflows one. Such a state is no
// state to start from, and every output would hold inf or nan, so the loader refuses it.
#pragma once

#include <cstddef>

#include "tinkertoy/model/model.hpp"

namespace tinkertoy::scene {

// Throws SceneError naming the first body or force whose energy overflows, or force that is not
// defined at the initial state (a formula potential's V, at "forces[k].V"): bodies in the
// model's order, the first `particles` of them from "particles", the rest from "bodies"; forces
// gravity first, then "forces".
void requireFiniteEnergy(const Model& model, std::size_t particles);

}  // namespace tinkertoy::scene
