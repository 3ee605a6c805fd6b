// Bodies of a scene: particles, beads on curves, reduced chains and rigid bodies, and how they
// collide (docs/scene-format.md).
#include <array>
#include <cstdint>
#include <limits>

#include "common/vector_checks.hpp"
#include "scene/curve_reader.hpp"
#include "scene/scene_builder.hpp"
#include "tinkertoy/model/bead.hpp"
#include "tinkertoy/model/chain.hpp"
#include "tinkertoy/model/particle.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy::scene {

namespace {

constexpr auto kBodyTypes = typeNames<BeadSettings, ChainSettings, RigidBodySettings>();  // particles have a list of their own
constexpr std::array<std::string_view, 6> kShapeTypes = {
    Shape::name(Shape::Type::Circle),  Shape::name(Shape::Type::Box),     Shape::name(Shape::Type::Polygon),
    Shape::name(Shape::Type::Capsule), Shape::name(Shape::Type::Segment), Shape::name(Shape::Type::Chain)};

Shape readShape(const JsonObject& shape) {
  const std::string type = shape.string("type");
  // The factory's own checks, as a SceneError at the field they concern.
  const auto make = [&shape](std::string_view field, const auto& build) {
    try {
      return build();
    } catch (const std::invalid_argument& e) {
      throw SceneError(shape.pathOf(field), e.what());
    }
  };
  if (type == Shape::name(Shape::Type::Circle)) {
    shape.allowOnly({"type", "radius"});
    const double radius = shape.positive("radius");
    return make("radius", [&] { return Shape::circle(radius); });
  }
  if (type == Shape::name(Shape::Type::Box)) {
    shape.allowOnly({"type", "size"});
    const Eigen::VectorXd size = shape.vector("size", 2);
    if (!(size.minCoeff() > 0.0)) throw SceneError(shape.pathOf("size"), "width and height must be positive");
    return make("size", [&] { return Shape::box(size[0], size[1]); });
  }
  if (type == Shape::name(Shape::Type::Polygon)) {
    shape.allowOnly({"type", "vertices"});
    std::vector<Eigen::Vector2d> vertices;
    for (const Eigen::VectorXd& v : shape.vectors("vertices", 2)) vertices.emplace_back(v[0], v[1]);
    return make("vertices", [&] { return Shape::polygon(std::move(vertices)); });
  }
  if (type == Shape::name(Shape::Type::Segment)) {
    shape.allowOnly({"type", "a", "b"});
    const Eigen::VectorXd a = shape.vector("a", 2), b = shape.vector("b", 2);
    return make("b", [&] { return Shape::segment(a, b); });
  }
  if (type == Shape::name(Shape::Type::Chain)) {
    shape.allowOnly({"type", "points", "loop"});
    std::vector<Eigen::Vector2d> points;
    for (const Eigen::VectorXd& p : shape.vectors("points", 2)) points.emplace_back(p[0], p[1]);
    const bool loop = shape.optionalBoolean("loop").value_or(false);
    return make("points", [&] { return Shape::chain(std::move(points), loop); });
  }
  if (type == Shape::name(Shape::Type::Capsule)) {
    shape.allowOnly({"type", "length", "radius"});
    const double length = shape.positive("length"), radius = shape.positive("radius");
    return make("length", [&] { return Shape::capsule(length, radius); });
  }
  unknownType(shape, "shape", type, kShapeTypes);
}

}  // namespace

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
  if (type == BeadSettings::type) {
    b.allowOnly({"id", "type", "mass", "curve", "u", "u_dot"});
    const std::string id = claimId(b);
    auto curve = scene::readCurve(b.object("curve"), d_);
    addBody(b, id, std::make_unique<Bead>(std::move(curve), b.mass("mass")),
            Eigen::VectorXd::Constant(1, b.optionalNumber("u").value_or(0.0)),
            Eigen::VectorXd::Constant(1, b.optionalNumber("u_dot").value_or(0.0)));
  } else if (type == ChainSettings::type) {
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
      try {
        detail::requireMass(masses[j], "it");
      } catch (const std::invalid_argument& e) {
        throw SceneError(b.pathOf("masses") + element(j), e.what());
      }
    }
    addBody(b, id,
            std::make_unique<Chain>(b.vector("pivot", d_), std::vector<double>(lengths.begin(), lengths.end()),
                                    std::vector<double>(masses.begin(), masses.end())),
            angles, rates);
  } else if (type == RigidBodySettings::type) {
    readRigid(b);
  } else {
    unknownType(b, "body", type, kBodyTypes);
  }
}


namespace {

// A body's "friction", "restitution" and "filter" (core/collider.hpp).
Collider readCollider(const JsonObject& body) {
  Collider c;
  if (body.has("friction")) c.friction = body.nonNegative("friction");
  if (body.has("restitution")) {
    c.restitution = body.nonNegative("restitution");
    if (*c.restitution > 1.0) throw SceneError(body.pathOf("restitution"), "must be at most 1 (a bounce cannot gain speed)");
  }
  if (body.has("filter")) {
    const JsonObject filter = body.object("filter");
    filter.allowOnly({"category", "mask", "group"});
    const auto bits = [&filter](std::string_view key, std::uint32_t fallback) {
      const std::int64_t value = filter.optionalInteger(key).value_or(fallback);
      if (value < 0 || value > std::numeric_limits<std::uint32_t>::max()) {
        throw SceneError(filter.pathOf(key), "must be a whole number from 0 to 4294967295 (32 category bits), got " +
                                                 std::to_string(value));
      }
      return static_cast<std::uint32_t>(value);
    };
    c.category = bits("category", c.category);
    c.mask = bits("mask", c.mask);
    const std::int64_t group = filter.optionalInteger("group").value_or(0);
    if (group < std::numeric_limits<std::int32_t>::min() || group > std::numeric_limits<std::int32_t>::max()) {
      throw SceneError(filter.pathOf("group"), "must be a whole number from -2147483648 to 2147483647, got " +
                                                   std::to_string(group));
    }
    c.group = static_cast<std::int32_t>(group);
  }
  return c;
}

}  // namespace

// A particle: its position and velocity, and for a 2D one a radius it collides with.
void SceneBuilder::readParticle(const JsonObject& p) {
  p.allowOnly({"id", "mass", "position", "velocity", "radius", "friction", "restitution", "filter"});
  const std::string id = claimId(p);
  ParticleSettings settings{.dimension = d_, .mass = p.mass("mass")};
  const Eigen::VectorXd position = p.vector("position", d_);
  const Eigen::VectorXd velocity = p.optionalVector("velocity", d_).value_or(Eigen::VectorXd::Zero(d_));
  if (p.has("radius")) {
    if (d_ != 2) throw SceneError(p.pathOf("radius"), "only the particles of a 2D scene have a radius (they collide as discs)");
    settings.radius = p.nonNegative("radius");
  }
  settings.collider = readCollider(p);
  addBody(p, id, std::make_unique<Particle>(settings), position, velocity);
}

// A rigid body: (x, y, θ) with its velocities; the inertia from the shape unless given.
void SceneBuilder::readRigid(const JsonObject& b) {
  b.allowOnly({"id", "type", "mass", "inertia", "position", "angle", "velocity", "angular_velocity", "shape",
               "static", "kinematic", "friction", "restitution", "filter"});
  const std::string id = claimId(b);
  if (d_ != 2) throw SceneError(b.pathOf("type"), "rigid bodies need \"dimension\": 2");
  const double mass = b.mass("mass");
  Shape shape = readShape(b.object("shape"));
  const double inertia = b.has("inertia") ? b.mass("inertia") : shape.inertia(mass);
  const bool fixed = b.optionalBoolean("static").value_or(false);
  const bool kinematic = b.optionalBoolean("kinematic").value_or(false);
  if (fixed && kinematic) throw SceneError(b.pathOf("kinematic"), "a body is static or kinematic, not both");
  if (!shape.hasArea() && !fixed && !kinematic) {
    throw SceneError(b.pathOf("shape"), "a " + std::string(shape.name()) +
                                            " has no area, so no mass to move: give the body \"static\": true "
                                            "(or \"kinematic\": true)");
  }
  const Eigen::VectorXd position = b.vector("position", 2);
  const Eigen::VectorXd velocity = b.optionalVector("velocity", 2).value_or(Eigen::VectorXd::Zero(2));
  const Eigen::Vector3d q(position[0], position[1], b.optionalNumber("angle").value_or(0.0));
  const Eigen::Vector3d v(velocity[0], velocity[1], b.optionalNumber("angular_velocity").value_or(0.0));
  if (fixed && v.cwiseAbs().maxCoeff() > 0.0) {
    throw SceneError(b.pathOf("static"), "a static body cannot move; make it \"kinematic\" to give it a velocity");
  }
  const auto motion = fixed ? RigidBody::Motion::Static
                            : (kinematic ? RigidBody::Motion::Kinematic : RigidBody::Motion::Dynamic);
  addBody(b, id,
          std::make_unique<RigidBody>(RigidBodySettings{
              .mass = mass, .inertia = inertia, .shape = std::move(shape), .motion = motion, .collider = readCollider(b)}),
          q, v);
}

}  // namespace tinkertoy::scene
