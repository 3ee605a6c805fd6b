// ContactReport: one contact point as the last substep left it, for a user to read
// (Simulator::contacts()).
#pragma once

#include <Eigen/Core>

#include "tinkertoy/core/handles.hpp"

namespace tinkertoy {

struct ContactReport {
  BodyId a, b;                                        // the normal points from a to b
  Eigen::Vector2d point = Eigen::Vector2d::Zero();    // world, m: midway between the surfaces
  Eigen::Vector2d normal = Eigen::Vector2d::UnitX();  // unit
  double separation = 0.0;                            // m, at the substep's start (< 0: penetration)
  double normalImpulse = 0.0;                         // λ_n ≥ 0, N·s, on b (−λ_n n on a)
  double tangentImpulse = 0.0;                        // λ_t, N·s, along t = (n_y, −n_x), |λ_t| ≤ μ λ_n
};

}  // namespace tinkertoy
