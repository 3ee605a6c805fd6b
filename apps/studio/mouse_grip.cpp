// MouseGrip: the drag tuned to the mechanism it pulls on (mouse_grip.hpp).
#include "mouse_grip.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <variant>
#include <vector>

#include "tinkertoy/constraints/constraint_settings.hpp"

namespace tinkertoy::studio {

namespace {

constexpr double kMechanismAcceleration = 100.0;  // m/s²
constexpr double kShortestLever = 0.05;           // m
constexpr double kReachAtLimit = 0.25;            // m, from the pointer
constexpr double kMostOfSubstepRate = 0.25;       // a stiffer spring is not resolved

bool dynamic(const Model& model, BodyId body) { return !model.body(body).isDriven(); }

// Which bodies (by dense index) the grabbed one is connected to through enabled constraints,
// passing through dynamic bodies only (a static ground joins nothing).
std::vector<bool> mechanismOf(const Model& model, BodyId grabbed) {
  std::vector<bool> in(model.bodyCount(), false);
  in[model.indexOf(grabbed)] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < model.constraintCount(); ++i) {
      const ConstraintId id = model.constraintAt(i);
      if (!model.isEnabled(id)) continue;
      const auto points = model.constraint(id).points();
      const bool touches = std::any_of(points.begin(), points.end(), [&](const BodyPoint& p) {
        return in[model.indexOf(p.body)] && dynamic(model, p.body);
      });
      for (const BodyPoint& p : points) {
        if (!touches || in[model.indexOf(p.body)] || !dynamic(model, p.body)) continue;
        in[model.indexOf(p.body)] = true;
        grew = true;
      }
    }
  }
  return in;
}

// The angular velocity of a rigid body (0 for the world or a body without a frame).
double spin(const Model& model, const BodyPoint* point) {
  if (!point || !model.body(point->body).hasFrame()) return 0.0;
  return model.velocities(point->body)[2];
}

}  // namespace

MouseGrip mouseGrip(const Model& model, const SimulationSettings& settings, const BodyPoint& grabbed) {
  const std::vector<bool> in = mechanismOf(model, grabbed.body);
  double mass = 0.0;
  for (std::size_t i = 0; i < model.bodyCount(); ++i) mass += in[i] ? model.mass(model.bodyAt(i)) : 0.0;

  const Eigen::VectorXd p = model.position(grabbed);
  const double speed = model.velocity(grabbed).norm();
  double motorForce = 0.0;
  for (std::size_t i = 0; i < model.constraintCount(); ++i) {
    const ConstraintId id = model.constraintAt(i);
    const Constraint& c = model.constraint(id);
    const auto points = c.points();
    if (!model.isEnabled(id) || !in[model.indexOf(points[0].body)]) continue;
    const ConstraintSettings joint = c.settings();
    if (const auto* hinge = std::get_if<RevoluteJointSettings>(&joint); hinge && hinge->motor) {
      const double torque = hinge->motor->maxForce;
      const double rate = std::abs(spin(model, &points[0]) - spin(model, points.size() > 1 ? &points[1] : nullptr));
      const double lever = std::max((model.position(points[0]) - p).norm(), kShortestLever);
      const double force = rate > 0.0 && speed > 0.0 ? torque * rate / speed : torque / lever;
      motorForce += std::min(force, torque / kShortestLever);
    } else if (const auto* slider = std::get_if<PrismaticJointSettings>(&joint); slider && slider->motor) {
      motorForce += slider->motor->maxForce;
    }
  }

  const double limit = kMechanismAcceleration * mass + 2.0 * motorForce;
  const double omega = 2.0 * std::numbers::pi * kGripFrequency;
  const double stiffness = std::max(mass * omega * omega, limit / kReachAtLimit);
  const double substepRate = settings.velocity.substeps / settings.dt;
  const double frequency = std::min(std::sqrt(stiffness / model.mass(grabbed.body)) / (2.0 * std::numbers::pi),
                                    kMostOfSubstepRate * substepRate);
  return {{frequency, kGripDampingRatio}, limit};
}

}  // namespace tinkertoy::studio
