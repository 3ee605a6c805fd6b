// Scene loading: JSON → Model + SimulationSettings. The format is docs/scene-format.md.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <sstream>
#include <variant>

#include "common/article.hpp"
#include "common/utf8.hpp"
#include "scene/curve_reader.hpp"
#include "scene/duplicate_keys.hpp"
#include "scene/finite_energy.hpp"
#include "scene/scene_file.hpp"
#include "scene/json_reader.hpp"
#include "scene/json_text_check.hpp"
#include "scene/scene_builder.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/model/immovable.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/constraints/point_on_plane_constraint.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"
#include "tinkertoy/forces/constant_force.hpp"
#include "tinkertoy/forces/drag.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/forces/torque.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {

namespace scene {

namespace {

// Gravity is the scene's top-level "gravity"; mouse springs are the Studio's, not a scene's.
constexpr auto kForceTypes =
    typeNames<SpringSettings, DragSettings, ConstantForceSettings, TorqueSettings, FormulaPotentialSettings>();
constexpr auto kConstraintTypes =
    typeNames<DistanceConstraintSettings, PointOnCircleConstraintSettings, FixedPointConstraintSettings,
              PointOnLineConstraintSettings, PointOnPlaneConstraintSettings, DrivenPointConstraintSettings,
              RevoluteJointSettings, WeldJointSettings, AngleJointSettings, PrismaticJointSettings, PulleyJointSettings,
              MouseJointSettings, FormulaConstraintSettings>();
constexpr std::array<std::string_view, 2> kPathFields = {"speed", "phase"};

}  // namespace

std::string element(Eigen::Index j) {
  std::string index(1, '[');  // built in steps: GCC 12 warns falsely on "[" + to_string(j)
  index += std::to_string(j);
  index += ']';
  return index;
}

namespace {

// An id names a body or constraint in messages and files: text (detail::nameProblem).
void requireTextId(const JsonObject& object, const std::string& id) {
  if (const std::string problem = detail::nameProblem(id); !problem.empty()) {
    throw SceneError(object.pathOf("id"), "the id " + inQuotes(id) + " " + problem);
  }
}

}  // namespace

std::string SceneBuilder::claimId(const JsonObject& object) {
  const std::string id = object.string("id");
  if (id.empty()) throw SceneError(object.pathOf("id"), "must not be empty");
  requireTextId(object, id);
  if (const auto first = bodyPaths_.find(id); first != bodyPaths_.end()) {
    throw SceneError(object.pathOf("id"), "duplicate id " + inQuotes(id) + " (first used by " + first->second + ")");
  }
  bodyPaths_.emplace(id, object.path());
  return id;
}

BodyPoint SceneBuilder::pointOf(const nlohmann::json& value, const std::string& path) const {
  const Model& model = scene_.model;
  if (value.is_object()) {
    const JsonObject ref(value, path);
    ref.allowOnly({"body", "point"});
    const std::string id = ref.string("body");
    const auto body = model.findBody(id);
    if (!body) throw SceneError(ref.pathOf("body"), "no particle or body with id " + inQuotes(id));
    const std::int64_t index = ref.optionalInteger("point").value_or(0);
    const int count = model.body(*body).pointCount();
    if (index < 0 || index >= count) {
      throw SceneError(ref.pathOf("point"), model.describe(*body) + " has points 0 to " + std::to_string(count - 1) +
                                                ", got " + std::to_string(index));
    }
    return {*body, static_cast<int>(index)};
  }
  if (!value.is_string()) {
    throw SceneError(path, "expected a particle or body id (a string) or {\"body\": id, \"point\": i}, got " +
                               std::string(scene::typeName(value)));
  }
  const std::string id = value.get<std::string>();
  const auto body = model.findBody(id);
  if (!body) throw SceneError(path, "no particle or body with id " + inQuotes(id));
  if (model.body(*body).pointCount() != 1) {
    throw SceneError(path, model.describe(*body) + " has " + std::to_string(model.body(*body).pointCount()) +
                               " points; name one as {\"body\": " + nlohmann::json(id).dump() + ", \"point\": i}");
  }
  return *body;
}

BodyPoint SceneBuilder::point(const JsonObject& object, std::string_view key) const {
  return pointOf(object.at(key), object.pathOf(key));
}

Endpoint SceneBuilder::endpoint(const JsonObject& object, std::string_view key, std::string_view anchorKey) const {
  const nlohmann::json& value = object.at(key);
  if (value.is_array()) {
    if (object.has(anchorKey)) throw SceneError(object.pathOf(anchorKey), "a fixed point needs no anchor");
    return scene::readVector(value, object.pathOf(key), d_);
  }
  if (object.has(anchorKey)) {
    if (d_ != 2) throw SceneError(object.pathOf(anchorKey), "anchors on bodies are for 2D scenes");
    return anchoredPoint(object, key, object.vector(anchorKey, 2));
  }
  if (!value.is_string() && !value.is_object()) {
    throw SceneError(object.pathOf(key), "expected a particle or body id, {\"body\": id, \"point\": i}, or a point [" +
                                             std::to_string(d_) + " numbers], got " + std::string(scene::typeName(value)));
  }
  return pointOf(value, object.pathOf(key));
}

std::pair<BodyPoint, Endpoint> SceneBuilder::ends(const JsonObject& object, const char* what) const {
  Endpoint a = endpoint(object, "a", "anchor_a");
  Endpoint b = endpoint(object, "b", "anchor_b");
  if (std::holds_alternative<Eigen::VectorXd>(a)) std::swap(a, b);
  if (std::holds_alternative<Eigen::VectorXd>(a)) {
    throw SceneError(object.path(), detail::withArticle(what) +
                                        " needs at least one particle or body point; \"a\" and \"b\" are both fixed points");
  }
  if (a == b) throw SceneError(object.pathOf("b"), detail::withArticle(what) + " cannot join " + describe(a) + " to itself");
  return {std::get<BodyPoint>(a), b};
}

Eigen::VectorXd SceneBuilder::positionOf(const Endpoint& e) const {
  if (const auto* p = std::get_if<BodyPoint>(&e)) return scene_.model.position(*p);
  return std::get<Eigen::VectorXd>(e);
}

std::string SceneBuilder::describe(const Endpoint& e) const {
  if (const auto* p = std::get_if<BodyPoint>(&e)) return scene_.model.describe(*p);
  std::ostringstream out;
  out << "the point " << std::get<Eigen::VectorXd>(e).transpose();
  return out.str();
}

double SceneBuilder::lengthOf(const JsonObject& object, std::string_view key, const Endpoint& a,
                              const Endpoint& b, const char* what) const {
  if (object.has(key)) return what ? object.positive(key) : object.nonNegative(key);
  const double length = (positionOf(a) - positionOf(b)).norm();
  if (length == 0.0 && what) {
    throw SceneError(object.path(), "zero-length " + std::string(what) + ": " + describe(a) +
                                        " and " + describe(b) +
                                        " start at the same position; give a positive \"" +
                                        std::string(key) + "\"");
  }
  return length;
}

void SceneBuilder::readForce(const JsonObject& f) {
  const std::string type = f.string("type");
  try {
    if (type == SpringSettings::type) {
      f.allowOnly({"type", "a", "b", "anchor_a", "anchor_b", "stiffness", "damping", "rest_length"});
      const auto [a, b] = ends(f, "spring");
      const SpringParameters settings{f.nonNegative("stiffness"), f.nonNegative("damping", 0.0),
                                    lengthOf(f, "rest_length", a, b, nullptr)};
      if (const auto* pb = std::get_if<BodyPoint>(&b)) {
        scene_.model.addForce(std::make_unique<Spring>(a, *pb, settings));
      } else {
        scene_.model.addForce(std::make_unique<Spring>(a, std::get<Eigen::VectorXd>(b), settings));
      }
    } else if (type == DragSettings::type) {
      f.allowOnly({"type", "coefficient"});
      scene_.model.addForce(std::make_unique<Drag>(f.nonNegative("coefficient")));
    } else if (type == ConstantForceSettings::type) {
      f.allowOnly({"type", "particle", "force"});
      scene_.model.addForce(std::make_unique<ConstantForce>(point(f, "particle"), f.vector("force", d_)));
    } else if (type == FormulaPotentialSettings::type) {
      addFormulaPotential(f);
    } else if (type == TorqueSettings::type) {
      f.allowOnly({"type", "body", "torque"});
      scene_.model.addForce(std::make_unique<Torque>(point(f, "body").body, f.number("torque")));
    } else {
      unknownType(f, "force", type, kForceTypes);
    }
  } catch (const std::invalid_argument& e) {
    throw SceneError(f.path(), e.what());
  }
}

void SceneBuilder::readConstraint(const JsonObject& c) {
  const std::string type = c.string("type");
  std::string name = c.path();
  if (const auto id = c.optionalString("id")) {
    requireTextId(c, *id);
    if (const auto first = constraintPaths_.find(*id); first != constraintPaths_.end()) {
      throw SceneError(c.pathOf("id"), "duplicate constraint id " + inQuotes(*id) + " (first used by " +
                                           first->second + ")");
    }
    constraintPaths_.emplace(*id, c.path());
    name = *id;
  }
  if (type == DistanceConstraintSettings::type) {
    c.allowOnly({"type", "id", "a", "b", "anchor_a", "anchor_b", "length", "min_length", "max_length", "frequency",
                 "damping_ratio", "break_force", "collide_connected"});
    addDistance(c, name);
  } else if (readJoint(c, type, name)) {
    return;
  } else if (type == PointOnCircleConstraintSettings::type) {
    c.allowOnly({"type", "id", "particle", "center", "radius", "break_force", "collide_connected"});
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd center = c.vector("center", d_);
    const double radius = lengthOf(c, "radius", p, center, "circle");
    addConstraint(std::make_unique<PointOnCircleConstraint>(p, center, radius), c, name);
  } else if (type == FixedPointConstraintSettings::type) {
    c.allowOnly({"type", "id", "particle", "point", "break_force", "collide_connected"});
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd location = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<FixedPointConstraint>(p, location), c, name);
  } else if (type == PointOnLineConstraintSettings::type) {
    c.allowOnly({"type", "id", "particle", "point", "direction", "break_force", "collide_connected"});
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd direction = c.vector("direction", d_);
    if (direction.isZero(0.0)) throw SceneError(c.pathOf("direction"), "must be non-zero");
    const Eigen::VectorXd origin = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<PointOnLineConstraint>(p, origin, direction), c, name);
  } else if (type == PointOnPlaneConstraintSettings::type) {
    c.allowOnly({"type", "id", "particle", "point", "normal", "break_force", "collide_connected"});
    if (d_ != 3) throw SceneError(c.pathOf("type"), "a plane constraint needs \"dimension\": 3; in 2D use \"line\"");
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd normal = c.vector("normal", d_);
    if (normal.isZero(0.0)) throw SceneError(c.pathOf("normal"), "must be non-zero");
    const Eigen::VectorXd origin = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<PointOnPlaneConstraint>(p, origin, normal), c, name);
  } else if (type == DrivenPointConstraintSettings::type) {
    c.allowOnly({"type", "id", "particle", "path", "break_force", "collide_connected"});
    addDriven(c, name);
  } else if (type == FormulaConstraintSettings::type) {
    addFormula(c, name);
  } else {
    unknownType(c, "constraint", type, kConstraintTypes);
  }
}

// A rod by default (length: given, or the initial distance); a spring with "frequency"; limits
// with "min_length" and "max_length", which alone make a rope (max) or a strut (min).
void SceneBuilder::addDistance(const JsonObject& c, const std::string& name) {
  const auto [a, b] = ends(c, "rod");
  if ((positionOf(a) - positionOf(b)).norm() == 0.0) {
    throw SceneError(c.path(), "zero-length rod: " + describe(a) + " and " + describe(b) +
                                   " start at the same position, where the direction between them is undefined");
  }
  DistanceConstraintSettings settings{.a = a};
  if (const auto* pb = std::get_if<BodyPoint>(&b)) {
    settings.b = *pb;
  } else {
    settings.anchor = std::get<Eigen::VectorXd>(b);
  }
  settings.minLength = c.nonNegative("min_length", 0.0);
  if (c.has("max_length")) settings.maxLength = c.positive("max_length");
  if (settings.minLength >= settings.maxLength) {
    throw SceneError(c.pathOf("min_length"), "must be below \"max_length\"");
  }
  const bool limited = c.has("min_length") || c.has("max_length");
  if (c.has("frequency")) {
    settings.spring = JointSpring{c.positive("frequency"), c.nonNegative("damping_ratio", 0.0)};
  } else if (c.has("damping_ratio")) {
    throw SceneError(c.pathOf("damping_ratio"), "a damping ratio needs a \"frequency\" (a spring)");
  }
  if (c.has("length") || settings.spring || !limited) settings.length = lengthOf(c, "length", a, b, "rod");
  if (settings.length && !settings.spring && limited) {
    throw SceneError(c.path(), "a rigid rod cannot also have \"min_length\" or \"max_length\"; give it a \"frequency\" "
                               "to make it a spring, or leave out \"length\" for a rope");
  }
  addConstraint(std::make_unique<DistanceConstraint>(std::move(settings)), c, name);
}

// A driven point follows a curve at a constant parameter rate: the path object is a curve
// plus "speed" (du/dt) and "phase" (u at t = 0, default 0).
void SceneBuilder::addDriven(const JsonObject& c, const std::string& name) {
  const BodyPoint p = point(c, "particle");
  const JsonObject path = c.object("path");
  auto curve = scene::readCurve(path, d_, kPathFields);
  addConstraint(std::make_unique<DrivenPointConstraint>(
                    p, std::make_shared<CurvePath>(std::move(curve), path.number("speed"),
                                                   path.optionalNumber("phase").value_or(0.0))),
                c, name);
}

void SceneBuilder::addConstraint(std::unique_ptr<Constraint> constraint, const JsonObject& c,
                                 std::string name) {
  const double breakForce = c.has("break_force") ? c.positive("break_force") : 0.0;  // 0: unbreakable
  const bool collideConnected = c.optionalBoolean("collide_connected").value_or(false);
  // What the loader accepts, the simulator runs: Witkin's acceleration level solves equality
  // rows only (AccelerationDynamics).
  // A constraint among static and kinematic bodies only holds nothing: nothing it can push moves.
  if (const std::string problem = immovableProblem(scene_.model, *constraint); !problem.empty()) {
    throw SceneError(c.path(), problem);
  }
  if (scene_.settings.formulation == FormulationKind::Acceleration && !onlyEqualityRows(*constraint)) {
    throw SceneError(c.path(), detail::withArticle(constraint->type()) +
                                   " with a limit, motor, spring or rope (a maximum or minimum length) needs "
                                   "\"formulation\": \"velocity\" in the settings: the acceleration level solves "
                                   "equality constraints only");
  }
  ConstraintId id;
  try {
    id = scene_.model.addConstraint(std::move(constraint), std::move(name));
    if (breakForce > 0.0) scene_.model.setBreakForce(id, breakForce);
    scene_.model.setCollideConnected(id, collideConnected);
  } catch (const std::invalid_argument& e) {
    throw SceneError(c.path(), e.what());
  }
  requireDefinedAtStart(id, c);
}

// A constraint that is not defined at the scene's initial state (a formula's square root of a
// negative number there) could not take one step: refused at its row's JSON path.
void SceneBuilder::requireDefinedAtStart(ConstraintId id, const JsonObject& c) const {
  try {
    (void)evaluateAtModelState(scene_.model, id);
  } catch (const UndefinedConstraintError& e) {
    std::string path = c.path();
    if (e.row() && c.has("C")) path = c.pathOf("C") + (c.at("C").is_array() ? element(*e.row()) : std::string());
    throw SceneError(path, std::string(e.what()) + ", at the scene's initial state");
  }
}

}  // namespace scene

namespace {

using scene::JsonObject;

int readDimension(const JsonObject& root) {
  const auto dimension = root.optionalInteger("dimension").value_or(2);
  if (dimension != 2 && dimension != 3) {
    throw SceneError(root.pathOf("dimension"), "must be 2 or 3, got " + std::to_string(dimension));
  }
  return static_cast<int>(dimension);
}

// "line 3, column 14" for a byte offset into text (nlohmann reports the byte it stopped at).
std::string lineAndColumn(std::string_view text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

SceneError::SceneError(std::string path, const std::string& reason, std::string_view source, Kind kind)
    : std::runtime_error((source.empty() ? "" : std::string(source) + ": ") +
                         (path.empty() ? "" : path + ": ") + reason),
      path_(std::move(path)), reason_(reason), kind_(kind) {}

Scene parseScene(std::string_view json, std::string_view source, const SettingsAdjustment& adjust) {
  // Before the parser: nlohmann's lexer takes a NUL byte for the end of the input ("{}\0anything"
  // would load as {}), and nesting without bound costs the parser and every pass after it.
  if (const std::string problem = scene::checkJsonText(json); !problem.empty()) throw SceneError("", problem, source);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(json);
  } catch (const nlohmann::json::parse_error& e) {
    std::string why = e.what();
    if (const auto colon = why.find(": "); colon != std::string::npos) why = why.substr(colon + 2);
    // nlohmann quotes the bytes it last read, which may be the ill-formed UTF-8 it refuses.
    throw SceneError("", "malformed JSON at " + lineAndColumn(json, e.byte) + ": " + detail::printableUtf8(why), source);
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range 406, "number overflow parsing '1e999'", which carries no position.
    std::string detail = e.what();
    if (const auto bracket = detail.find("] "); bracket != std::string::npos) detail = detail.substr(bracket + 2);
    throw SceneError("", "malformed JSON: " + detail + " (numbers must fit in a double)", source);
  }
  if (const auto twice = scene::findDuplicateKey(json)) {
    throw SceneError(twice->path, "appears twice in one object, at " + lineAndColumn(json, twice->first + 1) + " and at " +
                                      lineAndColumn(json, twice->second + 1) + "; give each field once",
                     source);
  }
  try {
    const JsonObject root(document, "");
    root.allowOnly({"name", "description", "period", "dimension", "gravity", "settings", "particles", "bodies", "forces",
                    "constraints"});
    const int d = readDimension(root);
    Scene scene{root.optionalString("name").value_or(""), Model(d), {}, 10.0,
                root.optionalString("description").value_or("")};
    if (root.has("period")) scene.period = root.positive("period");
    scene::SceneBuilder builder(scene, d);
    if (root.has("settings")) builder.readSettings(root.object("settings"));
    if (adjust) {
      adjust(scene.settings);
      scene.settings.validate();  // a SettingsError: the adjustment's, which its caller names
    }
    for (const JsonObject& p : root.objects("particles")) builder.readParticle(p);
    for (const JsonObject& b : root.objects("bodies")) builder.readBody(b);
    Eigen::VectorXd g = Eigen::VectorXd::Zero(d);
    g[1] = -9.81;
    scene.model.addForce(std::make_unique<Gravity>(root.optionalVector("gravity", d).value_or(g)));
    for (const JsonObject& f : root.objects("forces")) builder.readForce(f);
    for (const JsonObject& c : root.objects("constraints")) builder.readConstraint(c);
    scene::requireFiniteEnergy(scene.model, root.objects("particles").size());
    return scene;
  } catch (const SceneError& e) {
    throw SceneError(e.path(), e.reason(), source, e.kind());
  }
}

Scene loadScene(const std::filesystem::path& file, const SettingsAdjustment& adjust) {
  return parseScene(scene::readSceneFile(file), file.string(), adjust);
}

}  // namespace tinkertoy
