// Studio: what the point-mass tools make — particles, rods and springs, nails and wires
// (studio.hpp). Each is an edit of the scene's JSON, so the loader checks it.
#include "studio.hpp"

#include "scene_json.hpp"
#include "tinkertoy/constraints/constraint_settings.hpp"
#include "tinkertoy/forces/force_settings.hpp"

namespace tinkertoy::studio {

namespace {

constexpr double kNewParticleMass = 1.0;    // kg
constexpr double kNewSpringStiffness = 50;  // N/m
constexpr double kNewSpringDamping = 1.0;   // N·s/m

}  // namespace

void Studio::addParticle(const Eigen::Vector2d& world) {
  const std::string id = document_.freshBodyId("p");
  if (edit([&](Json& scene) {
        scene["particles"].push_back({{"id", id}, {"mass", kNewParticleMass}, {"position", vectorJson(worldAt(world, 0.0))}});
      })) {
    selected_ = document_.scene().model.findBody(id).value();
  }
}

void Studio::connect(const Hit& from, const Eigen::Vector2d& fromWorld, const Hit& to, const Eigen::Vector2d& toWorld) {
  if ((from.point && to.point && *from.point == *to.point) || (toWorld - fromWorld).norm() * camera_.scale < 4.0) {
    return;  // a click, not a drag
  }
  const Model& model = document_.scene().model;
  // An end on nothing gets a new particle there.
  std::string newFrom, newTo;
  if (!from.point) newFrom = document_.freshBodyId("p");
  if (!to.point) newTo = document_.freshBodyId("p", {newFrom});
  const auto end = [&](Json& connection, const char* key, const char* anchorKey, const Hit& hit,
                       const std::string& fresh, const Eigen::Vector2d& at) {
    if (!hit.point) {
      connection[key] = fresh;
      return;
    }
    connection[key] = pointReference(model, *hit.point);
    if (hasFrame(model, *hit.point)) connection[anchorKey] = vectorJson(at);
  };
  const bool rod = tool_ == Tool::Rod;
  // In 3D a new end lies in the plane (parallel to the picture) of the point at the other end.
  const double depth = from.point ? depthOf(*from.point) : to.point ? depthOf(*to.point) : 0.0;
  edit([&](Json& scene) {
    for (const auto& [id, at] : {std::pair{newFrom, fromWorld}, std::pair{newTo, toWorld}}) {
      if (!id.empty()) {
        scene["particles"].push_back({{"id", id}, {"mass", kNewParticleMass}, {"position", vectorJson(worldAt(at, depth))}});
      }
    }
    Json connection{{"type", rod ? DistanceConstraintSettings::type : SpringSettings::type}};
    end(connection, "a", "anchor_a", from, newFrom, fromWorld);
    end(connection, "b", "anchor_b", to, newTo, toWorld);
    if (rod) {
      scene["constraints"].push_back(connection);
    } else {
      connection["stiffness"] = kNewSpringStiffness;
      connection["damping"] = kNewSpringDamping;
      scene["forces"].push_back(connection);
    }
  });
}

void Studio::nail(const Hit& hit) {
  const Model& model = document_.scene().model;
  edit([&](Json& scene) {
    if (hasFrame(model, *hit.point)) {
      // A rigid body is nailed where it was clicked: a hinge to the world.
      scene["constraints"].push_back({{"type", RevoluteJointSettings::type},
                                      {"a", pointReference(model, *hit.point)},
                                      {"b", nullptr},
                                      {"anchor", vectorJson(pictureOf(*hit.point))}});
    } else {
      scene["constraints"].push_back({{"type", FixedPointConstraintSettings::type}, {"particle", pointReference(model, *hit.point)}});
    }
  });
}

void Studio::wire(const Hit& hit, const Eigen::Vector2d& center) {
  const Model& model = document_.scene().model;
  if (hasFrame(model, *hit.point)) {
    report("a wire holds a point mass; join rigid bodies with joints (see docs/scene-format.md)", true);
    return;
  }
  // In 3D the wire is a sphere about a point in the particle's plane (parallel to the picture).
  const Eigen::VectorXd centre = worldAt(center, depthOf(*hit.point));
  edit([&](Json& scene) {
    scene["constraints"].push_back(
        {{"type", PointOnCircleConstraintSettings::type}, {"particle", pointReference(model, *hit.point)}, {"center", vectorJson(centre)}});
  });
}

}  // namespace tinkertoy::studio
