// JointEnd: one side of a two-sided constraint, either a point of the constraint (a body point,
// with its position, velocity and frame angle) or a fixed point of the world.
//
// Joint parts (axis_term.hpp, angle_term.hpp, distance_term.hpp) are written against two ends
// and give gradients only to the ends that are constraint points; a world end has no
// coordinates, so nothing moves it and it needs no gradient.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy::detail {

struct JointEnd {
  std::optional<std::size_t> point;  // index into the constraint's points(), or none (world)
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  double angle = 0.0;  // the frame's angle φ (0 for the world)
  double angularVelocity = 0.0;
};

// Point k of the constraint, at the evaluated state.
inline JointEnd pointEnd(const ConstraintInput& input, std::size_t k) {
  return {k, input.positions[k], input.velocities[k], input.angles.empty() ? 0.0 : input.angles[k],
          input.angularVelocities.empty() ? 0.0 : input.angularVelocities[k]};
}

// A fixed point of the world.
inline JointEnd worldEnd(const Eigen::Vector3d& position) { return {std::nullopt, position}; }

}  // namespace tinkertoy::detail
