#include "scene/curve_writer.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "common/article.hpp"

#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/curves/formula_curve.hpp"
#include "tinkertoy/curves/helix_curve.hpp"
#include "tinkertoy/curves/line_curve.hpp"
#include "tinkertoy/curves/spline_curve.hpp"

namespace tinkertoy::scene {

namespace {

// "x", "y" (and "z"): the coordinates' formulas of u.
void putFormulaCurve(Json& out, const FormulaCurve& c) {
  static constexpr std::array<const char*, 3> kAxes = {"x", "y", "z"};
  for (std::size_t i = 0; i < c.coordinates().size(); ++i) {
    const Formula& f = c.coordinates()[i];
    if (!f.fromText()) throw std::invalid_argument("a formula curve written in C++ cannot be written to a scene");
    out[kAxes[i]] = f.text();
  }
  if (!c.parameters().empty()) out["parameters"] = c.parameters();
  if (c.period() > 0.0) out["period"] = c.period();
}

}  // namespace

Json writeCurve(const Curve& c, int dimension) {
  Json out;
  out["type"] = c.type();
  if (const auto* e = dynamic_cast<const EllipseCurve*>(&c)) {
    out["center"] = numbers(e->center());
    if (c.type() == "circle") {
      out["radius"] = e->semiAxisA();
    } else {
      out["semi_axes"] = {e->semiAxisA(), e->semiAxisB()};
    }
    if (dimension == 3) out["normal"] = numbers(e->normal());
  } else if (const auto* line = dynamic_cast<const LineCurve*>(&c)) {
    out["point"] = numbers(line->origin());
    out["direction"] = numbers(line->direction());
  } else if (const auto* spline = dynamic_cast<const SplineCurve*>(&c)) {
    Json points = Json::array();
    for (const Eigen::VectorXd& p : spline->points()) points.push_back(numbers(p));
    out["points"] = points;
    out["closed"] = spline->closed();
  } else if (const auto* formula = dynamic_cast<const FormulaCurve*>(&c)) {
    putFormulaCurve(out, *formula);
  } else if (const auto* helix = dynamic_cast<const HelixCurve*>(&c)) {
    out["center"] = numbers(helix->center());
    out["radius"] = helix->radius();
    out["pitch"] = helix->pitch();
    out["axis"] = numbers(helix->axis());
  } else {
    throw std::invalid_argument(detail::withArticle(c.type()) + " curve cannot be written to a scene");
  }
  return out;
}

}  // namespace tinkertoy::scene
