#include "tinkertoy/view/swing_bounds.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace tinkertoy {

namespace {

// The bodies that move together: joined by a constraint or a force, through bodies that move
// (a static or kinematic body joins nothing). Each body's index in the model maps to the
// index of its group's first body.
class MovingGroups {
 public:
  explicit MovingGroups(const Model& model) : model_(model), parent_(model.bodyCount()) {
    std::iota(parent_.begin(), parent_.end(), std::size_t{0});
    for (std::size_t k = 0; k < model.constraintCount(); ++k) join(model.constraint(model.constraintAt(k)).points());
    for (std::size_t f = 0; f < model.forceCount(); ++f) join(model.force(model.forceAt(f)).points());
  }
  [[nodiscard]] bool moves(BodyId body) const { return model_.contains(body) && !model_.body(body).isDriven(); }
  [[nodiscard]] std::size_t group(BodyId body) { return root(model_.indexOf(body)); }

 private:
  std::size_t root(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::span<const BodyPoint> points) {
    std::optional<std::size_t> first;
    for (const BodyPoint& p : points) {
      if (!moves(p.body)) continue;
      const std::size_t r = root(model_.indexOf(p.body));
      if (first) parent_[r] = *first; else first = r;
      first = root(*first);
    }
  }

  const Model& model_;
  std::vector<std::size_t> parent_;
};

// How far from `pin` the group `group` can reach: its farthest particle, or point of a rigid
// body's outline, from the pin.
double reachOf(const Sketch& picture, MovingGroups& groups, std::size_t group, const Eigen::Vector2d& pin) {
  double reach = 0.0;
  for (const SketchDot& dot : picture.dots) {
    if (groups.moves(dot.point.body) && groups.group(dot.point.body) == group) reach = std::max(reach, (dot.at - pin).norm());
  }
  for (const SketchShape& shape : picture.shapes) {
    if (!groups.moves(shape.body) || groups.group(shape.body) != group) continue;
    reach = std::max(reach, (shape.center - pin).norm() + shape.radius);
    for (const Eigen::Vector2d& corner : shape.outline) reach = std::max(reach, (corner - pin).norm());
  }
  return reach;
}

}  // namespace

Bounds swingBounds(const Model& model, const Sketch& picture) {
  Bounds bounds;
  MovingGroups groups(model);
  for (const SketchPin& pin : picture.pins) {
    if (pin.kind == SketchPin::Kind::Slider || pin.kind == SketchPin::Kind::Driver || pin.kind == SketchPin::Kind::Weld) {
      continue;
    }
    if (const auto* chain = std::get_if<BodyId>(&pin.item); chain && groups.moves(*chain)) {  // a chain's pivot
      bounds.add(pin.at, reachOf(picture, groups, groups.group(*chain), pin.at));
      continue;
    }
    const auto* id = std::get_if<ConstraintId>(&pin.item);
    if (!id || !model.contains(*id)) continue;
    const std::span<const BodyPoint> points = model.constraint(*id).points();
    const bool held = points.size() == 1 ||
                      std::any_of(points.begin(), points.end(), [&](const BodyPoint& p) { return !groups.moves(p.body); });
    if (!held) continue;
    for (const BodyPoint& p : points) {
      if (groups.moves(p.body)) bounds.add(pin.at, reachOf(picture, groups, groups.group(p.body), pin.at));
    }
  }
  return bounds;
}

}  // namespace tinkertoy
