// Box2D 2.4 in the peer benchmark (peer_world.hpp): Box2D 2.4.1 as Debian packages it
// (libbox2d-dev), which computes in single precision.
//
//   chain        each particle a dynamic body with no fixtures (the scenario has no collisions),
//                its mass set with SetMassData, center of mass at the body's origin; each rod a
//                rigid b2DistanceJoint between the two bodies' centers (length = the rod's,
//                minLength = maxLength = length, stiffness and damping 0), the first rod to a
//                static ground body at the pivot. A nailed particle would be a static body.
//                Approximation: a Box2D body always rotates, so each particle gets a small
//                rotational inertia (1e-3 kg·m²); no rod can turn it, every rod acting
//                through the centers, so the angles stay 0.
//   joint_grid   each disc a body with no fixtures (static for the static discs), the
//                scenario's mass and inertia set with SetMassData; each pin a b2RevoluteJoint at
//                the pin's world point (disc a's position + localA), collideConnected false, no
//                limit, no motor. A pin between two static discs is created too; Box2D's island
//                solver never visits it.
//   pyramids     each box a body with one b2PolygonShape box, its half sizes less b2_polygonRadius
//                (Box2D 2.4 keeps that skin around every polygon: the skin is the box's surface,
//                else the touching boxes of a row push each other apart by 2 cm a pair), the
//                scenario's mass and inertia (SetMassData), its friction the scenario's; the
//                ground a static body with its box. Box2D's own mixing of two frictions,
//                √(μ₁μ₂), gives the scenario's μ for every pair.
//   cradle       as joint_grid, each moving disc with one b2CircleShape of its radius (density
//                0, so that the mass SetMassData gave stays), the scenario's friction and
//                restitution (Box2D mixes restitutions by their maximum, frictions by √(μ₁μ₂)).
//   tumbler      its boxes as the pyramids', its discs as the cradle's; the container a kinematic
//                body at the container's centre with its angular velocity, its walls four
//                two-sided b2EdgeShapes (SetTwoSided) with the scenario's friction.
//   cloth        not built: Box2D is 2D.
//
// Gravity is the scenario's. Sleeping is turned off, so that every step solves every body, as
// in the other engines (Box2D would otherwise stop solving an island at rest for 0.5 s).
//
//   8/3 iterations               one b2World::Step(dt, 8, 3) per step: Box2D 2.4's default 8
//                                velocity and 3 position iterations
//   8/3 iterations, 4 substeps   four b2World::Step(dt/4, 8, 3) per step
#include <box2d/box2d.h>

#include <memory>

#include "peer_world.hpp"

namespace tinkertoy::bench {

namespace {

constexpr int kVelocityIterations = 8;
constexpr int kPositionIterations = 3;
constexpr float kParticleInertia = 1e-3f;  // kg·m²: see the approximation above

b2Vec2 toBox2d(const Vector3& v) { return {static_cast<float>(v.x), static_cast<float>(v.y)}; }

Vector3 fromBox2d(const b2Vec2& v) { return {v.x, v.y, 0.0}; }

class Box2dWorld final : public PeerWorld {
 public:
  Box2dWorld(const Scenario& scenario, int substeps)
      : world_(toBox2d(scenario.gravity)),
        substepTime_(static_cast<float>(scenario.dt / substeps)),
        substeps_(substeps) {
    world_.SetAllowSleeping(false);
    if (!scenario.particles.empty()) buildChain(scenario);
    buildBoxes(scenario);
    buildDiscs(scenario);
    if (scenario.container) buildContainer(scenario);
  }

  void step() override {
    for (int i = 0; i < substeps_; ++i) world_.Step(substepTime_, kVelocityIterations, kPositionIterations);
  }

  void read(std::span<BodyState> out) const override {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      const b2Body& body = *bodies_[i];
      out[i] = {fromBox2d(body.GetPosition()), fromBox2d(body.GetLinearVelocity()), body.GetAngle(),
                body.GetAngularVelocity()};
    }
  }

  void masses(std::span<double> out) const override {
    for (std::size_t i = 0; i < bodies_.size(); ++i) out[i] = bodies_[i]->GetMass();  // 0 when static
  }

 private:
  // A body without fixtures at `position`, with the given mass and rotational inertia about its
  // origin, its center of mass (SetMassData leaves a static body massless).
  b2Body* addBody(const Vector3& position, b2BodyType type, double mass, float inertia) {
    b2BodyDef definition;
    definition.type = type;
    definition.position = toBox2d(position);
    b2Body* body = world_.CreateBody(&definition);
    b2MassData massData;
    massData.mass = static_cast<float>(mass);
    massData.center.SetZero();
    massData.I = inertia;
    body->SetMassData(&massData);
    return body;
  }

  void buildChain(const Scenario& scenario) {
    for (const Scenario::Particle& particle : scenario.particles) {
      const b2BodyType type = particle.nailed ? b2_staticBody : b2_dynamicBody;
      bodies_.push_back(addBody(particle.position, type, particle.mass, kParticleInertia));
    }
    b2BodyDef groundDefinition;
    groundDefinition.position = toBox2d(scenario.pivot);
    b2Body* ground = world_.CreateBody(&groundDefinition);
    for (const Scenario::Rod& rod : scenario.rods) {
      b2DistanceJointDef definition;
      definition.bodyA = bodies_[static_cast<std::size_t>(rod.a)];
      definition.bodyB = rod.b == Scenario::kPivot ? ground : bodies_[static_cast<std::size_t>(rod.b)];
      definition.length = static_cast<float>(rod.length);
      definition.minLength = definition.length;
      definition.maxLength = definition.length;
      definition.stiffness = 0.0f;
      definition.damping = 0.0f;
      world_.CreateJoint(&definition);
    }
  }

  void buildDiscs(const Scenario& scenario) {
    for (const Scenario::Disc& disc : scenario.discs) {
      const b2BodyType type = disc.isStatic ? b2_staticBody : b2_dynamicBody;
      bodies_.push_back(addBody(disc.position, type, disc.mass, static_cast<float>(disc.inertia)));
      if (scenario.collides() && !disc.isStatic) {
        b2CircleShape shape;
        shape.m_radius = static_cast<float>(disc.radius);
        b2FixtureDef fixture;
        fixture.shape = &shape;
        fixture.density = 0.0f;  // keeps the mass SetMassData gave
        fixture.friction = static_cast<float>(scenario.friction);
        fixture.restitution = static_cast<float>(scenario.restitution);
        bodies_.back()->CreateFixture(&fixture);
      }
    }
    for (const Scenario::Pin& pin : scenario.pins) {
      const Scenario::Disc& a = scenario.discs[static_cast<std::size_t>(pin.a)];
      const Vector3 anchor{a.position.x + pin.localA.x, a.position.y + pin.localA.y, 0.0};
      b2RevoluteJointDef definition;
      definition.Initialize(bodies_[static_cast<std::size_t>(pin.a)], bodies_[static_cast<std::size_t>(pin.b)],
                            toBox2d(anchor));
      definition.collideConnected = false;
      world_.CreateJoint(&definition);
    }
  }

  void buildBoxes(const Scenario& scenario) {
    for (const Scenario::Box& box : scenario.boxes) {
      b2BodyDef definition;
      definition.type = box.isStatic ? b2_staticBody : b2_dynamicBody;
      definition.position = toBox2d(box.position);
      b2Body* body = world_.CreateBody(&definition);
      b2PolygonShape shape;
      shape.SetAsBox(static_cast<float>(box.halfWidth) - b2_polygonRadius, static_cast<float>(box.halfHeight) - b2_polygonRadius);
      b2FixtureDef fixture;
      fixture.shape = &shape;
      fixture.density = 1.0f;
      fixture.friction = static_cast<float>(scenario.friction);
      body->CreateFixture(&fixture);
      if (!box.isStatic) {  // the scenario's mass and inertia, not those of the box less its skin
        b2MassData massData;
        massData.mass = static_cast<float>(box.mass);
        massData.center.SetZero();
        massData.I = static_cast<float>(box.inertia);
        body->SetMassData(&massData);
      }
      bodies_.push_back(body);
    }
  }

  // A kinematic body turning at the container's rate, its walls four two-sided edges.
  void buildContainer(const Scenario& scenario) {
    const Scenario::Container& container = *scenario.container;
    b2BodyDef definition;
    definition.type = b2_kinematicBody;
    definition.position = toBox2d(container.center);
    definition.angularVelocity = static_cast<float>(container.angularVelocity);
    b2Body* body = world_.CreateBody(&definition);
    const auto h = static_cast<float>(container.halfSize);
    const b2Vec2 corners[4] = {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
    for (int i = 0; i < 4; ++i) {
      b2EdgeShape wall;
      wall.SetTwoSided(corners[i], corners[(i + 1) % 4]);
      b2FixtureDef fixture;
      fixture.shape = &wall;
      fixture.friction = static_cast<float>(scenario.friction);
      body->CreateFixture(&fixture);
    }
  }

  b2World world_;  // owns every body and joint, and releases them when it goes
  std::vector<b2Body*> bodies_;  // in the scenario's body order
  float substepTime_;
  int substeps_;
};

}  // namespace

std::vector<EngineMode> box2dModes() {
  const auto twoDimensional = [](const Scenario& scenario) { return scenario.kind != ScenarioKind::Cloth; };
  const auto substepped = [](int substeps) {
    return [substeps](const Scenario& scenario) { return std::make_unique<Box2dWorld>(scenario, substeps); };
  };
  return {{"box2d 2.4", "8/3 iterations", false, twoDimensional, substepped(1)},
          {"box2d 2.4", "8/3 iterations, 4 substeps", false, twoDimensional, substepped(4)}};
}

}  // namespace tinkertoy::bench
