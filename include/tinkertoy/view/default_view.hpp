// defaultView: how a model is first seen. A 2D model from the front; a 3D model obliquely,
// three quarters from above (ViewDirection::oblique()), from whichever of the four quarters
// (azimuth 35°, 125°, 215° or 305°) sees across the points it is held at (nails, fixed points)
// rather than along them; a model held at fewer than two points from the usual quarter. The
// fixed quarter looked along a square cloth's pinned diagonal, so the cloth hanging between the
// two corners read as a narrow wedge.
#pragma once

#include "tinkertoy/model/model.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy {

[[nodiscard]] ViewDirection defaultView(const Model& model);

}  // namespace tinkertoy
