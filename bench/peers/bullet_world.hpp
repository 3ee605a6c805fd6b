// What Bullet's three peer modes share (bullet_world.cpp describes them): the conversions between
// the scenario's doubles and Bullet's btScalar, the collision side every Bullet world is built on,
// and each mode's factory (bullet_multibody.cpp, bullet_soft_body.cpp, bullet_rigid.cpp).
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <utility>

#include "peer_world.hpp"

namespace tinkertoy::bench::bullet {

// Position-solver passes of the soft body mode (btSoftBody::Config::piterations).
constexpr int kSoftBodyIterations = 10;

inline btVector3 toBullet(const Vector3& v) {
  return {static_cast<btScalar>(v.x), static_cast<btScalar>(v.y), static_cast<btScalar>(v.z)};
}

inline Vector3 fromBullet(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

// to − from, taken in double before rounding to btScalar.
inline btVector3 offset(const Vector3& from, const Vector3& to) {
  return toBullet({to.x - from.x, to.y - from.y, to.z - from.z});
}

// The collision configuration, dispatcher and broadphase (Bullet's default btDbvtBroadphase) a
// dynamics world needs even when, as here, nothing collides. A mode's world declares this before
// its btDynamicsWorld, so the world is destroyed first.
struct CollisionSetup {
  explicit CollisionSetup(std::unique_ptr<btCollisionConfiguration> collisionConfiguration)
      : configuration(std::move(collisionConfiguration)),
        dispatcher(std::make_unique<btCollisionDispatcher>(configuration.get())),
        broadphase(std::make_unique<btDbvtBroadphase>()) {}

  std::unique_ptr<btCollisionConfiguration> configuration;
  std::unique_ptr<btCollisionDispatcher> dispatcher;
  std::unique_ptr<btBroadphaseInterface> broadphase;
};

std::unique_ptr<PeerWorld> buildMultibody(const Scenario& scenario);     // chain
std::unique_ptr<PeerWorld> buildSoftBody(const Scenario& scenario);      // cloth, chain
std::unique_ptr<PeerWorld> buildPointToPoint(const Scenario& scenario);  // chain, joint_grid

}  // namespace tinkertoy::bench::bullet
