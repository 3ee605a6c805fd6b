// makeCurve: a built-in curve from its settings (curves/curve_settings.hpp).
//
//   auto wire = makeCurve(CircleCurveSettings{.center = Eigen::Vector2d(0, 0), .radius = 1.0});
#pragma once

#include <memory>

#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy {

// The curve the settings describe. Throws std::invalid_argument for std::monostate (a curve
// defined outside the library) and as the curve's constructor does (FormulaError for a bad
// formula); its parameters are checked by Curve::validate, as those of a curve built by its
// constructor are.
[[nodiscard]] std::shared_ptr<const Curve> makeCurve(const CurveSettings& settings);

}  // namespace tinkertoy
