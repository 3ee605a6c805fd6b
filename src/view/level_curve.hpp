// The curve C(x, y) = 0 through a point, traced as a polyline: how a sketch draws a wire written
// as a formula constraint on one point (docs/formula.md, "In pictures").
//
// From the start point, projected onto C = 0 by Newton's method along the gradient, the trace
// steps `step` along the tangent (∇C turned a quarter turn) and projects back. It goes up to
// 4 · `steps` steps one way, to find a closed curve (one that returns to the start) whole; an open
// curve is `steps` steps either way, or less where it meets a point where ∇C vanishes or C is not
// finite.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <vector>

namespace tinkertoy::detail {

// C at a point and its gradient: (C, ∂C/∂x, ∂C/∂y).
using LevelFunction = std::function<Eigen::Vector3d(const Eigen::Vector2d&)>;

struct LevelCurve {
  std::vector<Eigen::Vector2d> points;
  bool closed = false;
};

// Empty if the start cannot be projected onto C = 0.
std::optional<LevelCurve> traceLevelCurve(const LevelFunction& C, const Eigen::Vector2d& start, double step, int steps);

}  // namespace tinkertoy::detail
