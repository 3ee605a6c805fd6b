// The two ends of a Joint at the evaluated state: point 0 of the constraint, and point 1 or the
// joint's ground point in the world.
#pragma once

#include <utility>

#include "constraints/parts/joint_end.hpp"
#include "tinkertoy/constraints/joint_settings.hpp"

namespace tinkertoy::detail {

inline std::pair<JointEnd, JointEnd> jointEnds(const JointConnection& connection, const ConstraintInput& input) {
  const Eigen::Vector3d ground(connection.ground.x(), connection.ground.y(), 0.0);
  return {pointEnd(input, 0), connection.b ? pointEnd(input, 1) : worldEnd(ground)};
}

}  // namespace tinkertoy::detail
