#include "tinkertoy/constraints/point_on_plane_constraint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/affine_rows_part.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

PointOnPlaneConstraint::PointOnPlaneConstraint(BodyPoint point, Eigen::VectorXd origin,
                                               Eigen::VectorXd normal)
    : point_(point), origin_(std::move(origin)), normal_(std::move(normal)),
      unitNormal_(padTo3d(normal_).stableNormalized()) {}

void PointOnPlaneConstraint::validate(int dimension) const {
  if (dimension != 3) {
    throw std::invalid_argument("a plane constraint needs a 3D model; in 2D use a line");
  }
  detail::requireDimension(origin_, dimension, "plane point");
  detail::requireDimension(normal_, dimension, "plane normal");
  if (normal_.isZero(0.0)) throw std::invalid_argument("plane normal must be non-zero");
}

void PointOnPlaneConstraint::evaluate(const ConstraintInput& input,
                                      ConstraintOutput& output) const {
  PathSample fixed;
  fixed.position = padTo3d(origin_);
  detail::writeAffineRows({&unitNormal_, 1}, fixed, input, output);
}

}  // namespace tinkertoy
