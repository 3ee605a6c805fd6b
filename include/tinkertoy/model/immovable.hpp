// The rule the doors into a model share for a constraint that could hold nothing: one that joins
// only bodies no constraint moves (static or kinematic rigid bodies, and fixed points). The model
// itself keeps such a constraint (it gets no rows, and its error is measured: dynamics/
// immovable_constraints.hpp); the scene loader and the Python module refuse to add one, with this
// reason.
//
//   if (std::string why = tinkertoy::immovableProblem(model, *constraint); !why.empty()) refuse(why);
#pragma once

#include <string>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

// "this weld joins only static or kinematic bodies (or fixed points), ...; attach it to a dynamic
// body" if no point of `constraint` is on a body a constraint can move; "" otherwise.
std::string immovableProblem(const Model& model, const Constraint& constraint);

}  // namespace tinkertoy
