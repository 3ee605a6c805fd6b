// Scene loading: JSON → Model + SimulationSettings. The format is docs/scene-format.md.
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <variant>

#include "scene/curve_reader.hpp"
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
#include "tinkertoy/model/bead.hpp"
#include "tinkertoy/model/chain.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {

namespace {

using scene::JsonObject;
using scene::inQuotes;
using scene::unknownType;

// One end of a rod or spring: a point of a body, or a fixed world point.
using Endpoint = std::variant<BodyPoint, Eigen::VectorXd>;

constexpr std::array<std::string_view, 2> kBodyTypes = {"bead", "chain"};
constexpr std::array<std::string_view, 3> kForceTypes = {"spring", "drag", "constant"};
constexpr std::array<std::string_view, 6> kConstraintTypes = {"distance", "circle", "fixed",
                                                             "line", "plane", "driven"};
constexpr std::array<std::string_view, 2> kPathFields = {"speed", "phase"};

// "[j]", appended to a JSON path (built in steps: GCC 12 warns falsely on "[" + to_string(j)).
std::string element(Eigen::Index j) {
  std::string index(1, '[');
  index += std::to_string(j);
  index += ']';
  return index;
}

class SceneBuilder {
 public:
  SceneBuilder(Scene& scene, int dimension) : scene_(scene), d_(dimension) {}

  void readSettings(const JsonObject& settings);
  void readParticle(const JsonObject& particle);
  void readBody(const JsonObject& body);
  void readForce(const JsonObject& force);
  void readConstraint(const JsonObject& constraint);

 private:
  // Registers a particle's or body's id, rejecting empty and duplicate ids.
  std::string claimId(const JsonObject& object);
  void addBody(const JsonObject& object, const std::string& id, std::unique_ptr<Body> body,
               const Eigen::VectorXd& u, const Eigen::VectorXd& uDot);
  // A point: "id" of a particle or one-point body, or {"body": "id", "point": i}.
  BodyPoint point(const JsonObject& object, std::string_view key) const;
  BodyPoint pointOf(const nlohmann::json& value, const std::string& path) const;
  Endpoint endpoint(const JsonObject& object, std::string_view key) const;
  // Two ends of a rod or spring, with a body point first; `what` names the element.
  std::pair<BodyPoint, Endpoint> ends(const JsonObject& object, const char* what) const;
  Eigen::VectorXd positionOf(const Endpoint& e) const;
  std::string describe(const Endpoint& e) const;
  // A length: the given value, else the initial distance between a and b. `what` names the
  // element ("rod", "circle") in the message when that distance is zero; nullptr allows zero.
  double lengthOf(const JsonObject& object, std::string_view key, const Endpoint& a,
                  const Endpoint& b, const char* what) const;

  void addDistance(const JsonObject& c, const std::string& name);
  void addDriven(const JsonObject& c, const std::string& name);
  void addConstraint(std::unique_ptr<Constraint> constraint, const JsonObject& c, std::string name);

  Scene& scene_;
  int d_;
  std::map<std::string, std::string, std::less<>> bodyPaths_;        // id → JSON path
  std::map<std::string, std::string, std::less<>> constraintPaths_;  // id → JSON path
};

void SceneBuilder::readSettings(const JsonObject& s) {
  s.allowOnly({"dt", "duration", "integrator", "solver", "ks", "kd", "tolerance", "max_iterations",
               "regularization", "project"});
  SimulationSettings& settings = scene_.settings;
  if (s.has("dt")) settings.dt = s.positive("dt");
  scene_.duration = s.nonNegative("duration", scene_.duration);
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
  settings.ks = s.nonNegative("ks", settings.ks);
  settings.kd = s.nonNegative("kd", settings.kd);
  if (s.has("tolerance")) settings.solver.tolerance = s.positive("tolerance");
  if (const auto cap = s.optionalInteger("max_iterations")) {
    if (*cap < 0 || *cap > 1'000'000'000) {
      throw SceneError(s.pathOf("max_iterations"), "must be between 0 (automatic) and 1e9");
    }
    settings.solver.maxIterations = static_cast<int>(*cap);
  }
  settings.solver.regularization = s.nonNegative("regularization", settings.solver.regularization);
  if (const auto project = s.optionalBoolean("project")) settings.projection.enabled = *project;
}

std::string SceneBuilder::claimId(const JsonObject& object) {
  const std::string id = object.string("id");
  if (id.empty()) throw SceneError(object.pathOf("id"), "must not be empty");
  if (const auto first = bodyPaths_.find(id); first != bodyPaths_.end()) {
    throw SceneError(object.pathOf("id"), "duplicate id " + inQuotes(id) + " (first used by " + first->second + ")");
  }
  bodyPaths_.emplace(id, object.path());
  return id;
}

void SceneBuilder::readParticle(const JsonObject& p) {
  p.allowOnly({"id", "mass", "position", "velocity"});
  const std::string id = claimId(p);
  const double mass = p.positive("mass");
  const Eigen::VectorXd position = p.vector("position", d_);
  const Eigen::VectorXd velocity = p.optionalVector("velocity", d_).value_or(Eigen::VectorXd::Zero(d_));
  scene_.model.addParticle(mass, position, velocity, id);
}

void SceneBuilder::addBody(const JsonObject& object, const std::string& id, std::unique_ptr<Body> body,
                           const Eigen::VectorXd& u, const Eigen::VectorXd& uDot) {
  try {
    scene_.model.addBody(std::move(body), u, uDot, id);
  } catch (const std::invalid_argument& e) {
    throw SceneError(object.path(), e.what());
  }
}

void SceneBuilder::readBody(const JsonObject& b) {
  const std::string type = b.string("type");
  if (type == "bead") {
    b.allowOnly({"id", "type", "mass", "curve", "u", "u_dot"});
    const std::string id = claimId(b);
    auto curve = scene::readCurve(b.object("curve"), d_);
    addBody(b, id, std::make_unique<Bead>(std::move(curve), b.positive("mass")),
            Eigen::VectorXd::Constant(1, b.optionalNumber("u").value_or(0.0)),
            Eigen::VectorXd::Constant(1, b.optionalNumber("u_dot").value_or(0.0)));
  } else if (type == "chain") {
    b.allowOnly({"id", "type", "pivot", "lengths", "masses", "angles", "angular_velocities"});
    const std::string id = claimId(b);
    const Eigen::VectorXd lengths = b.numbers("lengths");
    if (lengths.size() == 0) throw SceneError(b.pathOf("lengths"), "a chain needs at least one link");
    // Every per-link array must have one entry per length.
    const auto perLink = [&](std::string_view key, bool required) -> Eigen::VectorXd {
      if (!required && !b.has(key)) return Eigen::VectorXd::Zero(lengths.size());
      const Eigen::VectorXd values = b.numbers(key);
      if (values.size() != lengths.size()) {
        throw SceneError(b.pathOf(key), "expected one entry per link: \"lengths\" has " +
                                            std::to_string(lengths.size()) + ", this has " +
                                            std::to_string(values.size()));
      }
      return values;
    };
    const Eigen::VectorXd masses = perLink("masses", true);
    const Eigen::VectorXd angles = perLink("angles", true);
    const Eigen::VectorXd rates = perLink("angular_velocities", false);
    for (Eigen::Index j = 0; j < lengths.size(); ++j) {
      for (const auto& [key, values] : {std::pair{"lengths", &lengths}, std::pair{"masses", &masses}}) {
        if (!((*values)[j] > 0.0)) throw SceneError(b.pathOf(key) + element(j), "must be positive");
      }
    }
    addBody(b, id,
            std::make_unique<Chain>(b.vector("pivot", d_), std::vector<double>(lengths.begin(), lengths.end()),
                                    std::vector<double>(masses.begin(), masses.end())),
            angles, rates);
  } else {
    unknownType(b, "body", type, kBodyTypes);
  }
}

BodyPoint SceneBuilder::pointOf(const nlohmann::json& value, const std::string& path) const {
  const Model& model = scene_.model;
  if (value.is_object()) {
    const JsonObject ref(value, path);
    ref.allowOnly({"body", "point"});
    const std::string id = ref.string("body");
    const auto body = model.findBody(id);
    if (!body) throw SceneError(ref.pathOf("body"), "no particle or body with id " + inQuotes(id));
    const long index = ref.optionalInteger("point").value_or(0);
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

Endpoint SceneBuilder::endpoint(const JsonObject& object, std::string_view key) const {
  const nlohmann::json& value = object.at(key);
  if (value.is_array()) return scene::readVector(value, object.pathOf(key), d_);
  if (!value.is_string() && !value.is_object()) {
    throw SceneError(object.pathOf(key), "expected a particle or body id, {\"body\": id, \"point\": i}, or a point [" +
                                             std::to_string(d_) + " numbers], got " + std::string(scene::typeName(value)));
  }
  return pointOf(value, object.pathOf(key));
}

std::pair<BodyPoint, Endpoint> SceneBuilder::ends(const JsonObject& object, const char* what) const {
  Endpoint a = endpoint(object, "a");
  Endpoint b = endpoint(object, "b");
  if (std::holds_alternative<Eigen::VectorXd>(a)) std::swap(a, b);
  if (std::holds_alternative<Eigen::VectorXd>(a)) {
    throw SceneError(object.path(), std::string("a ") + what +
                                        " needs at least one particle or body point; \"a\" and \"b\" are both fixed points");
  }
  if (a == b) throw SceneError(object.pathOf("b"), std::string("a ") + what + " cannot join " + describe(a) + " to itself");
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
    if (type == "spring") {
      f.allowOnly({"type", "a", "b", "stiffness", "damping", "rest_length"});
      const auto [a, b] = ends(f, "spring");
      const SpringSettings settings{f.nonNegative("stiffness"), f.nonNegative("damping", 0.0),
                                    lengthOf(f, "rest_length", a, b, nullptr)};
      if (const auto* pb = std::get_if<BodyPoint>(&b)) {
        scene_.model.addForce(std::make_unique<Spring>(a, *pb, settings));
      } else {
        scene_.model.addForce(std::make_unique<Spring>(a, std::get<Eigen::VectorXd>(b), settings));
      }
    } else if (type == "drag") {
      f.allowOnly({"type", "coefficient"});
      scene_.model.addForce(std::make_unique<Drag>(f.nonNegative("coefficient")));
    } else if (type == "constant") {
      f.allowOnly({"type", "particle", "force"});
      scene_.model.addForce(std::make_unique<ConstantForce>(point(f, "particle"), f.vector("force", d_)));
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
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd center = c.vector("center", d_);
    const double radius = lengthOf(c, "radius", p, center, "circle");
    addConstraint(std::make_unique<PointOnCircleConstraint>(p, center, radius), c, name);
  } else if (type == "fixed") {
    c.allowOnly({"type", "id", "particle", "point"});
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd location = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<FixedPointConstraint>(p, location), c, name);
  } else if (type == "line") {
    c.allowOnly({"type", "id", "particle", "point", "direction"});
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd direction = c.vector("direction", d_);
    if (direction.norm() == 0.0) throw SceneError(c.pathOf("direction"), "must be non-zero");
    const Eigen::VectorXd origin = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<PointOnLineConstraint>(p, origin, direction), c, name);
  } else if (type == "plane") {
    c.allowOnly({"type", "id", "particle", "point", "normal"});
    if (d_ != 3) throw SceneError(c.pathOf("type"), "a plane constraint needs \"dimension\": 3; in 2D use \"line\"");
    const BodyPoint p = point(c, "particle");
    const Eigen::VectorXd normal = c.vector("normal", d_);
    if (normal.norm() == 0.0) throw SceneError(c.pathOf("normal"), "must be non-zero");
    const Eigen::VectorXd origin = c.optionalVector("point", d_).value_or(scene_.model.position(p));
    addConstraint(std::make_unique<PointOnPlaneConstraint>(p, origin, normal), c, name);
  } else if (type == "driven") {
    c.allowOnly({"type", "id", "particle", "path"});
    addDriven(c, name);
  } else {
    unknownType(c, "constraint", type, kConstraintTypes);
  }
}

void SceneBuilder::addDistance(const JsonObject& c, const std::string& name) {
  const auto [a, b] = ends(c, "rod");
  const double length = lengthOf(c, "length", a, b, "rod");
  if (const auto* pb = std::get_if<BodyPoint>(&b)) {
    addConstraint(std::make_unique<DistanceConstraint>(a, *pb, length), c, name);
  } else {
    addConstraint(std::make_unique<DistanceConstraint>(a, std::get<Eigen::VectorXd>(b), length), c, name);
  }
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
    root.allowOnly({"name", "dimension", "gravity", "settings", "particles", "bodies", "forces", "constraints"});
    const int d = readDimension(root);
    Scene scene{root.optionalString("name").value_or(""), Model(d), {}, 10.0};
    SceneBuilder builder(scene, d);
    if (root.has("settings")) builder.readSettings(root.object("settings"));
    for (const JsonObject& p : root.objects("particles")) builder.readParticle(p);
    for (const JsonObject& b : root.objects("bodies")) builder.readBody(b);
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
