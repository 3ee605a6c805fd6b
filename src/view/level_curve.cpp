#include "view/level_curve.hpp"

#include <algorithm>
#include <cmath>

namespace tinkertoy::detail {

namespace {

// p moved onto C = 0 by Newton's method along the gradient, p ← p − C ∇C / |∇C|², if it gets
// there within a tenth of `step` of C's zero in a few iterations.
std::optional<Eigen::Vector2d> project(const LevelFunction& C, Eigen::Vector2d p, double step) {
  for (int k = 0; k < 8; ++k) {
    const Eigen::Vector3d c = C(p);
    const Eigen::Vector2d g = c.tail<2>();
    if (!c.allFinite() || g.squaredNorm() == 0.0) return std::nullopt;
    const Eigen::Vector2d move = -c[0] * g / g.squaredNorm();
    p += move;
    if (move.norm() < 1e-9 * std::max(1.0, p.norm())) return p;
  }
  const Eigen::Vector3d c = C(p);
  if (c.allFinite() && std::abs(c[0]) <= 0.1 * step * c.tail<2>().norm()) return p;
  return std::nullopt;
}

}  // namespace

std::optional<LevelCurve> traceLevelCurve(const LevelFunction& C, const Eigen::Vector2d& start, double step, int steps) {
  const std::optional<Eigen::Vector2d> origin = project(C, start, step);
  if (!origin) return std::nullopt;
  // Forward up to four times as far, to find a closed curve of up to 4 · steps steps; if it does
  // not close, `steps` each way.
  const auto walk = [&](double direction, int most, bool& closed) {
    std::vector<Eigen::Vector2d> points;
    Eigen::Vector2d p = *origin;
    for (int k = 0; k < most; ++k) {
      const Eigen::Vector2d g = C(p).tail<2>();
      const Eigen::Vector2d tangent = direction * Eigen::Vector2d(-g.y(), g.x()).normalized();
      const std::optional<Eigen::Vector2d> next = project(C, p + step * tangent, step);
      if (!next || (*next - p).norm() > 2 * step) break;  // lost the curve, or jumped to another branch
      p = *next;
      if (k > 2 && (p - *origin).norm() < 0.75 * step) {  // back at the start after going round
        closed = true;
        break;
      }
      points.push_back(p);
    }
    return points;
  };
  LevelCurve curve;
  std::vector<Eigen::Vector2d> ahead = walk(1.0, 4 * steps, curve.closed);
  curve.points.push_back(*origin);
  if (curve.closed) {
    curve.points.insert(curve.points.end(), ahead.begin(), ahead.end());
    return curve;
  }
  ahead.resize(std::min<std::size_t>(ahead.size(), static_cast<std::size_t>(steps)));
  bool unused = false;
  const std::vector<Eigen::Vector2d> behind = walk(-1.0, steps, unused);
  curve.points.assign(behind.rbegin(), behind.rend());
  curve.points.push_back(*origin);
  curve.points.insert(curve.points.end(), ahead.begin(), ahead.end());
  return curve;
}

}  // namespace tinkertoy::detail
