// Test support: the convex hull of points in the plane (Andrew's monotone chain), for the
// narrowphase's brute-force reference and its fuzz target.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <vector>

namespace tinkertoy::test_support {

// The hull counter-clockwise, without collinear points: a turn of cross product at most
// `straight` counts as none (drop near-duplicates and points barely off a line with it). Fewer
// than 3 points when all are in line.
inline std::vector<Eigen::Vector2d> convexHull(std::vector<Eigen::Vector2d> p, double straight = 1e-12) {
  const auto cross = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); };
  std::sort(p.begin(), p.end(), [](const auto& a, const auto& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  if (p.size() < 3) return p;
  std::vector<Eigen::Vector2d> h(2 * p.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && cross(h[k - 1] - h[k - 2], p[i] - h[k - 2]) <= straight) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross(h[k - 1] - h[k - 2], p[i] - h[k - 2]) <= straight) --k;
    h[k++] = p[i];
  }
  h.resize(k - 1);
  return h;
}

}  // namespace tinkertoy::test_support
