// Sketch: the model's items as drawing primitives (include/tinkertoy/view/sketch.hpp).
#include "tinkertoy/view/sketch.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <variant>

#include "tinkertoy/constraints/constraint_settings.hpp"
#include "tinkertoy/constraints/path.hpp"
#include "tinkertoy/curves/curve.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/formula/formula.hpp"
#include "view/level_curve.hpp"

namespace tinkertoy {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kLevelStep = 0.0125;  // m, along a formula wire (draw(FormulaConstraintSettings))

class Sketcher {
 public:
  Sketcher(const Model& model, Simulator* simulator, const SketchOptions& options)
      : model_(model),
        simulator_(simulator),
        options_(options),
        view_(model.dimension() == 3 ? options.view : ViewDirection::front()) {}

  Sketch run() {
    for (std::size_t i = 0; i < model_.bodyCount(); ++i) body(model_.bodyAt(i));
    for (std::size_t i = 0; i < model_.constraintCount(); ++i) {
      const ConstraintId id = model_.constraintAt(i);
      if (model_.isEnabled(id)) constraint(id);
    }
    for (std::size_t i = 0; i < model_.forceCount(); ++i) force(model_.forceAt(i));
    if (options_.constraintForces && simulator_) constraintForces();
    if (options_.contacts && simulator_) {
      for (const ContactReport& c : simulator_->contacts()) out_.contacts.push_back({c.point, c.normal});
    }
    return std::move(out_);
  }

 private:
  // A world point on the picture plane, and its depth.
  Eigen::Vector2d flat(const Eigen::Ref<const Eigen::VectorXd>& x) const { return view_.toPicture(x); }
  double depth(const Eigen::Ref<const Eigen::VectorXd>& x) const { return view_.depth(x); }
  Eigen::Vector2d at(const BodyPoint& p) const { return flat(model_.position(p)); }
  double depth(const BodyPoint& p) const { return depth(model_.position(p)); }
  double depth(const BodyPoint& a, const BodyPoint& b) const { return 0.5 * (depth(a) + depth(b)); }

  void pin(const Eigen::Ref<const Eigen::VectorXd>& x, SketchPin::Kind kind, SketchItem item) {
    out_.pins.push_back({.at = flat(x), .kind = kind, .item = item, .depth = depth(x)});
  }

  // A curve around parameter u (the bead's or driven point's place on it): a bounded one over its
  // domain (a closed curve whole, an open spline end to end), a helix two turns either way, an
  // open formula curve half a turn's worth of u either way, a line as a line.
  void curve(const Curve& c, double u, SketchItem item) {
    const CurveSettings settings = c.settings();
    if (const auto* line = std::get_if<LineCurveSettings>(&settings)) {
      this->line(line->origin, line->direction, item);
      return;
    }
    CurveSpan span{.from = u - 1.0, .to = u + 1.0, .segments = options_.curveSegments};
    if (const auto domain = c.domain()) span = {domain->from, domain->to, span.segments, domain->closed};
    std::visit([&](const auto& s) { refine(s, u, span); }, settings);
    SketchCurve drawn{.closed = span.closed, .item = item};
    const int last = span.closed ? span.segments - 1 : span.segments;
    for (int k = 0; k <= last; ++k) {
      drawn.points.push_back(flat(c.evaluate(span.from + (span.to - span.from) * k / span.segments).position));
    }
    out_.curves.push_back(std::move(drawn));
  }

  // The part of a curve drawn, in its parameter u, and in how many pieces.
  struct CurveSpan {
    double from, to;
    int segments;
    bool closed = false;
  };
  // What a kind of curve needs besides its domain: more pieces where it winds, and a span about u
  // where it has no domain. Others (std::monostate, circles, ellipses) keep what they have.
  template <class Settings>
  void refine(const Settings& /*s*/, double /*u*/, CurveSpan& /*span*/) const {}
  void refine(const SplineCurveSettings& s, double /*u*/, CurveSpan& span) const {
    span.segments *= static_cast<int>(s.points.size());
  }
  void refine(const HelixCurveSettings& /*s*/, double u, CurveSpan& span) const {
    span = {.from = u - 2.0 * kTwoPi, .to = u + 2.0 * kTwoPi, .segments = span.segments * 4};
  }
  void refine(const FormulaCurveSettings& s, double u, CurveSpan& span) const {
    span.segments *= 4;
    if (s.period == 0.0) span.from = u - kTwoPi / 2, span.to = u + kTwoPi / 2;
  }

  // An infinite line; seen end on it is only a point, and is left out.
  void line(const Eigen::Ref<const Eigen::VectorXd>& origin, const Eigen::Ref<const Eigen::VectorXd>& direction,
            SketchItem item) {
    const Eigen::Vector2d along = flat(direction);
    if (along.norm() > 1e-9 * direction.norm()) out_.lines.push_back({flat(origin), along.normalized(), item});
  }

  void body(BodyId id) {
    const Body& b = model_.body(id);
    const BodySettings settings = b.settings();
    if (const auto* rigid = std::get_if<RigidBodySettings>(&settings)) {
      rigidShape(id, *rigid);
      return;
    }
    if (const auto* chain = std::get_if<ChainSettings>(&settings)) links(id, chain->pivot);
    if (const auto* bead = std::get_if<BeadSettings>(&settings)) curve(*bead->curve, model_.coordinates(id)[0], id);
    for (int k = 0; k < b.pointCount(); ++k) out_.dots.push_back({at({id, k}), {id, k}, b.pointMass(k), depth({id, k})});
  }

  // A chain's links, from its pivot through its masses.
  void links(BodyId id, const Eigen::VectorXd& pivot) {
    Eigen::VectorXd previous = pivot;
    pin(previous, SketchPin::Kind::Pivot, id);
    for (int k = 0; k < model_.body(id).pointCount(); ++k) {
      const Eigen::VectorXd next = model_.position({id, k});
      out_.links.push_back({.a = flat(previous),
                            .b = flat(next),
                            .kind = SketchLink::Kind::Link,
                            .item = id,
                            .depth = 0.5 * (depth(previous) + depth(next))});
      previous = next;
    }
  }

  void rigidShape(BodyId id, const RigidBodySettings& rigid) {
    const Eigen::VectorXd q = model_.coordinates(id);
    const Eigen::Vector2d center(q[0], q[1]);
    const Eigen::Rotation2Dd rotation(q[2]);
    SketchShape shape{.type = rigid.shape.type(),
                      .center = center,
                      .angle = q[2],
                      .motion = rigid.motion,
                      .asleep = simulator_ && simulator_->asleep(id),
                      .body = id};
    switch (shape.type) {
      case Shape::Type::Circle:
        shape.radius = rigid.shape.radius();
        break;
      case Shape::Type::Box: {
        const Eigen::Vector2d h = 0.5 * rigid.shape.size();
        for (const Eigen::Vector2d& corner : {Eigen::Vector2d(-h.x(), -h.y()), Eigen::Vector2d(h.x(), -h.y()),
                                              Eigen::Vector2d(h.x(), h.y()), Eigen::Vector2d(-h.x(), h.y())}) {
          shape.outline.push_back(center + rotation * corner);
        }
        break;
      }
      case Shape::Type::Segment:
      case Shape::Type::Chain:
        shape.area = false;
        shape.closed = rigid.shape.loop();
        [[fallthrough]];
      case Shape::Type::Polygon:
        for (const Eigen::Vector2d& v : rigid.shape.vertices()) shape.outline.push_back(center + rotation * v);
        break;
      case Shape::Type::Capsule: {
        // Each cap a half circle about its end of the segment, counter-clockwise from the right one.
        const int half = std::max(2, options_.curveSegments / 2);
        const double l = 0.5 * rigid.shape.length(), r = rigid.shape.radius();
        for (const double end : {1.0, -1.0}) {
          for (int k = 0; k <= half; ++k) {
            const double u = (end > 0.0 ? -0.5 : 0.5) * std::numbers::pi + std::numbers::pi * k / half;
            shape.outline.push_back(center + rotation * Eigen::Vector2d(end * l + r * std::cos(u), r * std::sin(u)));
          }
        }
        break;
      }
    }
    out_.shapes.push_back(std::move(shape));
  }

  double lambda(ConstraintId id) const {
    if (!simulator_) return std::numeric_limits<double>::quiet_NaN();
    const std::span<const double> l = simulator_->lambda(id);
    return l.empty() ? std::numeric_limits<double>::quiet_NaN() : l[0];
  }

  void constraint(ConstraintId id) {
    std::visit([&](const auto& settings) { draw(id, settings); }, model_.constraint(id).settings());
  }

  // One draw() per kind of constraint. An angle joint has no place of its own, and a constraint
  // defined outside the library no known shape: they are not drawn.
  void draw(ConstraintId /*id*/, std::monostate /*none*/) {}
  void draw(ConstraintId /*id*/, const AngleJointSettings& /*gear*/) {}
  // A formula row of a 2D model that reads one point's x or y or both, and nothing else, is a
  // wire: the curve C = 0 through the point, traced kLevelStep at a time (options_.curveSegments
  // steps either way, or a closed curve whole). Other rows, and those that move with t, have no
  // shape of their own.
  void draw(ConstraintId id, const FormulaConstraintSettings& s) {
    if (model_.dimension() != 2) return;
    const std::vector<std::string> variables = namedPointVariables(s.points);
    std::vector<double> values(variables.size(), 0.0);
    for (std::size_t k = 0; k < s.points.size(); ++k) {
      const Eigen::VectorXd x = model_.position(s.points[k].second);
      values[kVariablesPerPoint * k] = x[0];
      values[kVariablesPerPoint * k + 1] = x[1];
    }
    const std::vector<double> rates(values.size(), 0.0);
    for (const std::string& text : s.rows) {
      const Formula row(text, variables, s.parameters);
      std::size_t x = 0;  // the point's x variable: that of the first variable the row reads
      while (x + 1 < variables.size() && !row.uses(x)) ++x;
      x -= x % kVariablesPerPoint;
      if (x + 1 >= variables.size()) continue;  // it reads only t
      const std::size_t y = x + 1;
      if (row.usedCount() != int{row.uses(x)} + int{row.uses(y)}) continue;  // it reads more than the point's x and y
      const auto C = [&](const Eigen::Vector2d& at) {
        std::vector<double> here = values;
        here[x] = at.x();
        here[y] = at.y();
        const Jet c = row.jet(here, rates);
        const auto entry = [&](std::size_t v) { return row.uses(v) ? c.gradient[static_cast<std::size_t>(row.slotOf(v))] : 0.0; };
        return Eigen::Vector3d(c.value, entry(x), entry(y));
      };
      const auto traced = detail::traceLevelCurve(C, Eigen::Vector2d(values[x], values[y]), kLevelStep, options_.curveSegments);
      if (traced) out_.curves.push_back({.points = traced->points, .closed = traced->closed, .item = id});
    }
  }
  void draw(ConstraintId id, const DistanceConstraintSettings& s) {
    SketchLink link{.a = at(s.a), .kind = SketchLink::Kind::Rod, .value = lambda(id), .item = id};
    if (s.spring) {
      link.kind = SketchLink::Kind::Soft;
    } else if (!s.length) {
      link.kind = SketchLink::Kind::Rope;
    }
    if (s.b) {
      link.b = at(*s.b);
      link.depth = depth(s.a, *s.b);
    } else {
      link.b = flat(s.anchor);
      link.depth = 0.5 * (depth(s.a) + depth(s.anchor));
      pin(s.anchor, SketchPin::Kind::Nail, id);
    }
    out_.links.push_back(link);
  }
  void draw(ConstraintId id, const FixedPointConstraintSettings& s) { pin(s.location, SketchPin::Kind::Nail, id); }
  void draw(ConstraintId id, const PointOnCircleConstraintSettings& s) {
    // In 3D the wire is a sphere, whose outline seen from any side is a circle.
    const Eigen::Vector2d center = flat(s.center);
    SketchCurve circle{.closed = true, .item = id};
    for (int k = 0; k < options_.curveSegments; ++k) {
      const double u = kTwoPi * k / options_.curveSegments;
      circle.points.push_back(center + s.radius * Eigen::Vector2d(std::cos(u), std::sin(u)));
    }
    out_.curves.push_back(std::move(circle));
  }
  void draw(ConstraintId id, const PointOnLineConstraintSettings& s) { line(s.origin, s.direction, id); }
  void draw(ConstraintId /*id*/, const PointOnPlaneConstraintSettings& /*plane*/) {}
  void draw(ConstraintId id, const DrivenPointConstraintSettings& s) {
    const PathSettings path = s.path->settings();
    if (const auto* along = std::get_if<CurvePathSettings>(&path)) {
      curve(*along->curve, along->phase + along->speed * model_.time(), id);
    }
    pin(model_.position(s.point), SketchPin::Kind::Driver, id);
  }
  // Revolute, weld and prismatic joints are pins at body a's anchor; a revolute joint to the
  // world is a ground pivot, drawn as a nail is.
  void draw(ConstraintId id, const RevoluteJointSettings& s) {
    const bool ground = !s.connection.b.has_value();
    const int motor = !s.motor ? 0 : s.motor->speed < 0.0 ? -1 : 1;
    out_.pins.push_back({.at = at(s.connection.a),
                         .kind = ground ? SketchPin::Kind::Nail : SketchPin::Kind::Hinge,
                         .item = id,
                         .motor = motor});
  }
  void draw(ConstraintId id, const WeldJointSettings& s) {
    out_.pins.push_back({.at = at(s.connection.a), .kind = SketchPin::Kind::Weld, .item = id});
  }
  void draw(ConstraintId id, const PrismaticJointSettings& s) {
    const std::optional<BodyPoint>& b = s.connection.b;
    const double angle = b && model_.body(b->body).hasFrame() ? model_.coordinates(b->body)[2] : 0.0;
    out_.pins.push_back({.at = at(s.connection.a),
                         .kind = SketchPin::Kind::Slider,
                         .item = id,
                         .direction = Eigen::Rotation2Dd(angle) * s.axis.stableNormalized()});
  }
  void draw(ConstraintId id, const PulleyJointSettings& s) {
    for (const auto& [end, ground] : {std::pair{s.a, s.groundA}, std::pair{s.b, s.groundB}}) {
      out_.links.push_back({.a = at(end), .b = ground, .kind = SketchLink::Kind::Pulley, .item = id});
      out_.pins.push_back({.at = ground, .kind = SketchPin::Kind::Pulley, .item = id});
    }
  }
  void draw(ConstraintId id, const MouseJointSettings& s) {
    const double force = simulator_ ? simulator_->reaction(id).force.norm() : std::numeric_limits<double>::quiet_NaN();
    out_.links.push_back(
        {.a = at(s.point), .b = s.target, .kind = SketchLink::Kind::Mouse, .value = force, .item = id, .depth = depth(s.point)});
  }


  void force(ForceId id) {
    std::visit([&](const auto& s) { draw(id, s); }, model_.force(id).settings());
  }
  // Springs and the hand; other forces are not drawn.
  template <class Settings>
  void draw(ForceId /*id*/, const Settings& /*s*/) {}
  void draw(ForceId id, const SpringSettings& s) {
    const Eigen::Vector2d b = s.b ? at(*s.b) : flat(s.anchor);
    const double d = s.b ? depth(s.a, *s.b) : 0.5 * (depth(s.a) + depth(s.anchor));
    out_.springs.push_back({at(s.a), b, s.parameters.rest_length, id, d});
  }
  void draw(ForceId id, const MouseSpringSettings& s) {
    out_.links.push_back({.a = at(s.point),
                          .b = flat(s.target),
                          .kind = SketchLink::Kind::Mouse,
                          .value = mouseSpringForce(s, model_.bodies(), model_.state()).norm(),
                          .item = id,
                          .depth = 0.5 * (depth(s.point) + depth(s.target))});
  }

  // Q̂ = Jᵀλ on each particle and each rigid body (its force components, at its origin), as
  // seen on the picture plane.
  void constraintForces() {
    const Eigen::VectorXd& Q = simulator_->constraintForce();
    if (Q.size() != model_.q().size()) return;  // before the first step
    for (std::size_t i = 0; i < model_.bodyCount(); ++i) {
      const BodyId id = model_.bodyAt(i);
      const Body& b = model_.body(id);
      if (!model_.isParticle(id) && !std::holds_alternative<RigidBodySettings>(b.settings())) continue;
      const auto offset = static_cast<Eigen::Index>(model_.offsetOf(id));
      out_.arrows.push_back({at(id), flat(Q.segment(offset, model_.dimension())), id});
    }
  }

  const Model& model_;
  Simulator* simulator_;
  const SketchOptions& options_;
  const ViewDirection view_;
  Sketch out_;
};

}  // namespace

Bounds Sketch::bounds() const { return boundsWithin(Bounds::everything()); }

std::size_t Sketch::markCount() const {
  std::size_t count =
      lines.size() + springs.size() + links.size() + pins.size() + dots.size() + arrows.size() + contacts.size();
  for (const SketchShape& s : shapes) count += 1 + s.outline.size();
  for (const SketchCurve& c : curves) count += 1 + c.points.size();
  return count;
}

Bounds Sketch::boundsWithin(const Bounds& region) const {
  Bounds b;
  for (const SketchShape& s : shapes) {
    if (!region.contains(s.center)) continue;
    b.add(s.center, s.radius);
    for (const Eigen::Vector2d& p : s.outline) b.add(p);
  }
  for (const SketchCurve& c : curves) {
    for (const Eigen::Vector2d& p : c.points) b.addWithin(p, region);
  }
  for (const SketchSpring& s : springs) {
    b.addWithin(s.a, region);
    b.addWithin(s.b, region);
  }
  for (const SketchLink& l : links) {
    b.addWithin(l.a, region);
    b.addWithin(l.b, region);
  }
  for (const SketchPin& p : pins) b.addWithin(p.at, region);
  for (const SketchDot& d : dots) b.addWithin(d.at, region);
  return b;
}

DepthRange Sketch::depths() const {
  DepthRange range;
  for (const SketchSpring& s : springs) range.add(s.depth);
  for (const SketchLink& l : links) range.add(l.depth);
  for (const SketchPin& p : pins) range.add(p.depth);
  for (const SketchDot& d : dots) range.add(d.depth);
  return range;
}

std::vector<SketchMark> Sketch::backToFront() const {
  std::vector<SketchMark> marks;
  marks.reserve(links.size() + pins.size() + dots.size());
  for (std::size_t i = 0; i < links.size(); ++i) marks.push_back({SketchMark::Kind::Link, i});
  for (std::size_t i = 0; i < pins.size(); ++i) marks.push_back({SketchMark::Kind::Pin, i});
  for (std::size_t i = 0; i < dots.size(); ++i) marks.push_back({SketchMark::Kind::Dot, i});
  const auto depth = [this](const SketchMark& m) {
    switch (m.kind) {
      case SketchMark::Kind::Link:
        return links[m.index].depth;
      case SketchMark::Kind::Pin:
        return pins[m.index].depth;
      case SketchMark::Kind::Dot:
        break;
    }
    return dots[m.index].depth;
  };
  // Stable: at one depth the kinds stay in the order they were listed, each in sketch order.
  std::stable_sort(marks.begin(), marks.end(),
                   [&](const SketchMark& a, const SketchMark& b) { return depth(a) < depth(b); });
  return marks;
}

Sketch sketch(const Model& model, Simulator* simulator, const SketchOptions& options) {
  return Sketcher(model, simulator, options).run();
}

}  // namespace tinkertoy
