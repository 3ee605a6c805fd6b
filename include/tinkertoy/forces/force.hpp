// Force: anything that adds to the applied generalized force Q (Witkin, "Constrained Dynamics", §4.1, step 2).
//
// A force reads the state it is evaluated at and adds its contribution into Q; it never
// clears Q, so any number of forces accumulate. Forces are written against points: a world
// force f at a point of a body becomes the generalized force J_pᵀ f on that body's
// coordinates (Bodies::addPointForce), which is how springs and the mouse pull on beads and
// chains as well as on particles. Conservative forces also report their potential energy so
// the simulator can track E = T + V; the others report their power, which the work ledger
// sums (dynamics/work_ledger.hpp).
//
//   model.addForce(std::make_unique<tinkertoy::Spring>(a, b, SpringSettings{.stiffness = 10}));
#pragma once

#include <Eigen/Core>
#include <span>
#include <stdexcept>
#include <string_view>

#include "tinkertoy/core/bodies.hpp"
#include "tinkertoy/core/work_source.hpp"
#include "tinkertoy/forces/force_settings.hpp"

namespace tinkertoy {

// Thrown by a force whose value or derivatives are not finite at a finite state: a formula
// potential's square root of a negative number, say. The simulator refuses the step with a
// SimulationError that carries the reason, and the model keeps its last good state.
class UndefinedForceError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Force {
 public:
  virtual ~Force() = default;

  // The scene-file type name, e.g. "spring".
  [[nodiscard]] virtual std::string_view type() const = 0;
  // What the force acts on and every parameter, as plain data (forces/force_settings.hpp):
  // makeForce(settings()) builds an equal force. A force defined outside the library, or a formula
  // potential written in C++, has none (std::monostate).
  [[nodiscard]] virtual ForceSettings settings() const { return std::monostate{}; }

  // The points this force names. Forces that act on every body (gravity, drag) return an
  // empty span. Removing a body that owns a named point removes the force.
  [[nodiscard]] virtual std::span<const BodyPoint> points() const { return {}; }
  // Whether the force acts on the angle of point k's frame (a torque); that point must then be
  // on a body with a frame (a rigid body).
  [[nodiscard]] virtual bool usesAngle(std::size_t /*point*/) const { return false; }

  // Throws std::invalid_argument if a parameter does not fit a model of this dimension.
  virtual void validate(int dimension) const = 0;

  // Q += this force at `state`. Q: [n].
  virtual void accumulate(const Bodies& bodies, const StateView& state,
                          Eigen::Ref<Eigen::VectorXd> Q) const = 0;

  // Potential energy V at `state`, in joules; 0 for non-conservative forces.
  [[nodiscard]] virtual double potentialEnergy(const Bodies& /*bodies*/,
                                               const StateView& /*state*/) const {
    return 0.0;
  }

  // The rate at which this force does work that no potential accounts for (W; < 0 when it
  // dissipates), at `state`, and the ledger entry it goes to (WorkLedger). Conservative forces
  // do none.
  [[nodiscard]] virtual double power(const Bodies& /*bodies*/, const StateView& /*state*/) const { return 0.0; }
  [[nodiscard]] virtual WorkSource workSource() const { return WorkSource::Damping; }
  // The potential energy of a force from outside the model (the user's hand), J: not part of the
  // model's energy; what it loses over a step, with the force as it was during the step, is work
  // done on the model, booked under workSource().
  [[nodiscard]] virtual double externalEnergy(const Bodies& /*bodies*/, const StateView& /*state*/) const { return 0.0; }
};

}  // namespace tinkertoy
