#include "tinkertoy/curves/make_curve.hpp"

#include "tinkertoy/core/make_from_settings.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/curves/formula_curve.hpp"
#include "tinkertoy/curves/helix_curve.hpp"
#include "tinkertoy/curves/line_curve.hpp"
#include "tinkertoy/curves/spline_curve.hpp"

namespace tinkertoy {
namespace {

// The class each settings struct builds.
template <class Settings> struct Built;
template <> struct Built<CircleCurveSettings> { using Type = CircleCurve; };
template <> struct Built<EllipseCurveSettings> { using Type = EllipseCurve; };
template <> struct Built<LineCurveSettings> { using Type = LineCurve; };
template <> struct Built<SplineCurveSettings> { using Type = SplineCurve; };
template <> struct Built<HelixCurveSettings> { using Type = HelixCurve; };
template <> struct Built<FormulaCurveSettings> { using Type = FormulaCurve; };

}  // namespace

std::shared_ptr<const Curve> makeCurve(const CurveSettings& settings) {
  return detail::makeFromSettings<Curve, Built>(settings, "makeCurve", "a curve");
}

}  // namespace tinkertoy
