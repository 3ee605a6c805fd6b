// Scene writing: Model + SimulationSettings → JSON, the inverse of scene_loader.cpp, with the
// model's current state as the initial state (docs/scene-format.md, "Writing scenes").
//
// The format describes an initial pose, so a few things are re-expressed for a model written
// mid-run, so that loading the file gives the same model in the same state:
//
//   anchors         world points of the joint's sites at the current pose
//   joint limits    the loader measures a joint coordinate from its value at load, so a
//                   revolute's or prismatic's limits shift by the coordinate's current value
//   driven paths    the file starts at t = 0, so a path's phase advances by speed · t
//   formulas        for the same reason a formula's t becomes (t + the current time)
//
// Mouse springs (interactive drags) and disabled (broken) constraints are left out.
#include <Eigen/Geometry>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>

#include "common/article.hpp"

#include "scene/curve_writer.hpp"
#include "tinkertoy/constraints/constraint_settings.hpp"
#include "tinkertoy/constraints/path.hpp"
#include "tinkertoy/forces/force_settings.hpp"
#include "tinkertoy/formula/formula.hpp"
#include "tinkertoy/curves/curve.hpp"
#include "tinkertoy/model/joint_anchor.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {

namespace {

using scene::Json;
using scene::numbers;

// A limit, or nothing for an infinite one.
void putLimit(Json& out, const char* key, double value) {
  if (std::isfinite(value)) out[key] = value;
}

class Writer {
 public:
  explicit Writer(const Scene& scene) : scene_(scene), model_(scene.model) {
    nameBodies();
  }

  Json write() {
    Json out;
    out["name"] = scene_.name;
    if (!scene_.description.empty()) out["description"] = scene_.description;
    if (scene_.period) out["period"] = *scene_.period;
    out["dimension"] = model_.dimension();
    out["gravity"] = numbers(gravity());
    out["settings"] = settings();
    Json particles = Json::array(), bodies = Json::array();
    for (std::size_t i = 0; i < model_.bodyCount(); ++i) {
      const BodyId id = model_.bodyAt(i);
      (model_.isParticle(id) ? particles : bodies).push_back(body(id));
    }
    out["particles"] = particles;
    out["bodies"] = bodies;
    Json forces = Json::array();
    for (std::size_t i = 0; i < model_.forceCount(); ++i) {
      if (Json f = force(model_.force(model_.forceAt(i))); !f.is_null()) forces.push_back(std::move(f));
    }
    out["forces"] = forces;
    Json constraints = Json::array();
    for (std::size_t i = 0; i < model_.constraintCount(); ++i) {
      const ConstraintId id = model_.constraintAt(i);
      if (model_.isEnabled(id)) constraints.push_back(constraint(id));
    }
    out["constraints"] = constraints;
    return out;
  }

 private:
  // Every body gets an id: its name, or a fresh "body<n>" that no other body has.
  void nameBodies() {
    std::set<std::string> taken;
    for (std::size_t i = 0; i < model_.bodyCount(); ++i) taken.insert(model_.name(model_.bodyAt(i)));
    std::size_t next = 0;
    for (std::size_t i = 0; i < model_.bodyCount(); ++i) {
      std::string name = model_.name(model_.bodyAt(i));
      if (name.empty()) {
        do {
          name = "body" + std::to_string(next++);
        } while (taken.contains(name));
        taken.insert(name);
      }
      ids_.push_back(std::move(name));
    }
  }

  [[nodiscard]] const std::string& id(BodyId body) const { return ids_[model_.indexOf(body)]; }

  Eigen::VectorXd gravity() const {
    Eigen::VectorXd g = Eigen::VectorXd::Zero(model_.dimension());
    for (std::size_t i = 0; i < model_.forceCount(); ++i) {
      const ForceSettings settings = model_.force(model_.forceAt(i)).settings();
      if (const auto* gravity = std::get_if<GravitySettings>(&settings)) g += gravity->acceleration;
    }
    return g;
  }

  Json settings() const {
    const SimulationSettings& s = scene_.settings;
    Json out;
    out["dt"] = s.dt;
    out["duration"] = scene_.duration;
    out["formulation"] = formulationName(s.formulation);
    out["integrator"] = integratorName(s.integrator);
    out["rtol"] = s.errorTolerance.relative;
    out["atol"] = s.errorTolerance.absolute;
    out["solver"] = solverName(s.solver.kind);
    out["ks"] = s.ks;
    out["kd"] = s.kd;
    out["tolerance"] = s.solver.tolerance;
    out["max_iterations"] = s.solver.maxIterations;
    out["regularization"] = s.solver.regularization;
    out["factorization"] = factorizationName(s.solver.factorization);
    if (s.solver.reuseIterations < 0) {
      out["reuse_iterations"] = "auto";
    } else {
      out["reuse_iterations"] = s.solver.reuseIterations;
    }
    out["threads"] = s.threads;
    out["project"] = s.projection.enabled;
    out["iterations"] = s.velocity.iterations;
    out["substeps"] = s.velocity.substeps;
    out["velocity_scheme"] = velocitySchemeName(s.velocity.scheme);
    out["warm_start"] = s.velocity.warmStart;
    out["position_correction"] = positionCorrectionName(s.velocity.positionCorrection);
    out["joint_hertz"] = s.velocity.jointHertz;
    out["joint_damping_ratio"] = s.velocity.jointDampingRatio;
    // The contacts' settings with collisions, and without them where a scene changed one (so
    // that turning collisions on later finds them as they were).
    const VelocitySettings defaults;
    const VelocitySettings& v = s.velocity;
    if (v.collisions || v.friction != defaults.friction || v.restitution != defaults.restitution ||
        v.contactHertz != defaults.contactHertz || v.contactDampingRatio != defaults.contactDampingRatio) {
      if (v.collisions) out["collisions"] = true;
      out["friction"] = v.friction;
      out["restitution"] = v.restitution;
      out["contact_hertz"] = v.contactHertz;
      out["contact_damping_ratio"] = v.contactDampingRatio;
    }
    if (v.sleep || v.sleepSpeed != defaults.sleepSpeed || v.sleepTime != defaults.sleepTime) {
      if (v.sleep) out["sleep"] = true;
      out["sleep_speed"] = v.sleepSpeed;
      out["sleep_time"] = v.sleepTime;
    }
    return out;
  }

  Json body(BodyId b) const {
    const Body& body = model_.body(b);
    Json out;
    out["id"] = id(b);
    if (!model_.isParticle(b)) out["type"] = body.type();
    std::visit([&](const auto& s) { put(out, b, s); }, body.settings());
    return out;
  }

  // One put() per kind of body: its keys besides "id" and "type", with its coordinates.
  void put(Json& /*out*/, BodyId b, std::monostate /*none*/) const {
    throw std::invalid_argument(detail::withArticle(model_.body(b).type()) + " body cannot be written to a scene");
  }
  void put(Json& out, BodyId b, const ParticleSettings& s) const {
    out["mass"] = s.mass;
    out["position"] = numbers(model_.coordinates(b));
    out["velocity"] = numbers(model_.velocities(b));
    if (s.radius > 0.0) out["radius"] = s.radius;
    put(out, s.collider);
  }
  void put(Json& out, BodyId b, const BeadSettings& s) const {
    out["mass"] = s.mass;
    out["curve"] = scene::writeCurve(*s.curve, model_.dimension());
    out["u"] = model_.coordinates(b)[0];
    out["u_dot"] = model_.velocities(b)[0];
  }
  void put(Json& out, BodyId b, const ChainSettings& s) const {
    out["pivot"] = numbers(s.pivot);
    out["lengths"] = numbers(s.lengths);
    out["masses"] = numbers(s.masses);
    out["angles"] = numbers(model_.coordinates(b));
    out["angular_velocities"] = numbers(model_.velocities(b));
  }
  void put(Json& out, BodyId b, const RigidBodySettings& s) const {
    const Eigen::VectorXd q = model_.coordinates(b), v = model_.velocities(b);
    out["mass"] = s.mass;
    // An inertia the shape gives is left out (RigidBody::settings) for the loader to derive again,
    // bit for bit by the same function, so that a change of mass or shape in an editor carries it along.
    if (s.inertia) out["inertia"] = *s.inertia;
    out["position"] = {q[0], q[1]};
    out["angle"] = q[2];
    out["velocity"] = {v[0], v[1]};
    out["angular_velocity"] = v[2];
    out["shape"] = shape(s.shape);
    if (s.motion == RigidBodyMotion::Static) out["static"] = true;
    if (s.motion == RigidBodyMotion::Kinematic) out["kinematic"] = true;
    put(out, s.collider);
  }

  // A body's surface and filter, where they are not the defaults.
  static void put(Json& out, const Collider& c) {
    if (c.friction) out["friction"] = *c.friction;
    if (c.restitution) out["restitution"] = *c.restitution;
    const Collider plain;
    if (c.category == plain.category && c.mask == plain.mask && c.group == plain.group) return;
    Json filter;
    if (c.category != plain.category) filter["category"] = c.category;
    if (c.mask != plain.mask) filter["mask"] = c.mask;
    if (c.group != plain.group) filter["group"] = c.group;
    out["filter"] = filter;
  }

  static Json shape(const Shape& s) {
    Json out;
    out["type"] = s.name();
    switch (s.type()) {
      case Shape::Type::Circle:
        out["radius"] = s.radius();
        break;
      case Shape::Type::Box:
        out["size"] = {s.size().x(), s.size().y()};
        break;
      case Shape::Type::Capsule:
        out["length"] = s.length();
        out["radius"] = s.radius();
        break;
      case Shape::Type::Segment:
        out["a"] = {s.vertices()[0].x(), s.vertices()[0].y()};
        out["b"] = {s.vertices()[1].x(), s.vertices()[1].y()};
        break;
      case Shape::Type::Polygon:
      case Shape::Type::Chain: {
        Json vertices = Json::array();
        for (const Eigen::Vector2d& p : s.vertices()) vertices.push_back({p.x(), p.y()});
        out[s.type() == Shape::Type::Chain ? "points" : "vertices"] = vertices;
        if (s.loop()) out["loop"] = true;
        break;
      }
    }
    return out;
  }

  // A point as the scene names it: a body's id, or {"body": id, "point": i} for a chain. An
  // off-centre site of a rigid body is named by its body; the caller gives its anchor.
  Json point(const BodyPoint& p) const {
    if (std::holds_alternative<ChainSettings>(model_.body(p.body).settings())) {
      return {{"body", id(p.body)}, {"point", p.site.index}};
    }
    return id(p.body);
  }

  [[nodiscard]] bool needsAnchor(const BodyPoint& p) const { return model_.body(p.body).hasFrame(); }

  // The world position of a point at the current pose, as a scene vector.
  Json at(const BodyPoint& p) const { return numbers(model_.position(p)); }

  // "a"/"b" of a two-ended constraint or force, with "anchor_a"/"anchor_b" for rigid bodies.
  void putEnd(Json& out, const char* key, const char* anchorKey, const BodyPoint& p) const {
    out[key] = point(p);
    if (needsAnchor(p)) out[anchorKey] = at(p);
  }

  // A single-point constraint's "particle": only a body's own point can be named that way.
  Json onlyPoint(const BodyPoint& p, std::string_view type) const {
    if (needsAnchor(p) && p.site.local != Eigen::Vector2d::Zero()) {
      throw std::invalid_argument(detail::withArticle(type) + " constraint on an off-centre point of " +
                                  model_.describe(p.body) + " cannot be written to a scene");
    }
    return point(p);
  }

  Json force(const Force& f) const {
    Json out;
    out["type"] = f.type();
    std::visit([&](const auto& s) { put(out, f, s); }, f.settings());
    return out;
  }

  // One put() per kind of force: its keys besides "type". Gravity goes to the top level and mouse
  // springs are interactive: neither is an entry of "forces" (null).
  void put(Json& /*out*/, const Force& f, std::monostate /*none*/) const {
    throw std::invalid_argument(detail::withArticle(f.type()) + " force defined in C++ cannot be written to a scene");
  }
  void put(Json& out, const Force& /*f*/, const GravitySettings& /*s*/) const { out = Json(); }
  void put(Json& out, const Force& /*f*/, const MouseSpringSettings& /*s*/) const { out = Json(); }
  void put(Json& out, const Force& /*f*/, const SpringSettings& s) const {
    putEnd(out, "a", "anchor_a", s.a);
    if (s.b) {
      putEnd(out, "b", "anchor_b", *s.b);
    } else {
      out["b"] = numbers(s.anchor);
    }
    out["stiffness"] = s.parameters.stiffness;
    out["damping"] = s.parameters.damping;
    out["rest_length"] = s.parameters.rest_length;
  }
  void put(Json& out, const Force& /*f*/, const DragSettings& s) const { out["coefficient"] = s.coefficient; }
  void put(Json& out, const Force& /*f*/, const ConstantForceSettings& s) const {
    out["particle"] = onlyPoint(s.point, "constant force");
    out["force"] = numbers(s.force);
  }
  void put(Json& out, const Force& /*f*/, const FormulaPotentialSettings& s) const {
    putNamedPoints(out, s.points, s.parameters);
    out["V"] = restarted(s.V);
  }
  void put(Json& out, const Force& /*f*/, const TorqueSettings& s) const {
    out["body"] = id(s.body);
    out["torque"] = s.torque;
  }

  // The joint's anchor (a's site at the current pose) and "b" (null for the ground).
  void putJointEnds(Json& out, const JointConnection& c) const {
    out["a"] = point(c.a);
    if (c.b) {
      out["b"] = point(*c.b);
    } else {
      out["b"] = nullptr;
    }
    out["anchor"] = at(c.a);
  }

  // A joint coordinate's limits and motor, the limits measured from the coordinate's current
  // value s (which the loader takes as zero).
  static void putCoordinate(Json& out, const JointLimits& limits, const std::optional<JointMotor>& motor, double s) {
    putLimit(out, "lower", limits.lower - s);
    putLimit(out, "upper", limits.upper - s);
    if (motor) {
      out["motor_speed"] = motor->speed;
      out["max_motor_force"] = motor->maxForce;
    }
  }

  [[nodiscard]] double frameAngle(const std::optional<BodyPoint>& p) const { return tinkertoy::frameAngle(model_, p); }

  Json constraint(ConstraintId id) const {
    const Constraint& c = model_.constraint(id);
    Json out;
    out["type"] = c.type();
    const std::string& name = model_.name(id);
    if (!name.empty() && name.rfind("constraints[", 0) != 0) out["id"] = name;
    const ConstraintSettings settings = c.settings();
    std::visit([&](const auto& s) { put(out, id, s); }, settings);
    const bool breakable = !std::holds_alternative<MouseJointSettings>(settings);  // a drag has no break force
    if (breakable && std::isfinite(model_.breakForce(id))) out["break_force"] = model_.breakForce(id);
    if (model_.collideConnected(id)) out["collide_connected"] = true;
    return out;
  }

  // One put() per kind of constraint: its keys besides "type", "id", "break_force" and "collide_connected".
  void put(Json& /*out*/, ConstraintId id, std::monostate /*none*/) const {
    throw std::invalid_argument(model_.describe(id) + ": " + detail::withArticle(model_.constraint(id).type()) +
                                " constraint cannot be written to a scene");
  }
  void put(Json& out, ConstraintId /*id*/, const DistanceConstraintSettings& s) const {
    putEnd(out, "a", "anchor_a", s.a);
    if (s.b) {
      putEnd(out, "b", "anchor_b", *s.b);
    } else {
      out["b"] = numbers(s.anchor);
    }
    if (s.length) out["length"] = *s.length;
    if (s.minLength > 0.0) out["min_length"] = s.minLength;
    putLimit(out, "max_length", s.maxLength);
    if (s.spring) {
      out["frequency"] = s.spring->frequency;
      out["damping_ratio"] = s.spring->dampingRatio;
    }
  }
  void put(Json& out, ConstraintId /*id*/, const PointOnCircleConstraintSettings& s) const {
    out["particle"] = onlyPoint(s.point, s.type);
    out["center"] = numbers(s.center);
    out["radius"] = s.radius;
  }
  void put(Json& out, ConstraintId /*id*/, const FixedPointConstraintSettings& s) const {
    out["particle"] = onlyPoint(s.point, s.type);
    out["point"] = numbers(s.location);
  }
  void put(Json& out, ConstraintId /*id*/, const PointOnLineConstraintSettings& s) const {
    out["particle"] = onlyPoint(s.point, s.type);
    out["point"] = numbers(s.origin);
    out["direction"] = numbers(s.direction);
  }
  void put(Json& out, ConstraintId /*id*/, const PointOnPlaneConstraintSettings& s) const {
    out["particle"] = onlyPoint(s.point, s.type);
    out["point"] = numbers(s.origin);
    out["normal"] = numbers(s.normal);
  }
  void put(Json& out, ConstraintId id, const DrivenPointConstraintSettings& s) const {
    const PathSettings settings = s.path->settings();
    const auto* path = std::get_if<CurvePathSettings>(&settings);
    if (!path) throw std::invalid_argument(model_.describe(id) + ": only a curve path can be written to a scene");
    out["particle"] = onlyPoint(s.point, s.type);
    Json p = scene::writeCurve(*path->curve, model_.dimension());
    p["speed"] = path->speed;
    p["phase"] = path->phase + path->speed * model_.time();
    out["path"] = p;
  }
  void put(Json& out, ConstraintId /*id*/, const RevoluteJointSettings& s) const {
    putJointEnds(out, s.connection);
    putCoordinate(out, s.limits, s.motor,
                  frameAngle(s.connection.a) - frameAngle(s.connection.b) - s.referenceAngle);
  }
  void put(Json& out, ConstraintId /*id*/, const WeldJointSettings& s) const { putJointEnds(out, s.connection); }
  void put(Json& out, ConstraintId /*id*/, const PrismaticJointSettings& s) const {
    const JointConnection& link = s.connection;
    putJointEnds(out, link);
    const Eigen::Vector2d axis = Eigen::Rotation2Dd(frameAngle(link.b)) * s.axis.stableNormalized();
    out["axis"] = {axis.x(), axis.y()};
    const Eigen::VectorXd b = link.b ? model_.position(*link.b) : Eigen::VectorXd(link.ground);
    const Eigen::VectorXd d = model_.position(link.a) - b;
    putCoordinate(out, s.limits, s.motor, axis.dot(Eigen::Vector2d(d[0], d[1])));
  }
  void put(Json& out, ConstraintId /*id*/, const AngleJointSettings& s) const {
    out["a"] = point(s.connection.a);
    if (s.connection.b) {
      out["b"] = point(*s.connection.b);
    } else {
      out["b"] = nullptr;
    }
    out["ratio"] = s.ratio;
  }
  void put(Json& out, ConstraintId /*id*/, const PulleyJointSettings& s) const {
    putEnd(out, "a", "anchor_a", s.a);
    putEnd(out, "b", "anchor_b", s.b);
    out["ground_a"] = {s.groundA.x(), s.groundA.y()};
    out["ground_b"] = {s.groundB.x(), s.groundB.y()};
    out["ratio"] = s.ratio;
    out["length"] = s.length;
  }
  // A formula's "points" by name, each with its "anchors" entry (world, current pose) if it is an
  // off-centre site, and its "parameters".
  void putNamedPoints(Json& out, const NamedPoints& named, const FormulaParameters& parameters) const {
    Json points = Json::object(), anchors = Json::object();
    for (const auto& [name, p] : named) {
      points[name] = point(p);
      if (needsAnchor(p) && p.site.local != Eigen::Vector2d::Zero()) anchors[name] = at(p);
    }
    out["points"] = points;
    if (!anchors.empty()) out["anchors"] = anchors;
    if (!parameters.empty()) out["parameters"] = parameters;
  }
  // A formula with the file's clock: it starts at 0, so t becomes (t + the current time).
  [[nodiscard]] std::string restarted(const std::string& formula) const {
    return model_.time() == 0.0 ? formula : shiftVariable(formula, "t", model_.time());
  }

  // "C": a formula, or an array of them.
  void put(Json& out, ConstraintId /*id*/, const FormulaConstraintSettings& s) const {
    putNamedPoints(out, s.points, s.parameters);
    std::vector<std::string> rows;
    for (const std::string& row : s.rows) rows.push_back(restarted(row));
    if (rows.size() == 1) {
      out["C"] = rows.front();
    } else {
      out["C"] = rows;
    }
    if (s.kind == RowKind::Inequality) out["kind"] = "inequality";
  }
  void put(Json& out, ConstraintId /*id*/, const MouseJointSettings& s) const {
    out["a"] = point(s.point);
    out["anchor"] = at(s.point);
    out["target"] = {s.target.x(), s.target.y()};
    out["frequency"] = s.spring.frequency;
    out["damping_ratio"] = s.spring.dampingRatio;
    out["max_force"] = s.maxForce;
  }

  const Scene& scene_;
  const Model& model_;
  std::vector<std::string> ids_;  // per body, by dense index
};

}  // namespace

std::string writeScene(const Scene& scene) { return Writer(scene).write().dump(2) + "\n"; }

void saveScene(const Scene& scene, const std::filesystem::path& file) {
  const std::string text = writeScene(scene);
  std::ofstream out(file);
  if (!out) throw SceneError("", "cannot open the file for writing", file.string());
  out << text;
  if (!out.flush()) throw SceneError("", "cannot write the file", file.string());
}

}  // namespace tinkertoy
