#include "scene/curve_writer.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <variant>

#include "common/article.hpp"
#include "tinkertoy/curves/curve.hpp"

namespace tinkertoy::scene {

namespace {

// One put() per kind of curve: its keys besides "type".
struct CurveWriter {
  Json& out;
  int dimension;
  std::string_view type;

  void put(std::monostate /*none*/) const {
    throw std::invalid_argument(detail::withArticle(type) + " curve defined in C++ cannot be written to a scene");
  }
  void putNormal(const Eigen::Vector3d& normal) const {
    if (dimension == 3) out["normal"] = numbers(normal);
  }
  void put(const CircleCurveSettings& s) const {
    out["center"] = numbers(s.center);
    out["radius"] = s.radius;
    putNormal(s.normal);
  }
  void put(const EllipseCurveSettings& s) const {
    out["center"] = numbers(s.center);
    out["semi_axes"] = {s.semiAxisA, s.semiAxisB};
    putNormal(s.normal);
  }
  void put(const LineCurveSettings& s) const {
    out["point"] = numbers(s.origin);
    out["direction"] = numbers(s.direction);
  }
  void put(const SplineCurveSettings& s) const {
    Json points = Json::array();
    for (const Eigen::VectorXd& p : s.points) points.push_back(numbers(p));
    out["points"] = points;
    out["closed"] = s.closed;
  }
  // "x", "y" (and "z"): the coordinates' formulas of u.
  void put(const FormulaCurveSettings& s) const {
    static constexpr std::array<const char*, 3> kAxes = {"x", "y", "z"};
    for (std::size_t i = 0; i < s.coordinates.size(); ++i) out[kAxes[i]] = s.coordinates[i];
    if (!s.parameters.empty()) out["parameters"] = s.parameters;
    if (s.period > 0.0) out["period"] = s.period;
  }
  void put(const HelixCurveSettings& s) const {
    out["center"] = numbers(s.center);
    out["radius"] = s.radius;
    out["pitch"] = s.pitch;
    out["axis"] = numbers(s.axis);
  }
};

}  // namespace

Json writeCurve(const Curve& c, int dimension) {
  Json out;
  out["type"] = c.type();
  const CurveWriter writer{out, dimension, c.type()};
  std::visit([&](const auto& s) { writer.put(s); }, c.settings());
  return out;
}

}  // namespace tinkertoy::scene
