#include "tinkertoy/collision/convex.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace tinkertoy {

namespace {

// The outward normal of the edge from a to b of a counter-clockwise polygon: the edge direction
// turned clockwise, (d_y, −d_x) / |d|.
Eigen::Vector2d outwardNormal(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d d = b - a;
  return Eigen::Vector2d(d.y(), -d.x()).normalized();
}

}  // namespace

Convex convexCircle(const Eigen::Vector2d& center, double radius) {
  Convex c;
  c.count = 1;
  c.vertices[0] = center;
  c.radius = radius;
  return c;
}

Convex convexCapsule(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double radius) {
  if (a == b) throw std::invalid_argument("a capsule or segment needs two distinct ends");
  Convex c;
  c.count = 2;
  c.vertices[0] = a;
  c.vertices[1] = b;
  c.normals[0] = outwardNormal(a, b);
  c.normals[1] = -c.normals[0];
  c.radius = radius;
  return c;
}

Convex convexPolygon(const Eigen::Vector2d* vertices, int count, double radius) {
  if (count < 3 || count > kMaxConvexVertices) {
    throw std::invalid_argument("a collision polygon has 3 to " + std::to_string(kMaxConvexVertices) +
                                " vertices, not " + std::to_string(count));
  }
  Convex c;
  c.count = count;
  c.radius = radius;
  for (int i = 0; i < count; ++i) c.vertices[i] = vertices[i];
  for (int i = 0; i < count; ++i) c.normals[i] = outwardNormal(c.vertices[i], c.vertices[(i + 1) % count]);
  return c;
}

Convex convexOf(const Shape& shape) {
  switch (shape.type()) {
    case Shape::Type::Circle:
      return convexCircle(Eigen::Vector2d::Zero(), shape.radius());
    case Shape::Type::Box: {
      const Eigen::Vector2d h = 0.5 * shape.size();
      const std::array<Eigen::Vector2d, 4> corners = {Eigen::Vector2d(-h.x(), -h.y()), Eigen::Vector2d(h.x(), -h.y()),
                                                      Eigen::Vector2d(h.x(), h.y()), Eigen::Vector2d(-h.x(), h.y())};
      return convexPolygon(corners.data(), 4);
    }
    case Shape::Type::Capsule:
      return convexCapsule(Eigen::Vector2d(-0.5 * shape.length(), 0.0), Eigen::Vector2d(0.5 * shape.length(), 0.0),
                           shape.radius());
    case Shape::Type::Segment:
      return convexCapsule(shape.vertices()[0], shape.vertices()[1], 0.0);
    case Shape::Type::Chain:
      throw std::invalid_argument("a chain collides as several segments (convexParts)");
    case Shape::Type::Polygon:
      break;
  }
  return convexPolygon(shape.vertices().data(), static_cast<int>(shape.vertices().size()));
}

std::vector<Convex> convexParts(const Shape& shape) {
  if (shape.type() != Shape::Type::Chain) return {convexOf(shape)};
  const std::vector<Eigen::Vector2d>& p = shape.vertices();
  const std::size_t links = shape.loop() ? p.size() : p.size() - 1;
  std::vector<Convex> parts;
  parts.reserve(links);
  for (std::size_t i = 0; i < links; ++i) parts.push_back(convexCapsule(p[i], p[(i + 1) % p.size()], 0.0));
  return parts;
}

Placement Placement::of(double x, double y, double angle) {
  return {.p = Eigen::Vector2d(x, y), .c = std::cos(angle), .s = std::sin(angle)};
}

}  // namespace tinkertoy
