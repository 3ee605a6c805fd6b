// Scene loading: JSON → Model + SimulationSettings. The format is docs/scene-format.md.
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <variant>

#include "scene/json_reader.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/constraints/point_on_plane_constraint.hpp"
#include "tinkertoy/forces/constant_force.hpp"
#include "tinkertoy/forces/drag.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {

namespace {

using scene::JsonObject;

// One end of a rod or spring: a particle or a fixed world point.
using Endpoint = std::variant<BodyId, Eigen::VectorXd>;

class SceneBuilder {
 public:
  SceneBuilder(Scene& scene, int dimension) : scene_(scene), d_(dimension) {}

  void readSettings(const JsonObject& settings);
  void readParticle(const JsonObject& particle);
  void readForce(const JsonObject& force);
  void readConstraint(const JsonObject& constraint);

 private:
  BodyId particle(const JsonObject& object, std::string_view key) const;
  Endpoint endpoint(const JsonObject& object, std::string_view key) const;
  Eigen::VectorXd positionOf(const Endpoint& e) const;
  std::string describe(const Endpoint& e) const;
  // A number ≥ 0; required unless a fallback is given.
  double nonNegative(const JsonObject& object, std::string_view key,
                     std::optional<double> fallback = std::nullopt) const;
  double positive(const JsonObject& object, std::string_view key) const;
  // A length: the given value, else the initial distance between a and b. `what` names the
  // element ("rod", "circle") in the message when that distance is zero; nullptr allows zero.
  double lengthOf(const JsonObject& object, std::string_view key, const Endpoint& a,
                  const Endpoint& b, const char* what) const;

  void addDistance(const JsonObject& c, const std::string& name);
  void addDriven(const JsonObject& c, const std::string& name);
  void addConstraint(std::unique_ptr<Constraint> constraint, const JsonObject& c, std::string name);

  Scene& scene_;
  int d_;
  std::map<std::string, std::string, std::less<>> particlePaths_;    // id → JSON path
  std::map<std::string, std::string, std::less<>> constraintPaths_;  // id → JSON path
};

constexpr std::array<std::string_view, 3> kForceTypes = {"spring", "drag", "constant"};
constexpr std::array<std::string_view, 6> kConstraintTypes = {"distance", "circle", "fixed",
                                                             "line", "plane", "driven"};
constexpr std::array<std::string_view, 1> kPathTypes = {"circle"};

std::string inQuotes(std::string_view s) { return "'" + std::string(s) + "'"; }

[[noreturn]] void unknownType(const JsonObject& object, std::string_view kind, const std::string& type,
                              std::span<const std::string_view> known) {
  std::string reason = "unknown " + std::string(kind) + " type " + inQuotes(type);
  if (const auto match = scene::closestMatch(type, known)) {
    reason += "; did you mean " + inQuotes(*match) + "?";
  } else {
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    reason += " (known types: " + list + ")";
  }
  throw SceneError(object.pathOf("type"), reason);
}

void SceneBuilder::readSettings(const JsonObject& s) {
  s.allowOnly({"dt", "duration", "integrator", "solver", "ks", "kd", "tolerance", "max_iterations",
               "regularization", "project"});
  SimulationSettings& settings = scene_.settings;
  if (s.has("dt")) settings.dt = positive(s, "dt");
  scene_.duration = nonNegative(s, "duration", scene_.duration);
  if (const auto name = s.optionalString("integrator")) {
    const auto kind = parseIntegrator(*name);
    if (!kind) {
      throw SceneError(s.pathOf("integrator"), "unknown integrator " + inQuotes(*name) +
                                                   "; expected euler, symplectic-euler, midpoint or rk4");
    }
    settings.integrator = *kind;
  }
  if (const auto name = s.optionalString("solver")) {
    if (*name == "cg") {
      settings.solver.kind = SolverKind::ConjugateGradient;
    } else if (*name == "ldlt") {
      settings.solver.kind = SolverKind::SparseLdlt;
    } else {
      throw SceneError(s.pathOf("solver"), "unknown solver " + inQuotes(*name) + "; expected cg or ldlt");
    }
  }
  settings.ks = nonNegative(s, "ks", settings.ks);
  settings.kd = nonNegative(s, "kd", settings.kd);
  if (s.has("tolerance")) settings.solver.tolerance = positive(s, "tolerance");
  if (const auto cap = s.optionalInteger("max_iterations")) {
    if (*cap < 0 || *cap > 1'000'000'000) {
      throw SceneError(s.pathOf("max_iterations"), "must be between 0 (automatic) and 1e9");
    }
    settings.solver.maxIterations = static_cast<int>(*cap);
  }
  settings.solver.regularization = nonNegative(s, "regularization", settings.solver.regularization);
  if (const auto project = s.optionalBoolean("project")) settings.projection.enabled = *project;
}

void SceneBuilder::readParticle(const JsonObject& p) {
  p.allowOnly({"id", "mass", "position", "velocity"});
  const std::string id = p.string("id");
  if (id.empty()) throw SceneError(p.pathOf("id"), "must not be empty");
  if (const auto first = particlePaths_.find(id); first != particlePaths_.end()) {
    throw SceneError(p.pathOf("id"), "duplicate particle id " + inQuotes(id) + " (first used by " +
                                         first->second + ")");
  }
  const double mass = p.number("mass");
  if (!(mass > 0.0)) throw SceneError(p.pathOf("mass"), "must be positive, got " + std::to_string(mass));
  const Eigen::VectorXd position = p.vector("position", d_);
  const Eigen::VectorXd velocity = p.optionalVector("velocity", d_).value_or(Eigen::VectorXd::Zero(d_));
  scene_.model.addParticle(mass, position, velocity, id);
  particlePaths_.emplace(id, p.path());
}

BodyId SceneBuilder::particle(const JsonObject& object, std::string_view key) const {
  const nlohmann::json& value = object.at(key);
  if (!value.is_string()) {
    throw SceneError(object.pathOf(key), "expected a particle id (a string), got " +
                                             std::string(scene::typeName(value)));
  }
  const auto id = scene_.model.findBody(value.get<std::string>());
  if (!id) throw SceneError(object.pathOf(key), "no particle with id " + inQuotes(value.get<std::string>()));
  return *id;
}

Endpoint SceneBuilder::endpoint(const JsonObject& object, std::string_view key) const {
  const nlohmann::json& value = object.at(key);
  if (value.is_array()) return scene::readVector(value, object.pathOf(key), d_);
  if (!value.is_string()) {
    throw SceneError(object.pathOf(key), "expected a particle id or a point [" +
                                             std::to_string(d_) + " numbers], got " +
                                             std::string(scene::typeName(value)));
  }
  return particle(object, key);
}

Eigen::VectorXd SceneBuilder::positionOf(const Endpoint& e) const {
  if (const auto* id = std::get_if<BodyId>(&e)) return scene_.model.position(*id);
  return std::get<Eigen::VectorXd>(e);
}

std::string SceneBuilder::describe(const Endpoint& e) const {
  if (const auto* id = std::get_if<BodyId>(&e)) return inQuotes(scene_.model.name(*id));
  std::ostringstream out;
  out << "the point " << std::get<Eigen::VectorXd>(e).transpose();
  return out.str();
}

double SceneBuilder::nonNegative(const JsonObject& object, std::string_view key,
                                 std::optional<double> fallback) const {
  const double x = fallback && !object.has(key) ? *fallback : object.number(key);
  if (x < 0.0) throw SceneError(object.pathOf(key), "must not be negative, got " + std::to_string(x));
  return x;
}

double SceneBuilder::positive(const JsonObject& object, std::string_view key) const {
  const double x = object.number(key);
  if (!(x > 0.0)) throw SceneError(object.pathOf(key), "must be positive, got " + std::to_string(x));
  return x;
}

double SceneBuilder::lengthOf(const JsonObject& object, std::string_view key, const Endpoint& a,
                              const Endpoint& b, const char* what) const {
  if (object.has(key)) return what ? positive(object, key) : nonNegative(object, key);
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
    if (type == "spring") {
      f.allowOnly({"type", "a", "b", "stiffness", "damping", "rest_length"});
      Endpoint a = endpoint(f, "a");
      Endpoint b = endpoint(f, "b");
      if (std::holds_alternative<Eigen::VectorXd>(a)) std::swap(a, b);
      if (std::holds_alternative<Eigen::VectorXd>(a)) {
        throw SceneError(f.path(), "a spring needs at least one particle; \"a\" and \"b\" are both points");
      }
      if (a == b) throw SceneError(f.pathOf("b"), "a spring cannot join a particle to itself");
      const SpringSettings settings{nonNegative(f, "stiffness"), nonNegative(f, "damping", 0.0),
                                    lengthOf(f, "rest_length", a, b, nullptr)};
      const BodyId pa = std::get<BodyId>(a);
      if (const auto* pb = std::get_if<BodyId>(&b)) {
        scene_.model.addForce(std::make_unique<Spring>(pa, *pb, settings));
      } else {
        scene_.model.addForce(std::make_unique<Spring>(pa, std::get<Eigen::VectorXd>(b), settings));
      }
    } else if (type == "drag") {
      f.allowOnly({"type", "coefficient"});
      scene_.model.addForce(std::make_unique<Drag>(nonNegative(f, "coefficient")));
    } else if (type == "constant") {
      f.allowOnly({"type", "particle", "force"});
      scene_.model.addForce(std::make_unique<ConstantForce>(particle(f, "particle"), f.vector("force", d_)));
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
    if (const auto first = constraintPaths_.find(*id); first != constraintPaths_.end()) {
      throw SceneError(c.pathOf("id"), "duplicate constraint id " + inQuotes(*id) + " (first used by " +
                                           first->second + ")");
    }
    constraintPaths_.emplace(*id, c.path());
    name = *id;
  }
  if (type == "distance") {
    c.allowOnly({"type", "id", "a", "b", "length"});
    addDistance(c, name);
  } else if (type == "circle") {
    c.allowOnly({"type", "id", "particle", "center", "radius"});
    const BodyId p = particle(c, "particle");
    const Eigen::VectorXd center = c.vector("center", d_);
    const double radius = lengthOf(c, "radius", p, center, "circle");
    addConstraint(std::make_unique<PointOnCircleConstraint>(p, center, radius), c, name);
  } else if (type == "fixed") {
    c.allowOnly({"type", "id", "particle", "point"});
    const BodyId p = particle(c, "particle");
    const Eigen::VectorXd point = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<FixedPointConstraint>(p, point), c, name);
  } else if (type == "line") {
    c.allowOnly({"type", "id", "particle", "point", "direction"});
    const BodyId p = particle(c, "particle");
    const Eigen::VectorXd direction = c.vector("direction", d_);
    if (direction.norm() == 0.0) throw SceneError(c.pathOf("direction"), "must be non-zero");
    const Eigen::VectorXd point = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<PointOnLineConstraint>(p, point, direction), c, name);
  } else if (type == "plane") {
    c.allowOnly({"type", "id", "particle", "point", "normal"});
    if (d_ != 3) throw SceneError(c.pathOf("type"), "a plane constraint needs \"dimension\": 3; in 2D use \"line\"");
    const BodyId p = particle(c, "particle");
    const Eigen::VectorXd normal = c.vector("normal", d_);
    if (normal.norm() == 0.0) throw SceneError(c.pathOf("normal"), "must be non-zero");
    const Eigen::VectorXd point = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<PointOnPlaneConstraint>(p, point, normal), c, name);
  } else if (type == "driven") {
    c.allowOnly({"type", "id", "particle", "path"});
    addDriven(c, name);
  } else {
    unknownType(c, "constraint", type, kConstraintTypes);
  }
}

void SceneBuilder::addDistance(const JsonObject& c, const std::string& name) {
  Endpoint a = endpoint(c, "a");
  Endpoint b = endpoint(c, "b");
  if (std::holds_alternative<Eigen::VectorXd>(a)) std::swap(a, b);
  if (std::holds_alternative<Eigen::VectorXd>(a)) {
    throw SceneError(c.path(), "a rod needs at least one particle; \"a\" and \"b\" are both points");
  }
  if (a == b) throw SceneError(c.pathOf("b"), "a rod cannot join particle " + describe(a) + " to itself");
  const double length = lengthOf(c, "length", a, b, "rod");
  const BodyId pa = std::get<BodyId>(a);
  if (const auto* pb = std::get_if<BodyId>(&b)) {
    addConstraint(std::make_unique<DistanceConstraint>(pa, *pb, length), c, name);
  } else {
    addConstraint(std::make_unique<DistanceConstraint>(pa, std::get<Eigen::VectorXd>(b), length), c, name);
  }
}

// A driven point; the only path type is "circle". Its phase defaults to the particle's
// initial angle about the center, so the particle starts on the path.
void SceneBuilder::addDriven(const JsonObject& c, const std::string& name) {
  const BodyId p = particle(c, "particle");
  const JsonObject path = c.object("path");
  const std::string type = path.string("type");
  if (type != "circle") unknownType(path, "path", type, kPathTypes);
  path.allowOnly({"type", "center", "radius", "angular_speed", "phase"});
  const Eigen::VectorXd center = path.vector("center", d_);
  const double radius = positive(path, "radius");
  const double speed = path.number("angular_speed");
  const Eigen::VectorXd offset = scene_.model.position(p) - center;
  const double phase = path.optionalNumber("phase").value_or(std::atan2(offset[1], offset[0]));
  addConstraint(std::make_unique<DrivenPointConstraint>(
                    p, std::make_shared<CircularPath>(center, radius, speed, phase)),
                c, name);
}

void SceneBuilder::addConstraint(std::unique_ptr<Constraint> constraint, const JsonObject& c,
                                 std::string name) {
  try {
    scene_.model.addConstraint(std::move(constraint), std::move(name));
  } catch (const std::invalid_argument& e) {
    throw SceneError(c.path(), e.what());
  }
}

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

SceneError::SceneError(std::string path, const std::string& reason, std::string_view source)
    : std::runtime_error((source.empty() ? "" : std::string(source) + ": ") +
                         (path.empty() ? "" : path + ": ") + reason),
      path_(std::move(path)), reason_(reason) {}

Scene parseScene(std::string_view json, std::string_view source) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(json);
  } catch (const nlohmann::json::parse_error& e) {
    std::string detail = e.what();
    if (const auto colon = detail.find(": "); colon != std::string::npos) detail = detail.substr(colon + 2);
    throw SceneError("", "malformed JSON at " + lineAndColumn(json, e.byte) + ": " + detail, source);
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range 406, "number overflow parsing '1e999'", which carries no position.
    std::string detail = e.what();
    if (const auto bracket = detail.find("] "); bracket != std::string::npos) detail = detail.substr(bracket + 2);
    throw SceneError("", "malformed JSON: " + detail + " (numbers must fit in a double)", source);
  }
  try {
    const JsonObject root(document, "");
    root.allowOnly({"name", "dimension", "gravity", "settings", "particles", "forces", "constraints"});
    const int d = readDimension(root);
    Scene scene{root.optionalString("name").value_or(""), Model(d), {}, 10.0};
    SceneBuilder builder(scene, d);
    if (root.has("settings")) builder.readSettings(root.object("settings"));
    for (const JsonObject& p : root.objects("particles")) builder.readParticle(p);
    Eigen::VectorXd g = Eigen::VectorXd::Zero(d);
    g[1] = -9.81;
    scene.model.addForce(std::make_unique<Gravity>(root.optionalVector("gravity", d).value_or(g)));
    for (const JsonObject& f : root.objects("forces")) builder.readForce(f);
    for (const JsonObject& c : root.objects("constraints")) builder.readConstraint(c);
    return scene;
  } catch (const SceneError& e) {
    throw SceneError(e.path(), e.reason(), source);
  }
}

Scene loadScene(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw SceneError("", "cannot open scene file: " + std::string(std::strerror(errno)), file.string());
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseScene(text.str(), file.string());
}

}  // namespace tinkertoy
