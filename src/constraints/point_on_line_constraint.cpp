#include "tinkertoy/constraints/point_on_line_constraint.hpp"

#include <Eigen/Geometry>

#include "common/vector_checks.hpp"
#include "constraints/parts/affine_rows_part.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

namespace {

// Unit normals of a line with direction u: in 2D the single normal (−u_y, u_x); in 3D two
// unit vectors completing u to an orthonormal basis.
std::array<Eigen::Vector3d, 2> lineNormals(const Eigen::VectorXd& direction) {
  const Eigen::Vector3d u = padTo3d(direction).stableNormalized();
  if (direction.size() == 2) return {Eigen::Vector3d(-u.y(), u.x(), 0.0), Eigen::Vector3d::Zero()};
  const Eigen::Vector3d helper =
      std::abs(u.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d n1 = u.cross(helper).normalized();
  return {n1, u.cross(n1)};
}

}  // namespace

PointOnLineConstraint::PointOnLineConstraint(BodyPoint point, Eigen::VectorXd origin,
                                             Eigen::VectorXd direction)
    : point_(point), origin_(std::move(origin)), direction_(std::move(direction)),
      normals_(lineNormals(direction_)) {}

void PointOnLineConstraint::validate(int dimension) const {
  detail::requireDimension(origin_, dimension, "line point");
  detail::requireDimension(direction_, dimension, "line direction");
  if (direction_.isZero(0.0)) throw std::invalid_argument("line direction must be non-zero");
}

void PointOnLineConstraint::evaluate(const ConstraintInput& input,
                                     ConstraintOutput& output) const {
  PathSample fixed;
  fixed.position = padTo3d(origin_);
  detail::writeAffineRows({normals_.data(), static_cast<std::size_t>(rows())}, fixed, input,
                          output);
}

}  // namespace tinkertoy
