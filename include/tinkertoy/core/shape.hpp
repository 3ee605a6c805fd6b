// Shape: the outline of a 2D rigid body, for its moment of inertia, for drawing, and for what it
// collides with when the model's bodies collide. Every factory validates what it makes.
//
//   circle of radius r          I = ½ m r²
//   box of size w × h           I = m (w² + h²) / 12
//   capsule, length L, radius r I = m_box (L² + 4r²)/12 + m_caps (r²/2 + L²/4 + 4Lr/(3π)),
//                               the mass split by area, 2rL and πr² (the segment from
//                               (−L/2, 0) to (L/2, 0) rounded by r)
//   convex polygon p_0 … p_n−1  I = (m / 6A) Σ c_i (|p_i|² + p_i·p_{i+1} + |p_{i+1}|²) / 2,
//                               c_i = p_i × p_{i+1},  A = ½ Σ c_i
//
// about the body's origin, which is its center of mass: a polygon's vertices are given relative
// to its centroid (validate() says where the centroid is if they are not).
//
// Terrain has no area: a segment from a to b, and a chain, the polyline through its points (closed
// if it loops), each link a two-sided segment for collisions. Only a static or kinematic body
// carries one (RigidBody::validate), anywhere in its frame; its inertia, that of a uniform wire
// about the origin, is never used.
//
//   auto plank = tinkertoy::Shape::box(1.0, 0.1);
//   double I = plank.inertia(2.0);   // kg·m²
#pragma once

#include <Eigen/Core>
#include <string_view>
#include <vector>

namespace tinkertoy {

class Shape {
 public:
  enum class Type { Circle, Box, Polygon, Capsule, Segment, Chain };

  // The most points a chain has (its link's index goes into the contact points' feature ids).
  static constexpr std::size_t kMaxChainPoints = 16384;

  static Shape circle(double radius);
  static Shape box(double width, double height);
  // Convex, in either winding, centered on the centroid.
  static Shape polygon(std::vector<Eigen::Vector2d> vertices);
  // A stadium: the segment from (−length/2, 0) to (length/2, 0) rounded by `radius`.
  static Shape capsule(double length, double radius);
  // Terrain (above): the segment from a to b, distinct.
  static Shape segment(const Eigen::Vector2d& a, const Eigen::Vector2d& b);
  // Terrain: the polyline through 2 to kMaxChainPoints points, no two in a row the same; with
  // `loop`, 3 or more, the last joined to the first.
  static Shape chain(std::vector<Eigen::Vector2d> points, bool loop = false);

  [[nodiscard]] Type type() const { return type_; }
  // "circle", "box" or "polygon", as in scene files.
  [[nodiscard]] static constexpr std::string_view name(Type type) {
    switch (type) {
      case Type::Circle:
        return "circle";
      case Type::Box:
        return "box";
      case Type::Polygon:
        return "polygon";
      case Type::Capsule:
        return "capsule";
      case Type::Segment:
        return "segment";
      case Type::Chain:
        break;
    }
    return "chain";
  }
  [[nodiscard]] std::string_view name() const { return name(type_); }
  [[nodiscard]] double radius() const { return radius_; }  // a circle's or a capsule's
  [[nodiscard]] double length() const { return size_.x(); }  // a capsule's segment
  [[nodiscard]] const Eigen::Vector2d& size() const { return size_; }
  // The outline in the body frame: a polygon's vertices counter-clockwise, a box's four
  // corners, a segment's ends, a chain's points; empty for a circle and a capsule.
  [[nodiscard]] const std::vector<Eigen::Vector2d>& vertices() const { return vertices_; }
  // Whether a chain's last point joins its first.
  [[nodiscard]] bool loop() const { return loop_; }
  // False for terrain (a segment, a chain), which only static and kinematic bodies carry.
  [[nodiscard]] bool hasArea() const { return type_ != Type::Segment && type_ != Type::Chain; }

  // Throws std::invalid_argument naming what is wrong. The factories above call it, so a Shape
  // that exists is valid: a circle of positive radius, a box of positive sides, a convex polygon
  // of finite vertices with an area, centered on its centroid, whose inertia is finite.
  void validate() const;
  // The moment of inertia about the origin for a uniform body of this mass (> 0, finite), kg·m².
  // Throws std::invalid_argument for a bad mass or an inertia a double cannot hold.
  [[nodiscard]] double inertia(double mass) const;

 private:
  static Shape checked(Shape shape);  // validated
  void validatePolygon() const;
  void validateChain() const;
  [[nodiscard]] double unitInertia() const;  // for a mass of 1 kg

  Shape(Type type, double radius, Eigen::Vector2d size, std::vector<Eigen::Vector2d> vertices)
      : type_(type), radius_(radius), size_(size), vertices_(std::move(vertices)) {}

  Type type_;
  double radius_;
  Eigen::Vector2d size_;
  std::vector<Eigen::Vector2d> vertices_;
  bool loop_ = false;
};

}  // namespace tinkertoy
