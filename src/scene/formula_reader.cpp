// Scene reading of "formula" constraints (docs/formula.md, docs/scene-format.md):
//
//   {"type": "formula", "points": {"a": "p1", "b": "p2"}, "C": "(xa - xb)^2 + (ya - yb)^2 - L^2",
//    "parameters": {"L": 1.0}, "kind": "equality"}
//
// "points" names each point (a particle or body id, or {"body": id, "point": i}); "anchors" puts a
// rigid body's point at a world position of the initial pose, as joints' anchors do. "C" is one
// formula or an array of them, one per row. Each formula is parsed here, so that an error names
// its JSON path ("constraints[2].C[1]") with the column and a caret.
#include <sstream>

#include "scene/scene_builder.hpp"
#include "tinkertoy/constraints/formula_constraint.hpp"

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

}  // namespace

void SceneBuilder::addFormula(const JsonObject& c, const std::string& name) {
  c.allowOnly({"type", "id", "points", "anchors", "C", "parameters", "kind", "break_force"});
  FormulaConstraintSettings settings;
  const JsonObject points = c.object("points");
  const std::optional<JsonObject> anchors = c.has("anchors") ? std::optional(c.object("anchors")) : std::nullopt;
  for (const auto& [key, value] : c.at("points").items()) {
    if (anchors && anchors->has(key)) {
      if (d_ != 2) throw SceneError(anchors->pathOf(key), "anchors on bodies are for 2D scenes");
      settings.points.emplace_back(key, anchoredPoint(points, key, anchors->vector(key, 2)));
    } else {
      settings.points.emplace_back(key, pointOf(value, points.pathOf(key)));
    }
  }
  if (anchors) {
    for (const auto& [key, value] : c.at("anchors").items()) {
      if (!points.has(key)) throw SceneError(anchors->pathOf(key), "names no point of \"points\"");
    }
  }
  settings.parameters = readParameters(c);
  if (const auto kind = c.optionalString("kind")) {
    if (*kind == "inequality") {
      settings.kind = RowKind::Inequality;
    } else if (*kind != "equality") {
      throw SceneError(c.pathOf("kind"), "expected \"equality\" (C = 0) or \"inequality\" (C >= 0), got " + inQuotes(*kind));
    }
  }
  if (settings.points.empty() || settings.points.size() > kMaxConstraintPoints) {
    throw SceneError(c.pathOf("points"), "name 1 to " + std::to_string(kMaxConstraintPoints) + " points");
  }
  for (const auto& [point, unused] : settings.points) {
    try {
      FormulaConstraint::requirePointName(point);
    } catch (const std::invalid_argument& e) {
      throw SceneError(points.pathOf(point), e.what());
    }
  }
  const std::vector<std::string> variables = FormulaConstraint::variableNames(settings);
  for (const auto& [row, path] : readRows(c)) {
    try {
      (void)Formula(row, variables, settings.parameters);
    } catch (const FormulaError& e) {
      throw SceneError(path, e.what());
    } catch (const std::invalid_argument& e) {  // a parameter
      throw SceneError(c.pathOf("parameters"), e.what());
    }
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

}  // namespace tinkertoy::scene
