// Joints attached at a world point, as scene files attach them: at the model's current pose,
// each end becomes the site of its body at that point, and the joint's reference angle is the
// bodies' relative angle there, so the joint holds the pose it was made in.
//
//   const JointConnection hinge = connectAt(model, rod, std::nullopt, Eigen::Vector2d(0, 0));
//   model.addConstraint(std::make_unique<RevoluteJoint>(hinge, relativeAngle(model, hinge)));
#pragma once

#include <Eigen/Core>
#include <optional>

#include "tinkertoy/constraints/joint_settings.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

// The point of `point`'s body at the world point `anchor`: for a body with a frame (a rigid
// body), the site there; any other point must already be at the anchor (to 1e-9 relative), else
// std::invalid_argument says where it is.
BodyPoint pointAtAnchor(const Model& model, const BodyPoint& point, const Eigen::Vector2d& anchor);

// Both ends at `anchor`; an empty b joins a to the world there.
JointConnection connectAt(const Model& model, const BodyPoint& a, const std::optional<BodyPoint>& b,
                          const Eigen::Vector2d& anchor);

// φ of the frame of a point's body now (0 for a body without a frame, or for no point: the world).
double frameAngle(const Model& model, const std::optional<BodyPoint>& point);

// φ_a − φ_b now: the reference angle at which a joint's angle is zero in the current pose.
double relativeAngle(const Model& model, const JointConnection& connection);

}  // namespace tinkertoy
