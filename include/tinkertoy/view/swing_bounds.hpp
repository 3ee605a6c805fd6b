// swingBounds: where a model can swing to about the points at which it is held — what a view
// must take in to keep a pendulum on screen while it plays, not only its pose of the moment.
//
// Bodies joined by a constraint or a force move together (through bodies that move: a static or
// kinematic body joins nothing). Wherever a group is held to the world, by a nail, a pivot or a
// hinge on the world or on a static body, it can sweep the circle about that pin out to its
// farthest particle or point of a rigid body's outline; a chain swings about its pivot. Sliders
// and driven points are left out (they move along their paths, not about a pin), and welds
// (nothing turns about them).
//
//   Bounds bounds = picture.bounds();
//   bounds.add(swingBounds(model, picture));
#pragma once

#include "tinkertoy/model/model.hpp"
#include "tinkertoy/view/bounds.hpp"
#include "tinkertoy/view/sketch.hpp"

namespace tinkertoy {

// The union of those circles, in the picture plane of `picture` (a sketch of `model`).
[[nodiscard]] Bounds swingBounds(const Model& model, const Sketch& picture);

}  // namespace tinkertoy
