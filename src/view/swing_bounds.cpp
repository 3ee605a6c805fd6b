#include "tinkertoy/view/swing_bounds.hpp"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <numeric>
#include <optional>
#include <variant>
#include <vector>

#include "tinkertoy/constraints/constraint_settings.hpp"
#include "tinkertoy/model/spring_for_rod.hpp"

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

// What a body shows, as discs (centre, radius): its particles' or masses' dots and its rigid
// outline's corners (radius 0), or its circle.
std::vector<std::pair<Eigen::Vector2d, double>> extentOf(const Sketch& picture, BodyId body) {
  std::vector<std::pair<Eigen::Vector2d, double>> discs;
  for (const SketchDot& dot : picture.dots) {
    if (dot.point.body == body) discs.emplace_back(dot.at, 0.0);
  }
  for (const SketchShape& shape : picture.shapes) {
    if (shape.body != body) continue;
    if (shape.outline.empty()) discs.emplace_back(shape.center, shape.radius);
    for (const Eigen::Vector2d& corner : shape.outline) discs.emplace_back(corner, 0.0);
  }
  return discs;
}

double farthest(const std::vector<std::pair<Eigen::Vector2d, double>>& discs, const Eigen::Vector2d& from) {
  double reach = 0.0;
  for (const auto& [centre, radius] : discs) reach = std::max(reach, (centre - from).norm() + radius);
  return reach;
}

// A link that keeps two body points at a fixed distance: a hinge or weld (the points coincide)
// or a rigid rod. Sliders, springs, ropes and the rest do not bound how far apart their ends get.
bool isRigidLink(const Constraint& constraint) {
  const ConstraintSettings settings = constraint.settings();
  return std::holds_alternative<RevoluteJointSettings>(settings) || std::holds_alternative<WeldJointSettings>(settings) ||
         isRigidRod(constraint);
}

// The points rigid links name in one group, and the hops between them: along a link, or
// within one particle or rigid body (whose points keep their distances).
struct LinkGraph {
  std::vector<BodyPoint> points;
  std::vector<std::vector<std::size_t>> next;  // per point, the points one hop away

  std::size_t add(const BodyPoint& p) {
    const auto at = std::find(points.begin(), points.end(), p);
    if (at != points.end()) return static_cast<std::size_t>(at - points.begin());
    for (std::size_t n = 0; n < points.size(); ++n) {
      if (points[n].body == p.body) link(n, points.size());
    }
    points.push_back(p);
    return points.size() - 1;
  }
  void link(std::size_t a, std::size_t b) {
    next.resize(std::max({next.size(), a + 1, b + 1}));
    next[a].push_back(b);
    next[b].push_back(a);
  }
};

// Where a group is held to the world: a pin's picture point, the body points held there, and
// for a chain's pivot the chain.
struct HeldPin {
  Eigen::Vector2d at;
  std::vector<BodyPoint> points;
};

// The pins a model is held at: nails, pivots and hinges on the world or on a static body.
// Sliders and driven points move along their paths, and nothing turns about a weld.
std::vector<HeldPin> heldPins(const Model& model, const Sketch& picture, MovingGroups& groups) {
  std::vector<HeldPin> pins;
  for (const SketchPin& pin : picture.pins) {
    if (pin.kind == SketchPin::Kind::Slider || pin.kind == SketchPin::Kind::Driver || pin.kind == SketchPin::Kind::Weld) {
      continue;
    }
    if (const auto* chain = std::get_if<BodyId>(&pin.item); chain && groups.moves(*chain)) {  // a chain's pivot
      pins.push_back({pin.at, {BodyPoint(*chain)}});
      continue;
    }
    const auto* id = std::get_if<ConstraintId>(&pin.item);
    if (!id || !model.contains(*id)) continue;
    const std::span<const BodyPoint> points = model.constraint(*id).points();
    const auto moving = [&](const BodyPoint& p) { return groups.moves(p.body); };
    if (points.size() == 1 || !std::all_of(points.begin(), points.end(), moving)) {
      HeldPin held{pin.at, {}};
      std::copy_if(points.begin(), points.end(), std::back_inserter(held.points), moving);
      pins.push_back(std::move(held));
    }
  }
  return pins;
}

// Upper bounds on how far each body can get from a pin. In 2D, where a body is joined to a
// held point through rigid links (hinges, welds, rods) and through particles and rigid bodies,
// no point of it gets farther from the pin than that held point's (fixed) distance plus the
// length of the path (each hop keeps its length, the triangle inequality does the rest): a
// slider-crank's piston stays within crank plus rod of the crank's bearing, wherever it starts,
// and a four-bar's rocker within its own length of its bearing. Dijkstra's shortest paths over
// the points the links name give those bounds. A body reached through nothing rigid (a spring,
// a slider; a chain, a 3D model) counts by its farthest point now: how far it swings about the
// pin as it hangs.
class Reach {
 public:
  Reach(const Model& model, const Sketch& picture, MovingGroups& groups, const std::vector<HeldPin>& pins)
      : model_(model), picture_(picture), groups_(groups) {
    for (std::size_t k = 0; k < model.constraintCount() && model.dimension() == 2; ++k) {
      const ConstraintId id = model.constraintAt(k);
      const std::span<const BodyPoint> ends = model.constraint(id).points();
      if (!model.isEnabled(id) || ends.size() != 2 || !isRigidLink(model.constraint(id))) continue;
      if (solid(ends[0]) && solid(ends[1])) graph_.link(graph_.add(ends[0]), graph_.add(ends[1]));
    }
    for (const HeldPin& pin : pins) {
      for (const BodyPoint& p : pin.points) {
        if (!graph_.points.empty() && solid(p)) held_.push_back(graph_.add(p));
      }
    }
    graph_.next.resize(graph_.points.size());
  }

  // How far each body of `pin`'s groups can get from it: (body, bound) pairs.
  std::vector<std::pair<BodyId, double>> from(const HeldPin& pin) {
    const std::vector<double> distance = pathsFrom(pin.at);
    std::vector<std::pair<BodyId, double>> bounds;
    for (std::size_t b = 0; b < model_.bodyCount(); ++b) {
      const BodyId body = model_.bodyAt(b);
      if (!std::any_of(pin.points.begin(), pin.points.end(), [&](const BodyPoint& p) { return sameGroup(p.body, body); })) continue;
      const auto extent = extentOf(picture_, body);
      double bound = std::numeric_limits<double>::infinity();
      for (std::size_t n = 0; n < graph_.points.size(); ++n) {
        if (graph_.points[n].body == body) bound = std::min(bound, distance[n] + farthest(extent, where(n)));
      }
      bounds.emplace_back(body, std::isfinite(bound) ? bound : farthest(extent, pin.at));
    }
    return bounds;
  }

 private:
  bool solid(const BodyPoint& p) { return groups_.moves(p.body) && model_.body(p.body).pointCount() == 1; }
  bool sameGroup(BodyId a, BodyId b) { return groups_.moves(a) && groups_.moves(b) && groups_.group(a) == groups_.group(b); }
  Eigen::Vector2d where(std::size_t n) const { return model_.position(graph_.points[n]).head<2>(); }

  // The shortest paths from `pin` to every point: to a held point straight (it stays where it
  // is held), then along links and across bodies.
  std::vector<double> pathsFrom(const Eigen::Vector2d& pin) const {
    std::vector<double> distance(graph_.points.size(), std::numeric_limits<double>::infinity());
    using Entry = std::pair<double, std::size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    for (const std::size_t n : held_) queue.emplace(distance[n] = std::min(distance[n], (where(n) - pin).norm()), n);
    while (!queue.empty()) {
      const auto [d, n] = queue.top();
      queue.pop();
      if (d > distance[n]) continue;
      for (const std::size_t m : graph_.next[n]) {
        if (const double through = d + (where(m) - where(n)).norm(); through < distance[m]) queue.emplace(distance[m] = through, m);
      }
    }
    return distance;
  }

  const Model& model_;
  const Sketch& picture_;
  MovingGroups& groups_;
  LinkGraph graph_;
  std::vector<std::size_t> held_;  // the graph's held points
};

}  // namespace

Bounds swingBounds(const Model& model, const Sketch& picture) {
  MovingGroups groups(model);
  const std::vector<HeldPin> pins = heldPins(model, picture, groups);
  Reach reach(model, picture, groups, pins);
  // Per body, the boxes of its circles about every pin, intersected: it stays within reach of
  // each, so a four-bar's crank is framed by its own circle, not by the whole linkage's.
  std::map<std::size_t, Bounds> reachable;  // by the body's index
  for (const HeldPin& pin : pins) {
    for (const auto& [body, bound] : reach.from(pin)) {
      Bounds circle;
      circle.add(pin.at, bound);
      const auto [at, fresh] = reachable.emplace(model.indexOf(body), circle);
      if (!fresh) at->second.intersect(circle);
    }
  }
  Bounds bounds;
  for (const auto& [body, box] : reachable) bounds.add(box);
  return bounds;
}

}  // namespace tinkertoy
