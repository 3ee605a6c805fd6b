// Sketch: what a picture of a model shows, as plain primitives on the picture plane (metres; a
// 2D model as it is, a 3D model through a ViewDirection, with each mark's depth kept so a
// backend can draw back to front and shade what is far). It knows the model's kinds of
// bodies, constraints and forces and turns each into dots, links, springs, curves, pins, shapes
// and arrows; a drawing backend (the Studio's ImGui canvas, a cairo renderer) maps them to
// pixels and picks colours by kind.
// Nothing here depends on a graphics library, and every primitive names the model item it
// shows, so a click can be traced back to it.
//
//   tinkertoy::Sketch picture = tinkertoy::sketch(model, &simulator, {.constraintForces = true});
//   for (const auto& rod : picture.links) draw(rod.a, rod.b, colourFor(rod.lambda));
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <limits>
#include <variant>
#include <vector>

#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/view/bounds.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy {

// The model item a primitive shows (nothing for decorations such as a chain's pivot).
using SketchItem = std::variant<std::monostate, BodyId, ConstraintId, ForceId>;

// A point mass: a particle, a bead, a chain's mass.
struct SketchDot {
  Eigen::Vector2d at;
  BodyPoint point;
  double mass = 0.0;   // kg
  double depth = 0.0;  // m toward the viewer (ViewDirection::depth); 0 in a 2D model
};

// A straight connection between two points.
struct SketchLink {
  enum class Kind {
    Rod,     // a rigid distance constraint
    Rope,    // a distance constraint with only a maximum (or minimum) length
    Soft,    // a distance constraint with a spring (frequency, damping ratio)
    Link,    // a chain's link (its length is built in)
    Pulley,  // a pulley's rope, from a body to its ground point
    Mouse,   // the pull of a mouse drag, from the body to the pointer
  };
  Eigen::Vector2d a, b;
  Kind kind = Kind::Rod;
  // The rod's λ (N; < 0 is tension) from the simulator's last solve, or for a mouse pull the
  // force's magnitude; NaN when unknown.
  double value = std::numeric_limits<double>::quiet_NaN();
  SketchItem item;
  double depth = 0.0;  // of its middle
};

// A spring force, drawn as a zigzag.
struct SketchSpring {
  Eigen::Vector2d a, b;
  double restLength = 0.0;  // m
  SketchItem item;
  double depth = 0.0;  // of its middle
};

// A wire, a bead's curve or a driven point's path, as a polyline.
struct SketchCurve {
  std::vector<Eigen::Vector2d> points;
  bool closed = false;
  SketchItem item;
};

// An infinite straight wire (point on a line, a bead on a line).
struct SketchLine {
  Eigen::Vector2d point, direction;  // direction: unit
  SketchItem item;
};

// A point where something is held: nails, joints, pivots.
struct SketchPin {
  enum class Kind { Nail, Hinge, Weld, Slider, Pivot, Driver, Pulley };
  Eigen::Vector2d at;
  Kind kind = Kind::Nail;
  SketchItem item;
  Eigen::Vector2d direction = Eigen::Vector2d::UnitX();  // a slider's axis
  // A revolute joint's motor: +1 turning counter-clockwise (speed > 0), −1 clockwise, 0 none.
  int motor = 0;
  double depth = 0.0;
};

// A rigid body's outline at its pose.
struct SketchShape {
  Shape::Type type = Shape::Type::Circle;
  std::vector<Eigen::Vector2d> outline;  // box and polygon corners, counter-clockwise; terrain's points
  bool area = true;                      // false for terrain (a segment, a chain): lines, not filled
  bool closed = true;                    // the outline's last point joins its first
  Eigen::Vector2d center;                // the body's origin
  double radius = 0.0;                   // circle
  double angle = 0.0;                    // rad, for a circle's orientation mark
  RigidBody::Motion motion = RigidBody::Motion::Dynamic;
  bool asleep = false;  // with a simulator whose sleep is on
  BodyId body;
};

// A contact point (dynamics/contact_report.hpp) and its unit normal, from a toward b.
struct SketchContact {
  Eigen::Vector2d at, normal;
};

// A force on a body, in newtons, applied at `at`.
struct SketchArrow {
  Eigen::Vector2d at, force;
  BodyId body;
};

// The depths a picture spans, from the farthest mark (back) to the nearest (front).
struct DepthRange {
  double back = std::numeric_limits<double>::infinity();
  double front = -std::numeric_limits<double>::infinity();

  void add(double depth) {
    back = std::min(back, depth);
    front = std::max(front, depth);
  }
  void add(const DepthRange& other) {
    back = std::min(back, other.back);
    front = std::max(front, other.front);
  }
  // 0 at the front, 1 at the back; 0 everywhere when the picture is flat.
  [[nodiscard]] double fade(double depth) const {
    const double span = front - back;
    return span > 1e-12 ? std::clamp((front - depth) / span, 0.0, 1.0) : 0.0;
  }
};

// One of the marks drawn in depth order: the index of a link, a pin or a dot.
struct SketchMark {
  enum class Kind { Link, Pin, Dot };
  Kind kind;
  std::size_t index;
};

struct Sketch {
  std::vector<SketchShape> shapes;
  std::vector<SketchCurve> curves;
  std::vector<SketchLine> lines;
  std::vector<SketchSpring> springs;
  std::vector<SketchLink> links;
  std::vector<SketchPin> pins;
  std::vector<SketchDot> dots;
  std::vector<SketchArrow> arrows;  // constraint forces, with SketchOptions::constraintForces
  std::vector<SketchContact> contacts;  // with SketchOptions::contacts

  // What the picture covers (infinite lines left out); empty for an empty model.
  [[nodiscard]] Bounds bounds() const;
  // What the picture covers inside `region`: its points that lie there (a shape when its centre
  // does).
  [[nodiscard]] Bounds boundsWithin(const Bounds& region) const;
  // The depths of the springs, links, pins and dots.
  [[nodiscard]] DepthRange depths() const;
  // How many marks it holds, a shape's outline and a curve's polyline counting a mark per point:
  // what keeping many pictures costs in memory, at most about 100 bytes a mark.
  [[nodiscard]] std::size_t markCount() const;
  // The links, pins and dots in the order to draw them: back to front, and at the same depth
  // (as everything in a 2D model) links under pins under dots.
  [[nodiscard]] std::vector<SketchMark> backToFront() const;
};

struct SketchOptions {
  bool constraintForces = false;  // arrows of Q̂ = Jᵀλ on particles and rigid bodies
  bool contacts = false;          // the contact points of the simulator's last substep, with their normals
  int curveSegments = 160;        // per closed curve or per turn
  ViewDirection view;                // how a 3D model is seen; a 2D model is always seen from the front
};

// The model at its current state. With a simulator, rods carry λ and constraint forces can be
// drawn (both from its last step); without one they are unknown.
Sketch sketch(const Model& model, Simulator* simulator = nullptr, const SketchOptions& options = {});

}  // namespace tinkertoy
