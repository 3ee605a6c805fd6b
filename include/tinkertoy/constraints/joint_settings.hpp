// The settings every joint shares (dyn4j's "capability" interfaces, Rapier's limited and
// motorized axes): which two things it joins, and the optional limits, motor and spring of
// its coordinate. Every joint that has a limit, a motor or a spring takes these same structs.
//
//   JointConnection link{.a = {rod, Eigen::Vector2d(-0.5, 0)}};      // rod's left end to the world…
//   link.ground = Eigen::Vector2d(0, 0);                             // …at the origin
//   RevoluteJoint hinge(link, /*referenceAngle=*/0.0,
//                       JointLimits{.lower = -0.5, .upper = 0.5},
//                       JointMotor{.speed = 2.0, .maxForce = 10.0});
#pragma once

#include <Eigen/Core>
#include <limits>
#include <optional>

#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

// Two ends: point a on a body, and point b on another body or, if b is empty, the fixed world
// point `ground`.
struct JointConnection {
  BodyPoint a;
  std::optional<BodyPoint> b;
  Eigen::Vector2d ground = Eigen::Vector2d::Zero();
};

// The range of a joint coordinate (an angle in rad, a translation or length in m). An infinite
// bound is no bound; each finite one adds an inequality row.
struct JointLimits {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

// Drives the joint coordinate's rate toward `speed` (rad/s or m/s) with at most `maxForce`
// (N·m for an angle, N for a translation). Velocity level only.
struct JointMotor {
  double speed = 0.0;
  double maxForce = 0.0;
};

// Makes a row soft: it pulls like a damped spring of this frequency (Hz) and damping ratio
// (1 is critical) instead of holding rigidly. Velocity level only.
struct JointSpring {
  double frequency = 0.0;
  double dampingRatio = 0.0;
};

}  // namespace tinkertoy
