// Bullet's "point-to-point, sequential impulses" mode: chain-N and joint_grid-N as planar
// btRigidBodies joined by btPoint2PointConstraints in a btDiscreteDynamicsWorld (bullet_world.cpp
// describes the mapping, its approximation for the chain, and the settings).
#include <BulletCollision/CollisionShapes/btEmptyShape.h>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "bullet_world.hpp"

namespace tinkertoy::bench::bullet {

namespace {

// A chain particle's rotational inertia about z, kg·m²: 0.1 % of the m·L² = 1 kg·m² of a 1 kg
// mass on a 1 m rod, so the rod it carries turns almost as a massless rod would. The price is in
// the solver: the pin's inverse effective mass across the rod (1/m_a + 1/m_b + L²/I) is then 500
// times the one along it, and passes over the pin's x and y rows converge slowly on a rod that
// lies along neither axis. A larger inertia holds the rods better by changing the physics more.
constexpr btScalar kParticleInertia = 1e-3f;

// A rigid body in the x–y plane (it moves in x and y and turns about z only) that never sleeps.
// Mass 0 makes it static; `inertia` is its principal inertia about its centre, kg·m².
std::unique_ptr<btRigidBody> planarBody(btScalar mass, const btVector3& inertia, const Vector3& position,
                                        btCollisionShape* shape) {
  btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
  info.m_startWorldTransform.setOrigin(toBullet(position));
  auto body = std::make_unique<btRigidBody>(info);
  body->setLinearFactor(btVector3(1, 1, 0));
  body->setAngularFactor(btVector3(0, 0, 1));
  body->setActivationState(DISABLE_DEACTIVATION);
  return body;
}

class PointToPointWorld final : public PeerWorld {
 public:
  explicit PointToPointWorld(const Scenario& scenario)
      : dt_(static_cast<btScalar>(scenario.dt)),
        reportsRotation_(scenario.kind == ScenarioKind::JointGrid),
        collision_(std::make_unique<btDefaultCollisionConfiguration>()),
        solver_(std::make_unique<btSequentialImpulseConstraintSolver>()),
        world_(std::make_unique<btDiscreteDynamicsWorld>(collision_.dispatcher.get(), collision_.broadphase.get(),
                                                         solver_.get(), collision_.configuration.get())),
        shape_(std::make_unique<btEmptyShape>()) {
    world_->setGravity(toBullet(scenario.gravity));  // before the bodies: addRigidBody copies it
    if (reportsRotation_) {
      addDiscs(scenario);
    } else {
      addParticles(scenario);
    }
  }

  ~PointToPointWorld() override {
    for (const auto& pin : pins_) world_->removeConstraint(pin.get());
    for (const auto& body : bodies_) world_->removeRigidBody(body.get());
  }

  void step() override { world_->stepSimulation(dt_, 0); }

  void read(std::span<BodyState> out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const btRigidBody& body = *bodies_[i];
      out[i] = {.position = fromBullet(body.getCenterOfMassPosition()), .velocity = fromBullet(body.getLinearVelocity())};
      if (!reportsRotation_) continue;
      const btMatrix3x3& rotation = body.getCenterOfMassTransform().getBasis();
      out[i].angle = std::atan2(static_cast<double>(rotation[1][0]), static_cast<double>(rotation[0][0]));
      out[i].angularVelocity = body.getAngularVelocity().z();
    }
  }

  void masses(std::span<double> out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = bodies_[i]->getMass();
  }

 private:
  void addBody(std::unique_ptr<btRigidBody> body) {
    // Group and mask 0: the broadphase pairs it with nothing, so nothing collides.
    world_->addRigidBody(body.get(), /*group=*/0, /*mask=*/0);
    bodies_.push_back(std::move(body));
  }

  btRigidBody& bodyAt(int index) { return *bodies_[static_cast<std::size_t>(index)]; }

  void addPin(std::unique_ptr<btPoint2PointConstraint> pin) {
    world_->addConstraint(pin.get());
    pins_.push_back(std::move(pin));
  }

  // One body per particle; rod (a, b) pins b's centre (or the pivot) to the point of body a where
  // b starts, so body a's rotation carries the rod and keeps |x_a − x_b| at its length.
  void addParticles(const Scenario& scenario) {
    const btVector3 inertia(kParticleInertia, kParticleInertia, kParticleInertia);
    for (const Scenario::Particle& p : scenario.particles) {
      addBody(planarBody(static_cast<btScalar>(p.mass), inertia, p.position, shape_.get()));
    }
    for (const Scenario::Rod& rod : scenario.rods) {
      btRigidBody& carrier = bodyAt(rod.a);
      const Vector3& start = scenario.particles[static_cast<std::size_t>(rod.a)].position;
      if (rod.b == Scenario::kPivot) {
        addPin(std::make_unique<btPoint2PointConstraint>(carrier, offset(start, scenario.pivot)));
      } else {
        const Vector3& end = scenario.particles[static_cast<std::size_t>(rod.b)].position;
        addPin(std::make_unique<btPoint2PointConstraint>(carrier, bodyAt(rod.b), offset(start, end), btVector3(0, 0, 0)));
      }
    }
  }

  // One body per disc (a flat cylinder's inertia, ¼mr² about x and y, the scenario's ½mr² about
  // z; static discs mass and inertia 0), one point-to-point constraint per pin.
  void addDiscs(const Scenario& scenario) {
    for (const Scenario::Disc& d : scenario.discs) {
      const auto z = static_cast<btScalar>(d.inertia);
      const btVector3 inertia = d.isStatic ? btVector3(0, 0, 0) : btVector3(z / 2, z / 2, z);
      addBody(planarBody(d.isStatic ? btScalar(0) : static_cast<btScalar>(d.mass), inertia, d.position, shape_.get()));
    }
    for (const Scenario::Pin& pin : scenario.pins) {
      addPin(std::make_unique<btPoint2PointConstraint>(bodyAt(pin.a), bodyAt(pin.b), toBullet(pin.localA),
                                                       toBullet(pin.localB)));
    }
  }

  btScalar dt_;
  bool reportsRotation_;  // discs turn; particles have no orientation in the scenario
  CollisionSetup collision_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::unique_ptr<btEmptyShape> shape_;  // shared by every body; never collides
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<std::unique_ptr<btPoint2PointConstraint>> pins_;
};

}  // namespace

std::unique_ptr<PeerWorld> buildPointToPoint(const Scenario& scenario) { return std::make_unique<PointToPointWorld>(scenario); }

}  // namespace tinkertoy::bench::bullet
