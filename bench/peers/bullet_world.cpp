// Bullet (3.24: Debian's libbullet-dev, found by pkg-config `bullet`) in the peer benchmark: three
// modes, each built from the scenario (bench/scenario.hpp) in its own file, listed here.
//
// Bullet runs as a user gets it by default: in single precision, btScalar being float (the
// package is built without BT_USE_DOUBLE_PRECISION). The scenario's doubles are rounded to float
// on the way in, and every position, velocity and solver sum is a float.
//
// Common to every mode:
//   - step() is one stepSimulation(dt, 0): maxSubSteps 0 makes dt itself the step, where the
//     default (1 substep of a fixed 1/60 s) would accumulate time and step by 1/60 s instead. No
//     substeps: joint_grid's 4 are for engines that substep inside a solve, and Bullet's fixed
//     substeps are whole world steps.
//   - Nothing sleeps: every body and the soft body are DISABLE_DEACTIVATION, the multibody cannot
//     sleep. Nothing collides: bodies join the broadphase with filter group and mask 0, which pairs
//     them with nothing, and the multibody's links have no colliders. The broadphase
//     (btDbvtBroadphase) still moves every body's box each step, and that time counts.
//   - No damping: rigid bodies' and the soft body's are 0 by default, the multibody's is set to 0.
//   - read() (untimed) reports each scenario body in order: position and linear velocity, and for
//     discs the angle and angular velocity about z; masses() the engine's masses, 0 for static.
//
//   multibody (Featherstone)  [chain-N]
//     One btMultiBody in reduced coordinates: a base fixed at the pivot and N links, link i a
//     revolute joint about z at particle i − 1 (link 0 at the pivot) with its centre of mass at
//     particle i, the scenario's mass and a rotational inertia of 1e-6 kg·m² (the particles are
//     points: this adds a millionth of m·L² to each link). The rods' lengths hold by construction,
//     up to the float rounding of the forward kinematics. btMultiBodyDynamicsWorld with
//     btMultiBodyConstraintSolver, which has nothing to solve (no constraints, no contacts);
//     semi-implicit Euler in joint space (RK4 off, Bullet's default). Changed from the defaults:
//     linear and angular damping 0 (default 0.04 each, a drag ∝ v + v|v| on every link), max
//     coordinate velocity BT_LARGE_FLOAT (the default clamps every joint rate to 100 rad/s; raised
//     so that a whipping chain is never clamped). Left at the default: max applied impulse 1000 (it
//     bounds multibody constraint and contact impulses, and there are none), gyroscopic term on.
//     read() recomputes each link's world position and velocity from Bullet's cached joint
//     transforms and link velocities.
//
//   soft body, 10 iterations  [cloth-G, chain-N]
//     One btSoftBody in a btSoftRigidDynamicsWorld: a node per particle with the scenario's mass
//     (nailed particles mass 0, which Bullet holds in place), a link per rod (appendLink; its rest
//     length is the nodes' starting distance, the rod's length; material linear stiffness 1).
//     Each step predicts every node explicitly under gravity, then runs m_cfg.piterations = 10
//     (default 1) Gauss–Seidel passes of position corrections over the links, and takes the
//     velocities as (x − x_before)/dt: rods stretch under load, and that stretch is this mode's
//     constraint error. chain-N is a rope: the pivot a mass-0 node, not reported, plus a link per
//     rod. Gravity set in the world and in its btSoftBodyWorldInfo (default (0, −10, 0)).
//     m_cfg.collisions 0 (default: soft against rigid by distance field). Left at the default:
//     damping kDP 0, drag kDG and lift kLF 0 (so the world info's air density acts on nothing),
//     velocity and drift solvers off (viterations, diterations 0).
//
//   point-to-point, sequential impulses  [chain-N, joint_grid-N]
//     btDiscreteDynamicsWorld with btSequentialImpulseConstraintSolver at its defaults: 10
//     iterations, joint error fed back as a velocity bias with erp 0.2 (Baumgarte), cfm 0, and
//     joints starting every step from zero impulse (Bullet warm-starts contacts only). Every body
//     a btRigidBody on a btEmptyShape, kept in the x–y plane by linear factor (1, 1, 0) and
//     angular factor (0, 0, 1).
//     joint_grid: a body per disc with the scenario's mass and inertia (¼mr², ¼mr², ½mr²: only
//     the z inertia acts), static discs mass 0, a btPoint2PointConstraint per pin at localA and
//     localB.
//     chain: a body per particle with the scenario's mass. A point-to-point constraint pins points,
//     not distances, so each rod is carried by a body's rotation: rod (i, i − 1) pins particle
//     i − 1's centre to the point of body i at local offset x_{i−1} − x_i (where particle i − 1
//     starts, in body i's frame, unrotated at the start); rod (0, pivot) pins body 0's point at
//     pivot − x_0 to that fixed world point. The pinned point turns with body i about x_i at
//     distance L, so the pin holds |x_i − x_{i−1}| = L. The approximation: a point mass cannot
//     turn, so body i gets a small rotational inertia, 1e-3 kg·m² (0.1 % of m·L²): each rod turns
//     as if it had that inertia about its particle, and the energy ½Iω² that this stores is not
//     in the scenario's energy (so it shows as drift). Zero would make that turning massless; a
//     small inertia makes each pin's effective mass 500 times larger along the rod than across
//     it, which the solver's passes over world-axis rows converge on slowly, so the rods stretch
//     far more than the same solver's pins between discs do.
#include <string>

#include "bullet_world.hpp"

namespace tinkertoy::bench {

std::vector<EngineMode> bulletModes() {
  const std::string engine =
      "bullet " + std::to_string(BT_BULLET_VERSION / 100) + "." + std::to_string(BT_BULLET_VERSION % 100);
  const std::string softBody = "soft body, " + std::to_string(bullet::kSoftBodyIterations) + " iterations";
  const auto chain = [](const Scenario& s) { return s.kind == ScenarioKind::Chain; };
  const auto chainOrCloth = [](const Scenario& s) {
    return s.kind == ScenarioKind::Chain || s.kind == ScenarioKind::Cloth;
  };
  const auto chainOrJointGrid = [](const Scenario& s) {
    return s.kind == ScenarioKind::Chain || s.kind == ScenarioKind::JointGrid;
  };
  return {
      {engine, "multibody (Featherstone)", false, chain, bullet::buildMultibody},
      {engine, softBody, false, chainOrCloth, bullet::buildSoftBody},
      {engine, "point-to-point, sequential impulses", false, chainOrJointGrid, bullet::buildPointToPoint},
  };
}

}  // namespace tinkertoy::bench
