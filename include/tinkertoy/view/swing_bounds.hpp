// swingBounds: where a model can swing to about the points at which it is held — what a view
// must take in to keep a pendulum on screen while it plays, not only its pose of the moment.
//
// Bodies joined by a constraint or a force move together (through bodies that move: a static or
// kinematic body joins nothing). Wherever a group is held to the world, by a nail, a pivot or a
// hinge on the world or on a static body, each of its bodies stays within a circle about that
// pin: in 2D, for a body joined to a held point through rigid links (hinges, welds, rigid rods)
// across particles and rigid bodies, out to the shortest such path (a bound the mechanism
// cannot break: a slider-crank's piston stays within crank plus rod of the bearing); otherwise
// out to its farthest point now, as it would swing hanging as it is (a chain about its pivot).
// A body's circles about all the pins are intersected, and the bodies' boxes joined. Sliders,
// driven points and welds hold nothing here (they move along their paths, or nothing turns
// about them).
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
