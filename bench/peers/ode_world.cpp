// ODE 0.16 (Debian libode-dev, double precision) in the peer benchmark.
//
// What it builds from a Scenario:
//   chain, cloth  each particle a body with the scenario's mass (a sphere 1 cm across: it never
//                 turns, for every rod pulls at its centre); each rod a "DBall" joint, which
//                 holds the distance between two anchors, here the two bodies' centres. The
//                 chain's first rod, and every rod to a nailed cloth particle, is a DBall from
//                 the body to a fixed point of the world (body 0): the pivot, or the nailed
//                 particle's starting position. A nailed particle is thus part of the world,
//                 not a body: it reports its starting position and mass 0 (infinite mass), and
//                 no joint can let it drift. The chain stays in the z = 0 plane by symmetry:
//                 gravity and every rod direction have z = 0, so no impulse has a z part.
//   joint_grid    each dynamic disc a body with the scenario's mass and an inertia tensor
//                 diag(¼ m r², ¼ m r², I), I = the scenario's ½ m r² about z; each pin a hinge
//                 about z at the pin's world point. The hinges' two rows against tilting keep
//                 every disc in the z = 0 plane, through the static discs (no Plane2D joint,
//                 which ODE enforces by overwriting velocities rather than as rows). A static
//                 disc is part of the world: a pin to it is a hinge to body 0 at the same point,
//                 a pin between two static discs holds nothing and is left out, and the disc
//                 reports its fixed state and mass 0. The pins over-constrain the grid (5 rows
//                 a pin, 6 degrees of freedom a disc, two pins a disc); ODE's CFM makes the
//                 redundant rows solvable. ODE has no substeps: one step of dt = 1/60 s.
//
// Settings: ODE's defaults throughout: global ERP 0.2 (the fraction of the constraint error
// corrected each step), global CFM 1e-5 (constraint softness), no damping, no auto-disable.
// Modes:
//   quickstep, 20 iterations  dWorldQuickStep: projected Gauss–Seidel (SOR), 20 iterations
//                             (ODE's default), O(rows) a step
//   dWorldStep (direct)       dWorldStep: a dense LCP (Dantzig) over each island's rows, here
//                             all equalities, so a dense factorisation: O(rows³) time and
//                             O(rows²) memory a step (chain-1000: about 45 ms a step; cloth-32,
//                             1984 rows: 0.55 s a step, 11 minutes a run). Offered only up to 1200
//                             constraint rows (chain-N to N = 1200, cloth-G to G = 24,
//                             joint_grid-N to N = 11): beyond, a run of the peer benchmark takes
//                             tens of minutes.
#include <ode/ode.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "peer_world.hpp"

// ode/precision.h defines dDOUBLE unless the library was built for single precision
// (pkg-config ode: precision=dDOUBLE), so dReal is double, as the Debian library expects.
static_assert(std::is_same_v<dReal, double>, "ODE must be included in double precision (dDOUBLE)");

namespace tinkertoy::bench {

namespace {

constexpr double kParticleRadius = 0.005;  // m: only sets a particle's (irrelevant) inertia
constexpr int kHingeRows = 5;              // 3 for the point, 2 against tilting off the axis
constexpr long kDirectSolverMaxRows = 1200;

enum class OdeSolver { QuickStep, Direct };

// ODE's process-wide state: initialised once, before the first world, and closed at exit.
void initializeOde() {
  struct OdeLibrary {
    OdeLibrary() {
      if (dInitODE2(0) == 0) throw std::runtime_error("dInitODE2 failed");
    }
    ~OdeLibrary() { dCloseODE(); }
    OdeLibrary(const OdeLibrary&) = delete;
    OdeLibrary& operator=(const OdeLibrary&) = delete;
  };
  static const OdeLibrary library;
}

// One end of a rod: a body, or a fixed point of the world (body == nullptr).
struct Attachment {
  dBodyID body = nullptr;
  Vector3 point;
};

Vector3 plus(const Vector3& a, const Vector3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }

// A new, empty world (ODE initialised first).
dWorldID createWorld() {
  initializeOde();
  return dWorldCreate();
}

// Destroying a world destroys every body and joint in it (none here is in a joint group).
struct WorldDeleter {
  void operator()(dWorldID world) const { dWorldDestroy(world); }
};

class OdeWorld final : public PeerWorld {
 public:
  OdeWorld(const Scenario& scenario, OdeSolver solver)
      : scenario_(scenario), start_(initialState(scenario)), solver_(solver), world_(createWorld()) {
    dWorldSetGravity(world_.get(), scenario.gravity.x, scenario.gravity.y, scenario.gravity.z);
    if (scenario.kind == ScenarioKind::JointGrid) {
      addDiscs();
      addPins();
    } else {
      addParticles();
      addRods();
    }
  }

  void step() override {
    const int stepped = solver_ == OdeSolver::QuickStep ? dWorldQuickStep(world_.get(), scenario_.dt)
                                                        : dWorldStep(world_.get(), scenario_.dt);
    if (stepped == 0) throw std::runtime_error("ODE ran out of memory for a step");
  }

  void read(std::span<BodyState> out) const override {
    for (std::size_t i = 0; i < bodies_.size(); ++i) out[i] = bodies_[i] ? bodyState(bodies_[i]) : start_[i];
  }

  void masses(std::span<double> out) const override {
    for (std::size_t i = 0; i < bodies_.size(); ++i) out[i] = bodies_[i] ? bodyMass(bodies_[i]) : 0.0;
  }

 private:
  static BodyState bodyState(dBodyID body) {
    const dReal* position = dBodyGetPosition(body);
    const dReal* velocity = dBodyGetLinearVel(body);
    const dReal* rotation = dBodyGetRotation(body);  // 3×4, row major
    BodyState state;
    state.position = {position[0], position[1], position[2]};
    state.velocity = {velocity[0], velocity[1], velocity[2]};
    state.angle = std::atan2(rotation[4], rotation[0]);
    state.angularVelocity = dBodyGetAngularVel(body)[2];
    return state;
  }

  static double bodyMass(dBodyID body) {
    dMass mass;
    dBodyGetMass(body, &mass);
    return mass.mass;
  }

  dBodyID addBody(const Vector3& position, const dMass& mass) {
    const dBodyID body = dBodyCreate(world_.get());
    dBodySetPosition(body, position.x, position.y, position.z);
    dBodySetMass(body, &mass);
    return body;
  }

  void addParticles() {
    for (const Scenario::Particle& particle : scenario_.particles) {
      if (particle.nailed) {
        bodies_.push_back(nullptr);
        continue;
      }
      dMass mass;
      dMassSetSphereTotal(&mass, particle.mass, kParticleRadius);
      bodies_.push_back(addBody(particle.position, mass));
    }
  }

  void addDiscs() {
    for (const Scenario::Disc& disc : scenario_.discs) {
      if (disc.isStatic) {
        bodies_.push_back(nullptr);
        continue;
      }
      const double tilt = 0.25 * disc.mass * disc.radius * disc.radius;
      dMass mass;
      dMassSetParameters(&mass, disc.mass, 0.0, 0.0, 0.0, tilt, tilt, disc.inertia, 0.0, 0.0, 0.0);
      bodies_.push_back(addBody(disc.position, mass));
    }
  }

  Attachment particleEnd(int index) const {
    if (index == Scenario::kPivot) return {nullptr, scenario_.pivot};
    const auto i = static_cast<std::size_t>(index);
    return {bodies_[i], scenario_.particles[i].position};
  }

  void addRods() {
    for (const Scenario::Rod& rod : scenario_.rods) {
      Attachment first = particleEnd(rod.a), second = particleEnd(rod.b);
      if (!first.body) std::swap(first, second);  // DBall's first anchor must be on a body
      if (!first.body) continue;                   // between two fixed points: nothing to hold
      const dJointID joint = dJointCreateDBall(world_.get(), nullptr);
      dJointAttach(joint, first.body, second.body);
      dJointSetDBallAnchor1(joint, first.point.x, first.point.y, first.point.z);
      dJointSetDBallAnchor2(joint, second.point.x, second.point.y, second.point.z);
      dJointSetDBallDistance(joint, rod.length);
    }
  }

  void addPins() {
    for (const Scenario::Pin& pin : scenario_.pins) {
      const auto a = static_cast<std::size_t>(pin.a), b = static_cast<std::size_t>(pin.b);
      dBodyID first = bodies_[a], second = bodies_[b];
      if (!first) std::swap(first, second);
      if (!first) continue;  // between two static discs
      const Vector3 point = plus(scenario_.discs[a].position, pin.localA);
      const dJointID joint = dJointCreateHinge(world_.get(), nullptr);
      dJointAttach(joint, first, second);
      dJointSetHingeAnchor(joint, point.x, point.y, point.z);
      dJointSetHingeAxis(joint, 0.0, 0.0, 1.0);
    }
  }

  Scenario scenario_;
  std::vector<BodyState> start_;  // where the fixed bodies (nailed, static) stay
  OdeSolver solver_;
  std::unique_ptr<dxWorld, WorldDeleter> world_;
  std::vector<dBodyID> bodies_;  // [bodyCount()]; nullptr: part of the world
};

long constraintRows(const Scenario& scenario) {
  if (scenario.kind == ScenarioKind::JointGrid) return kHingeRows * static_cast<long>(scenario.pins.size());
  return static_cast<long>(scenario.rods.size());
}

}  // namespace

std::vector<EngineMode> odeModes() {
  // The joints' scenarios: this driver builds no contacts.
  const auto joints = [](const Scenario& scenario) { return !scenario.collides(); };
  const auto small = [joints](const Scenario& scenario) {
    return joints(scenario) && constraintRows(scenario) <= kDirectSolverMaxRows;
  };
  EngineMode quick{"ode 0.16", "quickstep, 20 iterations", false, joints, [](const Scenario& scenario) {
                     return std::make_unique<OdeWorld>(scenario, OdeSolver::QuickStep);
                   }};
  EngineMode direct{"ode 0.16", "dWorldStep (direct)", false, small, [](const Scenario& scenario) {
                      return std::make_unique<OdeWorld>(scenario, OdeSolver::Direct);
                    }};
  return {quick, direct};
}

}  // namespace tinkertoy::bench
