#include "scene/curve_reader.hpp"

#include <array>
#include <vector>

#include "scene/formula_reader.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/curves/helix_curve.hpp"
#include "tinkertoy/curves/line_curve.hpp"
#include "tinkertoy/curves/spline_curve.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::scene {

namespace {

// "segment" is the scene's other way to give a line: from one point to another.
constexpr std::array<std::string_view, 7> kCurveTypes = {
    CircleCurveSettings::type, EllipseCurveSettings::type, LineCurveSettings::type, "segment",
    SplineCurveSettings::type, HelixCurveSettings::type,   FormulaCurveSettings::type};

// Rejects fields outside `own` and `extra`.
void allowOnly(const JsonObject& curve, std::initializer_list<std::string_view> own,
               std::span<const std::string_view> extra) {
  std::vector<std::string_view> allowed(own);
  allowed.insert(allowed.end(), extra.begin(), extra.end());
  curve.allowOnly(allowed);
}

// A plane's normal or a helix's axis: 3D only, non-zero.
Eigen::Vector3d direction3d(const JsonObject& curve, std::string_view key, int dimension,
                            const Eigen::Vector3d& fallback) {
  if (!curve.has(key)) return fallback;
  if (dimension != 3) throw SceneError(curve.pathOf(key), "only a 3D curve has a " + std::string(key));
  const Eigen::Vector3d v = curve.vector(key, 3);
  if (v.isZero(0.0)) throw SceneError(curve.pathOf(key), "must be non-zero");
  return v;
}

}  // namespace

std::shared_ptr<const Curve> readCurve(const JsonObject& curve, int dimension,
                                       std::span<const std::string_view> extraFields) {
  const std::string type = curve.string("type");
  if (type == CircleCurveSettings::type) {
    allowOnly(curve, {"type", "center", "radius", "normal"}, extraFields);
    return std::make_shared<CircleCurve>(curve.vector("center", dimension), curve.positive("radius"),
                                         direction3d(curve, "normal", dimension, Eigen::Vector3d::UnitZ()));
  }
  if (type == EllipseCurveSettings::type) {
    allowOnly(curve, {"type", "center", "semi_axes", "normal"}, extraFields);
    const Eigen::VectorXd axes = curve.numbers("semi_axes");
    if (axes.size() != 2 || !(axes.minCoeff() > 0.0)) {
      throw SceneError(curve.pathOf("semi_axes"), "expected two positive numbers [a, b]");
    }
    return std::make_shared<EllipseCurve>(curve.vector("center", dimension), axes[0], axes[1],
                                          direction3d(curve, "normal", dimension, Eigen::Vector3d::UnitZ()));
  }
  if (type == LineCurveSettings::type) {
    allowOnly(curve, {"type", "point", "direction"}, extraFields);
    const Eigen::VectorXd direction = curve.vector("direction", dimension);
    if (direction.isZero(0.0)) throw SceneError(curve.pathOf("direction"), "must be non-zero");
    return std::make_shared<LineCurve>(curve.vector("point", dimension), direction);
  }
  if (type == "segment") {
    allowOnly(curve, {"type", "from", "to"}, extraFields);
    const Eigen::VectorXd from = curve.vector("from", dimension), to = curve.vector("to", dimension);
    if (from == to) throw SceneError(curve.pathOf("to"), "a segment needs two different end points");
    return std::make_shared<LineCurve>(from, to - from);
  }
  if (type == SplineCurveSettings::type) {
    allowOnly(curve, {"type", "points", "closed"}, extraFields);
    try {
      return std::make_shared<SplineCurve>(curve.vectors("points", dimension),
                                           curve.optionalBoolean("closed").value_or(false));
    } catch (const std::invalid_argument& e) {
      throw SceneError(curve.pathOf("points"), e.what());
    }
  }
  if (type == HelixCurveSettings::type) {
    allowOnly(curve, {"type", "center", "radius", "pitch", "axis"}, extraFields);
    if (dimension != 3) throw SceneError(curve.pathOf("type"), "a helix needs \"dimension\": 3");
    return std::make_shared<HelixCurve>(curve.vector("center", 3), curve.positive("radius"), curve.number("pitch"),
                                        direction3d(curve, "axis", 3, Eigen::Vector3d::UnitY()));
  }
  if (type == FormulaCurveSettings::type) return readFormulaCurve(curve, dimension, extraFields);
  unknownType(curve, "curve", type, kCurveTypes);
}

}  // namespace tinkertoy::scene
