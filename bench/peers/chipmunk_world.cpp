// Chipmunk 7 in the peer benchmark (peer_world.hpp): Chipmunk 7.0.3 as Debian packages it
// (libchipmunk-dev), which computes in double precision.
//
//   chain        each particle a body with no shapes (the scenario has no collisions),
//                cpBodyNew(mass, INFINITY): an infinite moment of inertia takes the body's
//                rotation away (Chipmunk holds its inverse, 0), which is exactly a point mass,
//                rather than approximating one with a small moment. Each rod a cpPinJoint
//                between the two bodies' centers; a pin joint takes its distance from where the
//                bodies are when it is made, which must be the rod's length. The first rod goes
//                to the space's static body, anchored there at the pivot. A nailed particle
//                would be a static body.
//   joint_grid   each disc a body with no shapes, cpBodyNew(mass, inertia) with the scenario's,
//                or a static body for the static discs; each pin a cpPivotJointNew2 with the
//                pin's two local anchors. A pin between two static discs is left out: it holds
//                nothing, and Chipmunk cannot solve a joint between two infinite masses (its
//                2×2 effective mass is singular).
//   pyramids     each box a body, cpBodyNew(mass, cpMomentForBox) or static, with one
//                cpBoxShapeNew of the box's size (no rounding); each shape's friction √μ, since
//                Chipmunk multiplies the two shapes' frictions of a pair.
//   cradle       as joint_grid, each moving disc with one cpCircleShapeNew of its radius, friction
//                √μ and elasticity √e (Chipmunk multiplies a pair's).
//   tumbler      its boxes as the pyramids', its discs as the cradle's; the container a kinematic
//                body (cpBodyNewKinematic) at the container's centre with its angular velocity,
//                its walls four cpSegmentShapes of radius 0 with friction √μ.
//   cloth        not built: Chipmunk is 2D.
//
// Gravity is the scenario's; sleeping stays off (Chipmunk's default). Chipmunk moves the positions
// with the old velocities before it solves the new ones, so after a step from rest the bodies have
// gained speed but not yet fallen; its joints correct their error through a velocity bias
// (Baumgarte, Chipmunk's default error bias) inside the same 10 iterations.
//
//   10 iterations   cpSpaceSetIterations(10), Chipmunk's default; one cpSpaceStep(dt) per step
#include <chipmunk/chipmunk.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "peer_world.hpp"

namespace tinkertoy::bench {

namespace {

constexpr int kIterations = 10;
constexpr double kLengthTolerance = 1e-12;  // relative: a pin joint's distance against the rod's

cpVect toChipmunk(const Vector3& v) { return cpv(v.x, v.y); }

Vector3 fromChipmunk(const cpVect& v) { return {v.x, v.y, 0.0}; }

struct SpaceFree {
  void operator()(cpSpace* space) const { cpSpaceFree(space); }
};
struct BodyFree {
  void operator()(cpBody* body) const { cpBodyFree(body); }
};
struct ConstraintFree {
  void operator()(cpConstraint* constraint) const { cpConstraintFree(constraint); }
};
struct ShapeFree {
  void operator()(cpShape* shape) const { cpShapeFree(shape); }
};

class ChipmunkWorld final : public PeerWorld {
 public:
  explicit ChipmunkWorld(const Scenario& scenario) : space_(cpSpaceNew()), timeStep_(scenario.dt) {
    cpSpaceSetIterations(space_.get(), kIterations);
    cpSpaceSetGravity(space_.get(), toChipmunk(scenario.gravity));
    if (!scenario.particles.empty()) buildChain(scenario);
    buildBoxes(scenario);
    buildDiscs(scenario);
    if (scenario.container) buildContainer(scenario);
  }

  void step() override { cpSpaceStep(space_.get(), timeStep_); }

  void read(std::span<BodyState> out) const override {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      const cpBody* body = bodies_[i].get();
      out[i] = {fromChipmunk(cpBodyGetPosition(body)), fromChipmunk(cpBodyGetVelocity(body)), cpBodyGetAngle(body),
                cpBodyGetAngularVelocity(body)};
    }
  }

  void masses(std::span<double> out) const override {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      cpBody* body = bodies_[i].get();
      out[i] = cpBodyGetType(body) == CP_BODY_TYPE_STATIC ? 0.0 : cpBodyGetMass(body);
    }
  }

 private:
  // A body without shapes at `position`, added to the space: dynamic with this mass and moment,
  // or static.
  void addBody(const Vector3& position, bool isStatic, double mass, double moment) {
    bodies_.emplace_back(isStatic ? cpBodyNewStatic() : cpBodyNew(mass, moment));
    cpBody* body = bodies_.back().get();
    cpBodySetPosition(body, toChipmunk(position));
    cpSpaceAddBody(space_.get(), body);
  }

  void addConstraint(cpConstraint* constraint) {
    constraints_.emplace_back(constraint);
    cpSpaceAddConstraint(space_.get(), constraint);
  }

  void buildChain(const Scenario& scenario) {
    for (const Scenario::Particle& particle : scenario.particles) {
      addBody(particle.position, particle.nailed, particle.mass, INFINITY);
    }
    cpBody* world = cpSpaceGetStaticBody(space_.get());  // at the origin, unrotated
    for (const Scenario::Rod& rod : scenario.rods) {
      cpBody* a = bodies_[static_cast<std::size_t>(rod.a)].get();
      cpBody* b = rod.b == Scenario::kPivot ? world : bodies_[static_cast<std::size_t>(rod.b)].get();
      const cpVect anchorB = rod.b == Scenario::kPivot ? toChipmunk(scenario.pivot) : cpvzero;
      cpConstraint* joint = cpPinJointNew(a, b, cpvzero, anchorB);
      addConstraint(joint);
      const double distance = cpPinJointGetDist(joint);
      if (std::abs(distance - rod.length) > kLengthTolerance * rod.length) {
        throw std::logic_error("chipmunk: a pin joint of " + std::to_string(distance) + " m for a rod of " +
                               std::to_string(rod.length) + " m");
      }
    }
  }

  void buildDiscs(const Scenario& scenario) {
    for (const Scenario::Disc& disc : scenario.discs) {
      addBody(disc.position, disc.isStatic, disc.mass, disc.inertia);
      if (scenario.collides() && !disc.isStatic) {
        // Chipmunk multiplies two shapes' frictions and elasticities: each gets the square root.
        shapes_.emplace_back(cpCircleShapeNew(bodies_.back().get(), disc.radius, cpvzero));
        cpShapeSetFriction(shapes_.back().get(), std::sqrt(scenario.friction));
        cpShapeSetElasticity(shapes_.back().get(), std::sqrt(scenario.restitution));
        cpSpaceAddShape(space_.get(), shapes_.back().get());
      }
    }
    for (const Scenario::Pin& pin : scenario.pins) {
      const std::size_t a = static_cast<std::size_t>(pin.a), b = static_cast<std::size_t>(pin.b);
      if (scenario.discs[a].isStatic && scenario.discs[b].isStatic) continue;
      addConstraint(cpPivotJointNew2(bodies_[a].get(), bodies_[b].get(), toChipmunk(pin.localA), toChipmunk(pin.localB)));
    }
  }

  void buildBoxes(const Scenario& scenario) {
    // Chipmunk multiplies two shapes' frictions: each gets √μ, so every pair has μ.
    const double friction = std::sqrt(scenario.friction);
    for (const Scenario::Box& box : scenario.boxes) {
      const double width = 2.0 * box.halfWidth, height = 2.0 * box.halfHeight;
      addBody(box.position, box.isStatic, box.mass, cpMomentForBox(box.mass, width, height));
      shapes_.emplace_back(cpBoxShapeNew(bodies_.back().get(), width, height, 0.0));
      cpShapeSetFriction(shapes_.back().get(), friction);
      cpSpaceAddShape(space_.get(), shapes_.back().get());
    }
  }

  // A kinematic body turning at the container's rate, its walls four segments of radius 0.
  void buildContainer(const Scenario& scenario) {
    const Scenario::Container& container = *scenario.container;
    container_.reset(cpBodyNewKinematic());
    cpBodySetPosition(container_.get(), toChipmunk(container.center));
    cpBodySetAngularVelocity(container_.get(), container.angularVelocity);
    cpSpaceAddBody(space_.get(), container_.get());
    const double h = container.halfSize;
    const cpVect corners[4] = {cpv(-h, -h), cpv(h, -h), cpv(h, h), cpv(-h, h)};
    for (int i = 0; i < 4; ++i) {
      shapes_.emplace_back(cpSegmentShapeNew(container_.get(), corners[i], corners[(i + 1) % 4], 0.0));
      cpShapeSetFriction(shapes_.back().get(), std::sqrt(scenario.friction));
      cpSpaceAddShape(space_.get(), shapes_.back().get());
    }
  }

  // Declared first so they go last: freeing the space wakes the bodies still in it.
  std::vector<std::unique_ptr<cpBody, BodyFree>> bodies_;  // in the scenario's body order
  std::unique_ptr<cpBody, BodyFree> container_;            // the tumbler's, if any
  std::vector<std::unique_ptr<cpShape, ShapeFree>> shapes_;
  std::vector<std::unique_ptr<cpConstraint, ConstraintFree>> constraints_;
  std::unique_ptr<cpSpace, SpaceFree> space_;
  cpFloat timeStep_;
};

}  // namespace

std::vector<EngineMode> chipmunkModes() {
  return {{"chipmunk 7", "10 iterations", false,
           [](const Scenario& scenario) { return scenario.kind != ScenarioKind::Cloth; },
           [](const Scenario& scenario) { return std::make_unique<ChipmunkWorld>(scenario); }}};
}

}  // namespace tinkertoy::bench
