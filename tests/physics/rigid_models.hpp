// Test support for the rigid-body physics tests (rigid_*_test.cpp): simulation settings for
// both formulations, builders for rigid bodies and joints, the hinged rod (the physical
// pendulum), and the closed forms the tests compare against.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "physics/jacobi_elliptic.hpp"
#include "tinkertoy/constraints/angle_joint.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/prismatic_joint.hpp"
#include "tinkertoy/constraints/pulley_joint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/constraints/weld_joint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/core/shape.hpp"
#include "tinkertoy/scene/scene.hpp"
#include <gtest/gtest.h>

namespace tinkertoy::test {


using std::numbers::pi;
using Motion = RigidBody::Motion;

constexpr double kGravity = 9.81;

// ---- settings ------------------------------------------------------------------------

inline SimulationSettings accelerationLevel(double dt, SolverKind solver = SolverKind::SparseLdlt) {
  SimulationSettings s;
  s.dt = dt;
  s.formulation = FormulationKind::Acceleration;
  s.integrator = IntegratorKind::RungeKutta4;
  s.solver.kind = solver;
  return s;
}

inline SimulationSettings velocityLevel(double dt, SolverKind solver, PositionCorrection correction, int substeps = 1,
                                 int iterations = 10, bool warmStart = true) {
  SimulationSettings s;
  s.dt = dt;
  s.formulation = FormulationKind::Velocity;
  s.solver.kind = solver;
  s.velocity.substeps = substeps;
  s.velocity.iterations = iterations;
  s.velocity.warmStart = warmStart;
  s.velocity.positionCorrection = correction;
  return s;
}

// The two velocity-level set-ups most tests run: the global solve with exact projection, and
// the game-engine default, sequential impulses with Baumgarte.
struct VelocityVariant {
  const char* name;
  SolverKind solver;
  PositionCorrection correction;
};
constexpr VelocityVariant kLdltProjection{"ldlt+projection", SolverKind::SparseLdlt, PositionCorrection::Projection};
constexpr VelocityVariant kSequentialBaumgarte{"sequential+baumgarte", SolverKind::SequentialImpulses,
                                               PositionCorrection::Baumgarte};

inline SimulationSettings velocityLevel(double dt, const VelocityVariant& variant, int substeps = 1, int iterations = 10) {
  return velocityLevel(dt, variant.solver, variant.correction, substeps, iterations);
}

using NamedSettings = std::vector<std::pair<std::string, SimulationSettings>>;

// The acceleration level (with LDLᵀ, and also CG if `bothSolvers`) at step acceleration, and
// both velocity-level variants at step velocity.
inline NamedSettings everyFormulation(double acceleration, double velocity, bool bothSolvers) {
  NamedSettings cases = {{"acceleration/ldlt", accelerationLevel(acceleration, SolverKind::SparseLdlt)}};
  if (bothSolvers) cases.emplace_back("acceleration/cg", accelerationLevel(acceleration, SolverKind::ConjugateGradient));
  for (const VelocityVariant& variant : {kLdltProjection, kSequentialBaumgarte}) {
    cases.emplace_back(std::string("velocity/") + variant.name, velocityLevel(velocity, variant));
  }
  return cases;
}

// Prints a measured quantity and records it as a test property (in the XML report).
inline void report(const std::string& key, double value) {
  std::ostringstream text;
  text << std::setprecision(3) << std::scientific << value;
  ::testing::Test::RecordProperty(key, text.str());
  std::cout << "[ info ] " << key << " = " << text.str() << "\n";
}

// ---- building models -------------------------------------------------------------------

inline BodyId addRigid(Model& model, double mass, double inertia, const Shape& shape, const Eigen::Vector3d& pose,
                const Eigen::Vector3d& velocity = Eigen::Vector3d::Zero(), Motion motion = Motion::Dynamic,
                std::string name = {}) {
  return model.addBody(std::make_unique<RigidBody>(mass, inertia, shape, motion), pose, velocity, std::move(name));
}

// The point of `body` at world position `anchor` in its current pose, as a site in its frame
// (what the scene loader does with a joint's anchor).
inline BodyPoint pointAt(const Model& model, BodyId body, const Eigen::Vector2d& anchor) {
  const Eigen::VectorXd q = model.coordinates(body);
  return {body, Eigen::Vector2d(Eigen::Rotation2Dd(-q[2]) * (anchor - Eigen::Vector2d(q[0], q[1])))};
}

inline JointConnection toWorld(const Model& model, BodyId a, const Eigen::Vector2d& anchor) {
  return {.a = pointAt(model, a, anchor), .ground = anchor};
}

inline JointConnection between(const Model& model, BodyId a, BodyId b, const Eigen::Vector2d& anchor) {
  return {.a = pointAt(model, a, anchor), .b = pointAt(model, b, anchor)};
}

inline double angleOf(const Model& model, BodyId body) { return model.coordinates(body)[2]; }

inline Eigen::Vector2d worldPoint(const Model& model, const BodyPoint& point) {
  const Eigen::VectorXd x = model.position(point);
  return {x[0], x[1]};
}

inline Eigen::Vector2d centerOf(const Model& model, BodyId body) { return model.coordinates(body).head<2>(); }

inline void addGravity(Model& model) { model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kGravity))); }

// A uniform rod of length L and mass m (I = m L² / 12 about its center), hinged at one end to
// the world at the origin and lying at angle θ₀ from +x: the physical pendulum. Its hinge angle
// is the rod's angle θ; measured from the downward vertical it is φ = θ + π/2. About the hinge
// I_p = m L² / 3 and the center is d = L / 2 away, so it swings like a point pendulum of length
// I_p / (m d) = 2L/3: ω₀² = m g d / I_p = 3g / (2L).
struct RodOptions {
  double length = 1.0;
  double mass = 1.0;
  double angle = 0.0;  // θ₀, rad from +x
  JointLimits limits;
  std::optional<JointMotor> motor;
  bool gravity = true;
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
};

struct HingedRod {
  Model model{2};
  BodyId rod;
  ConstraintId hinge;
  double length, mass, referenceAngle;

  explicit HingedRod(const RodOptions& o = {}) : length(o.length), mass(o.mass), referenceAngle(o.angle) {
    const Eigen::Vector2d direction(std::cos(o.angle), std::sin(o.angle));
    const Eigen::Vector2d center = 0.5 * o.length * direction;
    rod = addRigid(model, o.mass, o.mass * o.length * o.length / 12.0, Shape::box(o.length, 0.05),
                   Eigen::Vector3d(center.x(), center.y(), o.angle), o.velocity, Motion::Dynamic, "rod");
    // The scene loader's reference angle: the initial relative angle.
    hinge = model.addConstraint(
        std::make_unique<RevoluteJoint>(toWorld(model, rod, Eigen::Vector2d::Zero()), o.angle, o.limits, o.motor),
        "hinge");
    if (o.gravity) addGravity(model);
  }

  [[nodiscard]] double hingeInertia() const { return mass * length * length / 3.0; }
  [[nodiscard]] double omega0() const { return std::sqrt(mass * kGravity * 0.5 * length / hingeInertia()); }
  // The joint coordinate the limits and motor act on: θ − θ_ref.
  [[nodiscard]] double jointAngle() const { return angleOf(model, rod) - referenceAngle; }
  [[nodiscard]] double swingAngle() const { return angleOf(model, rod) + pi / 2; }  // φ
  [[nodiscard]] double angularVelocity() const { return model.velocities(rod)[2]; }
  [[nodiscard]] Eigen::Vector2d hingeSeparation() const {
    return worldPoint(model, BodyPoint{rod, Eigen::Vector2d(-0.5 * length, 0.0)});
  }
};

// ---- closed forms ----------------------------------------------------------------------

// The exact large-amplitude pendulum θ̈ = −ω₀² sin θ released from rest at φ₀ (angles from the
// downward vertical): sin(φ/2) = k sn(K(k) − ω₀ t, k), k = sin(φ₀/2) (closed_form_test.cpp).
inline double exactSwing(double t, double phi0, double omega0) {
  const double k = std::sin(0.5 * phi0);
  const double K = std::comp_ellint_1(k);
  return 2.0 * std::asin(k * jacobiElliptic(K - omega0 * t, k * k).sn);
}

// The time the pendulum above first reaches φ (0 ≤ φ ≤ φ₀), inverting sn with the incomplete
// integral F: K − ω₀ t = F(asin(sin(φ/2) / k), k).
inline double timeToReach(double phi, double phi0, double omega0) {
  const double k = std::sin(0.5 * phi0);
  return (std::comp_ellint_1(k) - std::ellint_1(k, std::asin(std::sin(0.5 * phi) / k))) / omega0;
}

// The hinge force on a uniform rod released horizontally from rest, at swing angle φ. Energy
// gives ω² = (3g/L) cos φ and the torque α = −(3g/2L) sin φ, so the center (d = L/2) accelerates
// by d ω² = (3/2) g cos φ toward the hinge and d α = −(3/4) g sin φ along the swing; m a = F + m g
// then gives the hinge force F = m g (−(5/2) cos φ radially, (1/4) sin φ tangentially):
//   |F| = m g √((25/4) cos² φ + (1/16) sin² φ),   from m g / 4 at release to (5/2) m g at the bottom.
inline double hingeForce(double phi, double mass) {
  const double c = std::cos(phi), s = std::sin(phi);
  return mass * kGravity * std::sqrt(25.0 / 4.0 * c * c + s * s / 16.0);
}

}  // namespace tinkertoy::test
