// SceneBuilder: turns the validated pieces of a scene file into a Model and its settings
// (docs/scene-format.md). Split by concept over three files:
//
//   scene_loader.cpp   settings, particles, points and ends, forces, the particle constraints
//   body_reader.cpp    bodies: beads, chains, rigid bodies
//   joint_reader.cpp   the rigid-body joints: revolute, weld, prismatic, angle, pulley, mouse
//   formula_reader.cpp constraints and potentials written as formulas
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "scene/json_reader.hpp"
#include "tinkertoy/constraints/joint_settings.hpp"
#include "tinkertoy/formula/named_points.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::scene {

// One end of a rod or spring: a point of a body, or a fixed world point.
using Endpoint = std::variant<BodyPoint, Eigen::VectorXd>;

// "[j]", appended to a JSON path.
std::string element(Eigen::Index j);

// settings.validate(), its SettingsError as a SceneError at the JSON path of the setting to
// change first under `path` (the settings object's), or at `path` for one scenes do not set.
void validateSettings(const SimulationSettings& settings, const std::string& path);

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
  void readRigid(const JsonObject& body);

  // A point: "id" of a particle or one-point body, or {"body": "id", "point": i}.
  BodyPoint point(const JsonObject& object, std::string_view key) const;
  BodyPoint pointOf(const nlohmann::json& value, const std::string& path) const;
  // The point of `object[key]` that sits at the world position `anchor` now: on a rigid body
  // the site at that offset in its frame; on a body without a frame its point, which must be
  // at the anchor already.
  BodyPoint anchoredPoint(const JsonObject& object, std::string_view key, const Eigen::Vector2d& anchor) const;
  Endpoint endpoint(const JsonObject& object, std::string_view key, std::string_view anchorKey) const;
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
  // A "formula" constraint and a "formula_potential" force (formula_reader.cpp), and the
  // "points" (with "anchors") that both name.
  void addFormula(const JsonObject& c, const std::string& name);
  void addFormulaPotential(const JsonObject& f);
  NamedPoints namedPoints(const JsonObject& object) const;
  // Adds the constraint, and its "break_force" if the object has one.
  void addConstraint(std::unique_ptr<Constraint> constraint, const JsonObject& c, std::string name);
  // Throws SceneError at the JSON path of constraint `id` (of object c), or of its undefined
  // formula row, if it is not defined at the model's state.
  void requireDefinedAtStart(ConstraintId id, const JsonObject& c) const;

  // Joints (joint_reader.cpp). Returns false if `type` is not a joint type.
  bool readJoint(const JsonObject& c, const std::string& type, const std::string& name);
  // "a", and "b" or the world (absent or null), joined at "anchor" (world, initial pose).
  JointConnection connection(const JsonObject& c) const;
  // The angle of a point's frame now (0 for the world or a body without one).
  double frameAngle(const std::optional<BodyPoint>& point) const;
  JointLimits limits(const JsonObject& c) const;
  std::optional<JointMotor> motor(const JsonObject& c) const;

  Scene& scene_;
  int d_;
  std::map<std::string, std::string, std::less<>> bodyPaths_;        // id → JSON path
  std::map<std::string, std::string, std::less<>> constraintPaths_;  // id → JSON path
};

}  // namespace tinkertoy::scene
