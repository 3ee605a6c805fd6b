// The in-plane axes of circles, ellipses and helices in 3D.
//
// A planar curve in 3D is drawn in the plane through its center with unit normal n, using two
// unit axes e1, e2 with e1 × e2 = n:
//
//   e1 = normalize(r × n),  e2 = n × e1,   r = ŷ, or x̂ when n is within 25° of ±ŷ
//
// For n = ẑ this gives e1 = x̂, e2 = ŷ, so a 3D circle with the default normal matches the 2D
// one; for n = ŷ (a vertical helix axis) it gives e1 = ẑ, e2 = x̂.
#pragma once

#include <Eigen/Geometry>

namespace tinkertoy::detail {

struct PlaneFrame {
  Eigen::Vector3d e1, e2;
};

inline PlaneFrame planeFrame(const Eigen::Vector3d& normal) {
  const Eigen::Vector3d n = normal.stableNormalized();
  const Eigen::Vector3d reference = std::abs(n.y()) > 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d e1 = reference.cross(n).normalized();
  return {e1, n.cross(e1)};
}

}  // namespace tinkertoy::detail
