#include "tinkertoy/collision/aabb.hpp"

namespace tinkertoy {

Aabb boundsOf(const Convex& shape, const Placement& placement) {
  Aabb box{placement.apply(shape.vertices[0]), placement.apply(shape.vertices[0])};
  for (int i = 1; i < shape.count; ++i) {
    const Eigen::Vector2d x = placement.apply(shape.vertices[i]);
    box.lower = box.lower.cwiseMin(x);
    box.upper = box.upper.cwiseMax(x);
  }
  return box.grown(shape.radius);
}

}  // namespace tinkertoy
