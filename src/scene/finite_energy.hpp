// The initial state must be one to start from. Its energy must be a double: every number of a
// scene is finite, but a velocity of 1e200, or a mass of 1e308 under gravity, has an energy that
// overflows one, and every output would hold inf or nan. Every body's mass matrix must be
// invertible there (a bead on a curve that stands still at its u has none), and every formula
// potential defined: otherwise the first step could not be taken. The loader refuses such a state.
#pragma once

#include <cstddef>

#include "tinkertoy/model/model.hpp"

namespace tinkertoy::scene {

// Throws SceneError naming the first body whose mass matrix has no inverse or whose energy
// overflows, or force whose energy overflows or that is not
// defined at the initial state (a formula potential's V, at "forces[k].V"): bodies in the
// model's order, the first `particles` of them from "particles", the rest from "bodies"; forces
// gravity first, then "forces".
void requireFiniteEnergy(const Model& model, std::size_t particles);

}  // namespace tinkertoy::scene
