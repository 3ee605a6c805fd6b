// projectPose: moves a model's pose onto its constraints, C(q) = 0, while it is being edited —
// Witkin, Gleicher and Welch's interactive dynamics keeps a model legal as the user moves it,
// so that a paused pendulum's bob dragged off its circle is brought back onto it and the rest of
// a mechanism follows a moved part.
//
// Gauss–Newton on C in the mass metric, as the post-step projection does (projection.hpp): each
// step is the smallest move, in the kinetic-energy norm, that meets the linearized constraints,
//   J W' Jᵀ δ = −C,   q += s W' Jᵀ δ   (s = 1, ½, … 1/64 while ½‖C‖₂² does not fall),
// with W' the inverse mass with each `preferred` body's block scaled by kPreferredWeight: the
// body the user holds moves only where nothing else can give. Equality rows hold; an inequality
// row (a limit, a rope) takes part only while it is violated; motor and spring rows take none.
// Redundant or singular rows are solved damped (LinearSolver), so the move stays bounded where
// the constraints cannot all hold (a rod dragged past its reach is left at the nearest
// compromise, reported as stalled). Velocities and time are not touched.
//
//   model.setCoordinates(bob, mouse);
//   const ProjectionResult r = projectPose(model, std::array{bob});
#pragma once

#include <span>

#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

// How much less a preferred body moves than its mass alone would make it (its W block's scale).
inline constexpr double kPreferredWeight = 1e-3;

// Projects model.q() onto C = 0 to `settings.tolerance` in at most `settings.maxIterations`
// Gauss–Newton steps. Throws what evaluating the constraints throws (an undefined constraint),
// leaving the model as it was.
ProjectionResult projectPose(Model& model, std::span<const BodyId> preferred, const ProjectionSettings& settings = {});

}  // namespace tinkertoy
