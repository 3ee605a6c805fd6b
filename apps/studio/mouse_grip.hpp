// MouseGrip: how firmly the Studio's Drag tool holds what it grabs at the velocity level, where
// the drag is a MouseJoint (a soft pull with a force limit; Box2D's mouse joint).
//
// A grip tuned to the grabbed body alone cannot move the mechanism it belongs to: the
// strandbeest's 0.18 kg foot got 18 N against a 200 N·m motor. So the grip is tuned to what it
// drags — the mechanism the body belongs to (the dynamic bodies its enabled constraints connect it
// to) and the motors in it:
//
//   limit      F = a M + 2 Σ F_motor       M: the mechanism's mass; a = 100 m/s²
//   F_motor    τ θ̇ / |v_p|                the force at the point p grabbed that holds a motor of
//                                          torque (or force) τ, by virtual work (τ θ̇ = F·v_p):
//                                          from the motion now; at rest, τ over the lever from the
//                                          motor's axis to p (at least 5 cm)
//   stiffness  k = max(M ω₀², F / 0.25 m)  the mechanism swings on the pointer at ω₀ = 2π·4 Hz,
//                                          and the grip reaches its limit 25 cm from the pointer
//   frequency  √(k / m) / 2π               the joint's spring on the grabbed body of mass m, no
//                                          more than a quarter of the substep rate
//
// So twice every motor's force can be held against, and the hand can stall a motor.
#pragma once

#include "tinkertoy/constraints/joint_settings.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy::studio {

// A drag's spring on the grabbed body alone (the mouse spring at the acceleration level, ω₀).
inline constexpr double kGripFrequency = 4.0;  // Hz
inline constexpr double kGripDampingRatio = 0.7;

struct MouseGrip {
  JointSpring spring;
  double maxForce = 0.0;  // N
};

MouseGrip mouseGrip(const Model& model, const SimulationSettings& settings, const BodyPoint& grabbed);

}  // namespace tinkertoy::studio
