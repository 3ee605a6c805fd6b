// Bullet's "soft body" mode: cloth-G (and chain-N as a rope) as one btSoftBody whose links are the
// scenario's rods, solved by position passes (bullet_world.cpp describes the mapping and settings).
#include <BulletSoftBody/btSoftBody.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>

#include <vector>

#include "bullet_world.hpp"

namespace tinkertoy::bench::bullet {

namespace {

// The soft body's nodes: for a chain, node 0 is the pivot (mass 0, not reported) and particle i
// is node i + 1; otherwise particle i is node i.
struct Nodes {
  std::vector<btVector3> positions;
  std::vector<btScalar> masses;  // 0 holds a node fixed
  int firstParticle = 0;

  [[nodiscard]] int of(int particle) const { return particle == Scenario::kPivot ? 0 : particle + firstParticle; }
};

Nodes nodesOf(const Scenario& scenario) {
  Nodes nodes;
  if (scenario.kind == ScenarioKind::Chain) {
    nodes.positions.push_back(toBullet(scenario.pivot));
    nodes.masses.push_back(0);
    nodes.firstParticle = 1;
  }
  for (const Scenario::Particle& particle : scenario.particles) {
    nodes.positions.push_back(toBullet(particle.position));
    nodes.masses.push_back(particle.nailed ? btScalar(0) : static_cast<btScalar>(particle.mass));
  }
  return nodes;
}

class SoftBodyWorld final : public PeerWorld {
 public:
  explicit SoftBodyWorld(const Scenario& scenario)
      : dt_(static_cast<btScalar>(scenario.dt)),
        collision_(std::make_unique<btSoftBodyRigidBodyCollisionConfiguration>()),
        solver_(std::make_unique<btSequentialImpulseConstraintSolver>()),
        world_(std::make_unique<btSoftRigidDynamicsWorld>(collision_.dispatcher.get(), collision_.broadphase.get(),
                                                          solver_.get(), collision_.configuration.get())) {
    // Soft bodies take gravity from their world info (default (0, −10, 0)), rigid bodies from the
    // world; there are no rigid bodies, but both say the scenario's.
    world_->setGravity(toBullet(scenario.gravity));
    world_->getWorldInfo().m_gravity = toBullet(scenario.gravity);
    const Nodes nodes = nodesOf(scenario);
    firstParticle_ = nodes.firstParticle;
    body_ = std::make_unique<btSoftBody>(&world_->getWorldInfo(), static_cast<int>(nodes.positions.size()),
                                         nodes.positions.data(), nodes.masses.data());
    linkRods(scenario, nodes);
    body_->m_cfg.piterations = kSoftBodyIterations;  // default 1
    body_->m_cfg.collisions = 0;                     // default: soft against rigid by distance field
    body_->setActivationState(DISABLE_DEACTIVATION);
    world_->addSoftBody(body_.get(), /*collisionFilterGroup=*/0, /*collisionFilterMask=*/0);
  }

  ~SoftBodyWorld() override { world_->removeSoftBody(body_.get()); }

  void step() override { world_->stepSimulation(dt_, 0); }

  void read(std::span<BodyState> out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const btSoftBody::Node& node = body_->m_nodes[static_cast<int>(i) + firstParticle_];
      out[i] = {.position = fromBullet(node.m_x), .velocity = fromBullet(node.m_v)};
    }
  }

  void masses(std::span<double> out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = body_->getMass(static_cast<int>(i) + firstParticle_);
  }

 private:
  // One link per rod, with the body's default material at linear stiffness 1 (its default, said
  // here because the position passes scale each correction by it); appendLink takes each rest
  // length from the nodes' starting positions, which is the rod's length.
  void linkRods(const Scenario& scenario, const Nodes& nodes) {
    btSoftBody::Material* rodMaterial = body_->m_materials[0];
    rodMaterial->m_kLST = 1;
    for (const Scenario::Rod& rod : scenario.rods) body_->appendLink(nodes.of(rod.a), nodes.of(rod.b), rodMaterial, false);
  }

  btScalar dt_;
  int firstParticle_ = 0;
  CollisionSetup collision_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<btSoftRigidDynamicsWorld> world_;
  std::unique_ptr<btSoftBody> body_;
};

}  // namespace

std::unique_ptr<PeerWorld> buildSoftBody(const Scenario& scenario) { return std::make_unique<SoftBodyWorld>(scenario); }

}  // namespace tinkertoy::bench::bullet
