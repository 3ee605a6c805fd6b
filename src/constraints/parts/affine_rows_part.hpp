// Affine rows part: k ≤ 3 rows holding a point on an affine set that may move in time.
//
// Derivation (docs/theory.md, "Affine rows"). With unit normals n_i and a reference point
// p(t) on the set (velocity ṗ, acceleration p̈):
//
//   C_i   = n_i·(x − p(t))
//   J_i   = n_iᵀ                 constant, so J̇ = 0
//   ∂C_i/∂t = −n_i·ṗ(t)
//   Ċ_i   = n_i·ẋ − n_i·ṗ
//   Ctt_i = d(∂C_i/∂t)/dt = −n_i·p̈(t)     (∂C/∂t does not depend on x)
//
// One part serves four constraints, by choice of normals:
//   fixed point (nail):   n = the d coordinate axes, p constant
//   point on a 2D line:   n = the line's normal
//   point on a 3D line:   n = two unit vectors orthogonal to the line
//   point on a plane:     n = the plane's normal
//   driven point:         n = the d coordinate axes, p = p(t) a prescribed path
#pragma once

#include <Eigen/Core>
#include <span>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/constraints/path.hpp"

namespace tinkertoy::detail {

inline void writeAffineRows(std::span<const Eigen::Vector3d> normals, const PathSample& p,
                            const ConstraintInput& input, ConstraintOutput& output) {
  const Eigen::Vector3d& x = input.positions[0];
  const Eigen::Vector3d& xDot = input.velocities[0];
  for (std::size_t i = 0; i < normals.size(); ++i) {
    const Eigen::Vector3d& n = normals[i];
    const int row = static_cast<int>(i);
    output.setValue(row, n.dot(x - p.position));
    output.setVelocity(row, n.dot(xDot - p.velocity));
    output.setJacobian(0, row, n);
    output.setTimeTerm(row, -n.dot(p.acceleration));
  }
}

// The first `dimension` coordinate axes, as normals for the fixed and driven points.
inline std::span<const Eigen::Vector3d> coordinateAxes(int dimension) {
  static const Eigen::Vector3d axes[3] = {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(),
                                          Eigen::Vector3d::UnitZ()};
  return {axes, static_cast<std::size_t>(dimension)};
}

}  // namespace tinkertoy::detail
