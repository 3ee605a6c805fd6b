// springForRod: a model edit that takes out a rigid rod (a DistanceConstraint with a fixed
// length) and puts in its place a damped spring between the same two points, or the same point
// and fixed world point, with the rod's length as its rest length:
//
//   rod     C = |x_a − x_b| − L = 0                      (a constraint: a force λ n, any size)
//   spring  f_a = −[k (|x_a − x_b| − L) + c (ḋ·n)] n     (a force that grows with the stretch)
//
// At the rod's pose the two agree (no stretch, no force), so the swap starts from the same state;
// from then on the spring stretches by its load, about m g / k under a hanging mass m, and
// oscillates along itself at √(k/m)/2π Hz: the "goopy" penalty method that Witkin's constraint
// forces replace. Compare mode (`tinkertoy compare`, `--spring-for`) runs both side by side.
//
//   const ForceId spring = springForRod(model, rod, SpringParameters{.stiffness = 2000, .damping = 5});
#pragma once

#include <span>

#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

// Whether `constraint` is a rigid rod: a distance constraint of fixed length, with no spring
// and no limits.
bool isRigidRod(const Constraint& constraint);

// Replaces rod `rod` by a spring with `parameters`' stiffness and damping and the rod's length as
// its rest length (parameters.rest_length is ignored). The new force is the model's last. Throws
// std::invalid_argument, changing nothing, if `rod` is not a rigid rod (another constraint type,
// or a distance joint that is a spring, rope or strut), is disabled (a broken joint), or the
// parameters are invalid (a stiffness or damping that is negative or not finite). The rod's break
// force does not carry over: a spring does not break.
ForceId springForRod(Model& model, ConstraintId rod, SpringParameters parameters);

// The largest |ℓ − r| of the springs `springs` (made by springForRod) at the model's state, m:
// how far a model whose rods are springs is off its rods, the measure ‖C‖∞ is for rods. Throws
// std::invalid_argument if one of them is not a spring.
double largestStretch(const Model& model, std::span<const ForceId> springs);

}  // namespace tinkertoy
