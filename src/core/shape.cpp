#include "tinkertoy/core/shape.hpp"

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "common/vector_checks.hpp"

namespace tinkertoy {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// Twice the signed area, Σ p_i × p_{i+1}: positive for a counter-clockwise polygon.
double twiceArea(const std::vector<Eigen::Vector2d>& p) {
  double sum = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) sum += cross(p[i], p[(i + 1) % p.size()]);
  return sum;
}

// The moment of inertia of a 1 kg capsule about its center: the rectangle 2r × L and the two
// half discs that cap it, the mass split by area. A half disc of mass m/2 has ½ (m/2) r² about the
// middle of its flat side and its centroid 4r/(3π) beyond it; moved by the parallel-axis theorem
// to the capsule's center, L/2 further, the two halves give m (r²/2 + L²/4 + 4Lr/(3π)).
double capsuleUnitInertia(double length, double radius) {
  const double box = 2.0 * radius * length, caps = std::numbers::pi * radius * radius;
  const double boxMass = box / (box + caps), capsMass = caps / (box + caps);
  return boxMass * (length * length + 4.0 * radius * radius) / 12.0 +
         capsMass * (0.5 * radius * radius + 0.25 * length * length + 4.0 * length * radius / (3.0 * std::numbers::pi));
}

// A uniform wire of 1 kg along the links, about the origin: each link of length L_i and middle
// m_i, its share L_i / ΣL of the mass, adds that share times L_i²/12 + |m_i|² (a rod about its
// middle, moved by the parallel-axis theorem).
double wireUnitInertia(const std::vector<Eigen::Vector2d>& p, bool loop) {
  const std::size_t links = loop ? p.size() : p.size() - 1;
  double length = 0.0, moment = 0.0;
  for (std::size_t i = 0; i < links; ++i) {
    const Eigen::Vector2d& a = p[i];
    const Eigen::Vector2d& b = p[(i + 1) % p.size()];
    const double l = (b - a).norm();
    length += l;
    moment += l * (l * l / 12.0 + (0.5 * (a + b)).squaredNorm());
  }
  return moment / length;
}

}  // namespace

Shape Shape::circle(double radius) { return checked({Type::Circle, radius, Eigen::Vector2d::Zero(), {}}); }

Shape Shape::box(double width, double height) {
  const double x = 0.5 * width, y = 0.5 * height;
  return checked({Type::Box, 0.0, Eigen::Vector2d(width, height),
                  {Eigen::Vector2d(-x, -y), Eigen::Vector2d(x, -y), Eigen::Vector2d(x, y), Eigen::Vector2d(-x, y)}});
}

Shape Shape::polygon(std::vector<Eigen::Vector2d> vertices) {
  if (twiceArea(vertices) < 0.0) std::reverse(vertices.begin(), vertices.end());
  return checked({Type::Polygon, 0.0, Eigen::Vector2d::Zero(), std::move(vertices)});
}

Shape Shape::capsule(double length, double radius) {
  return checked({Type::Capsule, radius, Eigen::Vector2d(length, 0.0), {}});
}

Shape Shape::segment(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return checked({Type::Segment, 0.0, Eigen::Vector2d::Zero(), {a, b}});
}

Shape Shape::chain(std::vector<Eigen::Vector2d> points, bool loop) {
  Shape shape(Type::Chain, 0.0, Eigen::Vector2d::Zero(), std::move(points));
  shape.loop_ = loop;
  return checked(std::move(shape));
}

Shape Shape::checked(Shape shape) {
  shape.validate();
  return shape;
}

void Shape::validate() const {
  switch (type_) {
    case Type::Circle:
      detail::requirePositive(radius_, "circle radius");
      break;
    case Type::Box:
      detail::requirePositive(size_.x(), "box width");
      detail::requirePositive(size_.y(), "box height");
      break;
    case Type::Polygon:
      validatePolygon();
      break;
    case Type::Capsule:
      detail::requirePositive(size_.x(), "capsule length");
      detail::requirePositive(radius_, "capsule radius");
      break;
    case Type::Segment:
    case Type::Chain:
      validateChain();
      break;
  }
  if (!std::isfinite(unitInertia())) {
    throw std::invalid_argument("the " + std::string(name()) + " is too large: its moment of inertia is beyond what a "
                                "double holds; scale the numbers down");
  }
}

void Shape::validatePolygon() const {
  const std::size_t n = vertices_.size();
  if (n < 3) throw std::invalid_argument("a polygon needs at least 3 vertices, got " + std::to_string(n));
  for (const Eigen::Vector2d& p : vertices_) {
    if (!p.allFinite()) throw std::invalid_argument("polygon vertices must be finite");
  }
  const double area2 = twiceArea(vertices_);
  double extent = 0.0;
  for (const Eigen::Vector2d& p : vertices_) extent = std::max(extent, p.norm());
  if (!(area2 > 1e-12 * extent * extent)) throw std::invalid_argument("the polygon has no area");
  // Convex: every turn is to the left, and the turns add up to one revolution (a star such as
  // the pentagram turns left everywhere but twice around, and its edges cross).
  double turning = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d& a = vertices_[i];
    const Eigen::Vector2d& b = vertices_[(i + 1) % n];
    const Eigen::Vector2d& c = vertices_[(i + 2) % n];
    if (cross(b - a, c - b) < -1e-12 * extent * extent) {
      throw std::invalid_argument("the polygon is not convex at vertex " + std::to_string((i + 1) % n));
    }
    turning += std::atan2(cross(b - a, c - b), (b - a).dot(c - b));
  }
  if (turning > 3.0 * std::numbers::pi) {
    throw std::invalid_argument("the polygon is not convex: its edges cross (it winds around " +
                                std::to_string(static_cast<int>(std::lround(turning / (2.0 * std::numbers::pi)))) +
                                " times)");
  }
  // The centroid, c = Σ (p_i + p_{i+1}) c_i / (3 · 2A).
  Eigen::Vector2d centroid = Eigen::Vector2d::Zero();
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d& a = vertices_[i];
    const Eigen::Vector2d& b = vertices_[(i + 1) % n];
    centroid += (a + b) * cross(a, b);
  }
  centroid /= 3.0 * area2;
  if (centroid.norm() > 1e-9 * extent) {
    std::ostringstream where;
    where << "the polygon's centroid is at (" << centroid.x() << ", " << centroid.y()
          << ") in the body frame; give the vertices relative to it (the body's position is its center of mass)";
    throw std::invalid_argument(where.str());
  }
}

void Shape::validateChain() const {
  const std::string what(name());
  const std::size_t n = vertices_.size(), least = loop_ ? 3 : 2;
  if (n < least || n > kMaxChainPoints) {
    throw std::invalid_argument("a " + what + (loop_ ? " that loops" : "") + " has " + std::to_string(least) + " to " +
                                std::to_string(kMaxChainPoints) + " points, not " + std::to_string(n));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!vertices_[i].allFinite()) throw std::invalid_argument(what + " points must be finite");
    const std::size_t next = (i + 1) % n;
    if ((next != 0 || loop_) && vertices_[i] == vertices_[next]) {
      throw std::invalid_argument(what + " points " + std::to_string(i) + " and " + std::to_string(next) +
                                  " are the same: each link needs a length");
    }
  }
}

double Shape::inertia(double mass) const {
  detail::requirePositive(mass, "the mass");
  const double I = unitInertia() * mass;
  if (!std::isfinite(I)) {
    throw std::invalid_argument("the moment of inertia of this " + std::string(name()) + " of mass " +
                                std::to_string(mass) + " kg is beyond what a double holds; scale the numbers down");
  }
  return I;
}

double Shape::unitInertia() const {
  const double mass = 1.0;
  switch (type_) {
    case Type::Circle:
      return 0.5 * mass * radius_ * radius_;
    case Type::Box:
      return mass * size_.squaredNorm() / 12.0;
    case Type::Capsule:
      return capsuleUnitInertia(size_.x(), radius_);
    case Type::Segment:
    case Type::Chain:
      return wireUnitInertia(vertices_, loop_);
    case Type::Polygon:
      break;
  }
  // Sum over the triangles (0, p_i, p_{i+1}) of their second moments about the origin.
  double moment = 0.0;
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    const Eigen::Vector2d& a = vertices_[i];
    const Eigen::Vector2d& b = vertices_[(i + 1) % vertices_.size()];
    moment += cross(a, b) * (a.squaredNorm() + a.dot(b) + b.squaredNorm());
  }
  return mass * moment / (6.0 * twiceArea(vertices_));
}

}  // namespace tinkertoy
