#include "tinkertoy/constraints/fixed_point_constraint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/affine_rows_part.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

FixedPointConstraint::FixedPointConstraint(BodyPoint point, Eigen::VectorXd location)
    : point_(point), location_(std::move(location)) {}

void FixedPointConstraint::validate(int dimension) const {
  detail::requireDimension(location_, dimension, "nail point");
}

// Affine rows with n_i = e_i and a constant p: C = x − p, J = I.
void FixedPointConstraint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  PathSample fixed;
  fixed.position = padTo3d(location_);
  detail::writeAffineRows(detail::coordinateAxes(input.dimension), fixed, input, output);
}

}  // namespace tinkertoy
