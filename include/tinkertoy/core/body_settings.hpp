// Every built-in kind of body as plain data: what it is made of, not where it is (its coordinates
// and velocities are the model's state). A body returns its settings (Body::settings()) and
// makeBody (model/make_body.hpp) builds one from them, so that code handling each kind (the
// scene writer, the sketch) visits the variant instead of asking for types:
//
//   std::visit([](const auto& s) { draw(s); }, model.body(id).settings());
//
// `type` is each kind's scene-file name. A bead's wire is a curve (curves/), held by pointer so
// that this bottom layer needs only its name.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "tinkertoy/core/collider.hpp"
#include "tinkertoy/core/shape.hpp"

namespace tinkertoy {

class Curve;

// A point mass; its coordinates are its position (model/particle.hpp). A 2D particle with a
// radius collides as a disc of that radius.
struct ParticleSettings {
  static constexpr std::string_view type = "particle";
  int dimension = 2;    // 2 or 3
  double mass = 1.0;    // kg, > 0
  double radius = 0.0;  // m, ≥ 0; 0: a point, which collides with nothing
  Collider collider;
};

// A bead on a parametric wire x = c(u) (model/bead.hpp).
struct BeadSettings {
  static constexpr std::string_view type = "bead";
  std::shared_ptr<const Curve> curve;
  double mass = 1.0;  // kg, > 0
};

// A reduced chain of point masses hanging from `pivot`, coordinates its joint angles
// (model/chain.hpp).
struct ChainSettings {
  static constexpr std::string_view type = "chain";
  Eigen::VectorXd pivot;        // [2 or 3]
  std::vector<double> lengths;  // m, one per link, > 0
  std::vector<double> masses;   // kg, one per link, > 0
};

// How a rigid body moves: by the forces and constraints on it (dynamic), not at all (static), or
// at the velocity it was given (kinematic).
enum class RigidBodyMotion { Dynamic, Static, Kinematic };

// A 2D rigid body (x, y, θ) with its outline (model/rigid_body.hpp).
struct RigidBodySettings {
  static constexpr std::string_view type = "rigid";
  double mass = 1.0;              // kg, > 0
  std::optional<double> inertia;  // kg·m² about the center of mass, > 0; none: the shape's for the mass
  Shape shape;                    // no default: a body is given its outline
  RigidBodyMotion motion = RigidBodyMotion::Dynamic;
  Collider collider;
};

// std::monostate: a body defined outside the library, which has no settings (it cannot be written
// to a scene or rebuilt from settings).
using BodySettings = std::variant<std::monostate, ParticleSettings, BeadSettings, ChainSettings, RigidBodySettings>;

}  // namespace tinkertoy
