// Bullet's "multibody (Featherstone)" mode: chain-N as one btMultiBody in reduced coordinates
// (bullet_world.cpp describes the mapping and its settings).
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>

#include <vector>

#include "bullet_world.hpp"

namespace tinkertoy::bench::bullet {

namespace {

// Each link's rotational inertia about its centre of mass, kg·m² (x, y and z alike): the scenario's
// masses are points, and Featherstone's algorithm needs no inertia to stay well conditioned (a
// link's joint-space inertia is at least m·L² = 1 kg·m²), so this only has to be small.
constexpr btScalar kLinkInertia = 1e-6f;

// The chain: a base fixed at the pivot and, for rod i (particle i to particle i − 1, or to the
// pivot), link i turning about z at the far end of the rod, its centre of mass at particle i.
std::unique_ptr<btMultiBody> chainMultibody(const Scenario& scenario) {
  const int links = static_cast<int>(scenario.particles.size());
  auto chain = std::make_unique<btMultiBody>(links, btScalar(0), btVector3(0, 0, 0), /*fixedBase=*/true, /*canSleep=*/false);
  chain->setBasePos(toBullet(scenario.pivot));
  for (const Scenario::Rod& rod : scenario.rods) {
    const bool atPivot = rod.b == Scenario::kPivot;
    const Vector3& joint = atPivot ? scenario.pivot : scenario.particles[static_cast<std::size_t>(rod.b)].position;
    const Scenario::Particle& particle = scenario.particles[static_cast<std::size_t>(rod.a)];
    // The joint sits at the parent's centre of mass (the previous particle, or the base at the
    // pivot), so the offset from it is zero; frames start unrotated (q = 0).
    chain->setupRevolute(rod.a, static_cast<btScalar>(particle.mass), btVector3(kLinkInertia, kLinkInertia, kLinkInertia),
                         atPivot ? -1 : rod.b, btQuaternion::getIdentity(), btVector3(0, 0, 1), btVector3(0, 0, 0),
                         offset(joint, particle.position));
  }
  chain->finalizeMultiDof();
  chain->setLinearDamping(0);   // default 0.04
  chain->setAngularDamping(0);  // default 0.04
  chain->setMaxCoordinateVelocity(BT_LARGE_FLOAT);  // default 100 rad/s per joint
  return chain;
}

class MultibodyWorld final : public PeerWorld {
 public:
  explicit MultibodyWorld(const Scenario& scenario)
      : dt_(static_cast<btScalar>(scenario.dt)),
        collision_(std::make_unique<btDefaultCollisionConfiguration>()),
        solver_(std::make_unique<btMultiBodyConstraintSolver>()),
        world_(std::make_unique<btMultiBodyDynamicsWorld>(collision_.dispatcher.get(), collision_.broadphase.get(),
                                                          solver_.get(), collision_.configuration.get())),
        chain_(chainMultibody(scenario)) {
    world_->setGravity(toBullet(scenario.gravity));
    world_->addMultiBody(chain_.get());
  }

  ~MultibodyWorld() override { world_->removeMultiBody(chain_.get()); }

  void step() override { world_->stepSimulation(dt_, 0); }

  // Forward kinematics from the joint angles, through Bullet's own cached link transforms: link
  // k's frame is its parent's turned by getParentToLocalRot(k), its centre of mass its parent's
  // plus getRVector(k); compTreeLinkVelocities gives each link's velocity in its own frame.
  void read(std::span<BodyState> out) const override {
    const int links = chain_->getNumLinks();
    std::vector<btQuaternion> worldToLink(static_cast<std::size_t>(links) + 1);
    std::vector<btVector3> centre(worldToLink.size()), angular(worldToLink.size()), linear(worldToLink.size());
    chain_->compTreeLinkVelocities(angular.data(), linear.data());
    worldToLink[0] = chain_->getWorldToBaseRot();
    centre[0] = chain_->getBasePos();
    for (int k = 0; k < links; ++k) {
      const auto self = static_cast<std::size_t>(k) + 1;
      const auto parent = static_cast<std::size_t>(chain_->getParent(k) + 1);
      worldToLink[self] = chain_->getParentToLocalRot(k) * worldToLink[parent];
      const btQuaternion linkToWorld = worldToLink[self].inverse();
      centre[self] = centre[parent] + quatRotate(linkToWorld, chain_->getRVector(k));
      out[self - 1] = {.position = fromBullet(centre[self]), .velocity = fromBullet(quatRotate(linkToWorld, linear[self]))};
    }
  }

  void masses(std::span<double> out) const override {
    for (int k = 0; k < chain_->getNumLinks(); ++k) out[static_cast<std::size_t>(k)] = chain_->getLinkMass(k);
  }

 private:
  btScalar dt_;
  CollisionSetup collision_;
  std::unique_ptr<btMultiBodyConstraintSolver> solver_;
  std::unique_ptr<btMultiBodyDynamicsWorld> world_;
  std::unique_ptr<btMultiBody> chain_;
};

}  // namespace

std::unique_ptr<PeerWorld> buildMultibody(const Scenario& scenario) { return std::make_unique<MultibodyWorld>(scenario); }

}  // namespace tinkertoy::bench::bullet
