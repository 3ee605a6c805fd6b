// Scene reading of "formula" constraints and "formula_potential" forces (docs/formula.md,
// docs/scene-format.md):
//
//   {"type": "formula", "points": {"a": "p1", "b": "p2"}, "C": "(xa - xb)^2 + (ya - yb)^2 - L^2",
//    "parameters": {"L": 1.0}, "kind": "equality"}
//
// "points" names each point (a particle or body id, or {"body": id, "point": i}); "anchors" puts a
// rigid body's point at a world position of the initial pose, as joints' anchors do. "C" is one
// formula or an array of them, one per row. Each formula is parsed here, so that an error names
// its JSON path ("constraints[2].C[1]") with the column and a caret. A "formula_potential" force
// has the same "points", "anchors" and "parameters", and "V", a formula of the potential energy.
// A "formula" curve has "x", "y" (and "z" in 3D), formulas of its parameter u, "parameters" and
// an optional "period".
#include "scene/formula_reader.hpp"

#include "scene/scene_builder.hpp"
#include "tinkertoy/constraints/formula_constraint.hpp"
#include "tinkertoy/curves/formula_curve.hpp"
#include "tinkertoy/forces/formula_potential.hpp"

namespace tinkertoy::scene {

namespace {

FormulaParameters readParameters(const JsonObject& c) {
  FormulaParameters parameters;
  if (!c.has("parameters")) return parameters;
  const JsonObject object = c.object("parameters");
  for (const auto& [name, value] : c.at("parameters").items()) {
    parameters.emplace(name, object.number(name));
  }
  return parameters;
}

// "C" as rows, with the JSON path of each.
std::vector<std::pair<std::string, std::string>> readRows(const JsonObject& c) {
  const nlohmann::json& value = c.at("C");
  std::vector<std::pair<std::string, std::string>> rows;
  const auto add = [&](const nlohmann::json& row, const std::string& path) {
    if (!row.is_string()) throw SceneError(path, "expected a formula (a string), got " + std::string(typeName(row)));
    rows.emplace_back(row.get<std::string>(), path);
  };
  if (value.is_array()) {
    if (value.empty()) throw SceneError(c.pathOf("C"), "expected at least one formula");
    for (std::size_t i = 0; i < value.size(); ++i) add(value[i], c.pathOf("C") + element(static_cast<Eigen::Index>(i)));
  } else {
    add(value, c.pathOf("C"));
  }
  return rows;
}

// Parses `text` as a formula over `variables`: a bad formula is a SceneError at `path`, a bad
// parameter one at the object's "parameters".
void parseAt(const std::string& text, const std::string& path, const JsonObject& object,
             const std::vector<std::string>& variables, const FormulaParameters& parameters) {
  try {
    (void)Formula(text, variables, parameters);
  } catch (const FormulaError& e) {
    throw SceneError(path, e.what());
  } catch (const std::invalid_argument& e) {
    throw SceneError(object.pathOf("parameters"), e.what());
  }
}

}  // namespace

std::shared_ptr<const Curve> readFormulaCurve(const JsonObject& curve, int dimension,
                                              std::span<const std::string_view> extraFields) {
  std::vector<std::string_view> allowed = {"type", "x", "y", "z", "parameters", "period"};
  allowed.insert(allowed.end(), extraFields.begin(), extraFields.end());
  curve.allowOnly(allowed);
  if (dimension == 3 && !curve.has("z")) throw SceneError(curve.path(), "a curve of a 3D scene needs \"z\"");
  if (dimension == 2 && curve.has("z")) throw SceneError(curve.pathOf("z"), "a curve of a 2D scene has no z");
  const FormulaParameters parameters = readParameters(curve);
  std::vector<std::string> coordinates;
  for (const char* axis : {"x", "y", "z"}) {
    if (coordinates.size() == static_cast<std::size_t>(dimension)) break;
    coordinates.push_back(curve.string(axis));
    parseAt(coordinates.back(), curve.pathOf(axis), curve, {"u"}, parameters);
  }
  const double period = curve.has("period") ? curve.positive("period") : 0.0;
  auto wire = std::make_shared<FormulaCurve>(std::move(coordinates), parameters, period);
  try {
    wire->validate();
  } catch (const std::invalid_argument& e) {
    throw SceneError(curve.pathOf("period"), e.what());
  }
  return wire;
}

NamedPoints SceneBuilder::namedPoints(const JsonObject& c) const {
  NamedPoints named;
  const JsonObject points = c.object("points");
  const std::optional<JsonObject> anchors = c.has("anchors") ? std::optional(c.object("anchors")) : std::nullopt;
  for (const auto& [key, value] : c.at("points").items()) {
    try {
      requirePointName(key);
    } catch (const std::invalid_argument& e) {
      throw SceneError(points.pathOf(key), e.what());
    }
    if (anchors && anchors->has(key)) {
      if (d_ != 2) throw SceneError(anchors->pathOf(key), "anchors on bodies are for 2D scenes");
      named.emplace_back(key, anchoredPoint(points, key, anchors->vector(key, 2)));
    } else {
      named.emplace_back(key, pointOf(value, points.pathOf(key)));
    }
  }
  if (anchors) {
    for (const auto& [key, value] : c.at("anchors").items()) {
      if (!points.has(key)) throw SceneError(anchors->pathOf(key), "names no point of \"points\"");
    }
  }
  if (named.empty() || named.size() > kMaxConstraintPoints) {
    throw SceneError(c.pathOf("points"), "name 1 to " + std::to_string(kMaxConstraintPoints) + " points");
  }
  return named;
}

void SceneBuilder::addFormula(const JsonObject& c, const std::string& name) {
  c.allowOnly({"type", "id", "points", "anchors", "C", "parameters", "kind", "break_force", "collide_connected"});
  FormulaConstraintSettings settings{.points = namedPoints(c), .parameters = readParameters(c)};
  if (const auto kind = c.optionalString("kind")) {
    if (*kind == "inequality") {
      settings.kind = RowKind::Inequality;
    } else if (*kind != "equality") {
      throw SceneError(c.pathOf("kind"), "expected \"equality\" (C = 0) or \"inequality\" (C >= 0), got " + inQuotes(*kind));
    }
  }
  const std::vector<std::string> variables = namedPointVariables(settings.points);
  for (const auto& [row, path] : readRows(c)) {
    parseAt(row, path, c, variables, settings.parameters);
    settings.rows.push_back(row);
  }
  std::unique_ptr<Constraint> formula;
  try {
    formula = std::make_unique<FormulaConstraint>(std::move(settings));
  } catch (const std::invalid_argument& e) {
    throw SceneError(c.path(), e.what());
  }
  addConstraint(std::move(formula), c, name);
}

void SceneBuilder::addFormulaPotential(const JsonObject& f) {
  f.allowOnly({"type", "points", "anchors", "V", "parameters"});
  FormulaPotentialSettings settings{.points = namedPoints(f), .V = f.string("V"), .parameters = readParameters(f)};
  parseAt(settings.V, f.pathOf("V"), f, namedPointVariables(settings.points), settings.parameters);
  scene_.model.addForce(std::make_unique<FormulaPotential>(std::move(settings)));
}

}  // namespace tinkertoy::scene
