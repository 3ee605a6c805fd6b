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

// `view` in perspective on `model`: the focus at the middle of the model's bounding box, the eye
// kPerspectiveDistance model sizes (Model::size) from it, about a 23° field of view across the
// model: near parts visibly larger, none distorted.
inline constexpr double kPerspectiveDistance = 2.5;
[[nodiscard]] ViewDirection inPerspective(ViewDirection view, const Model& model);

}  // namespace tinkertoy
