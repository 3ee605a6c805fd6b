// Bounds: an axis-aligned rectangle in the plane, grown point by point (empty to start).
#pragma once

#include <Eigen/Core>
#include <limits>

namespace tinkertoy {

struct Bounds {
  Eigen::Vector2d min = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector2d max = Eigen::Vector2d::Constant(-std::numeric_limits<double>::infinity());

  // The whole plane.
  [[nodiscard]] static Bounds everything() {
    const double inf = std::numeric_limits<double>::infinity();
    return {Eigen::Vector2d::Constant(-inf), Eigen::Vector2d::Constant(inf)};
  }

  [[nodiscard]] bool empty() const { return !(min.x() <= max.x() && min.y() <= max.y()); }
  [[nodiscard]] Eigen::Vector2d size() const { return max - min; }
  [[nodiscard]] Eigen::Vector2d center() const { return 0.5 * (min + max); }

  [[nodiscard]] bool contains(const Eigen::Vector2d& p) const {
    return (p.array() >= min.array()).all() && (p.array() <= max.array()).all();
  }

  void add(const Eigen::Vector2d& p) {
    min = min.cwiseMin(p);
    max = max.cwiseMax(p);
  }
  // A disc of `radius` about p.
  void add(const Eigen::Vector2d& p, double radius) {
    add(p - Eigen::Vector2d::Constant(radius));
    add(p + Eigen::Vector2d::Constant(radius));
  }
  // p when it lies inside `region`.
  void addWithin(const Eigen::Vector2d& p, const Bounds& region) {
    if (region.contains(p)) add(p);
  }
  // Another rectangle (nothing when it is empty).
  void add(const Bounds& other) {
    if (other.empty()) return;
    add(other.min);
    add(other.max);
  }
  // Keeps only what lies in `other` too (empty when they do not overlap).
  void intersect(const Bounds& other) {
    min = min.cwiseMax(other.min);
    max = max.cwiseMin(other.max);
  }
  // Widens each side shorter than `side` (and an empty box, about the origin) to `side`.
  void ensureSize(double side) {
    if (empty()) min = max = Eigen::Vector2d::Zero();
    for (int i = 0; i < 2; ++i) {
      if (max[i] - min[i] < side) {
        const double mid = 0.5 * (min[i] + max[i]);
        min[i] = mid - 0.5 * side;
        max[i] = mid + 0.5 * side;
      }
    }
  }
};

}  // namespace tinkertoy
