#include "tinkertoy/constraints/fixed_point_constraint.hpp"

#include "common/vector_checks.hpp"
#include "constraints/parts/affine_rows_part.hpp"
#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

FixedPointConstraint::FixedPointConstraint(ParticleId particle, Eigen::VectorXd point)
    : particle_(particle), point_(std::move(point)) {}

void FixedPointConstraint::validate(int dimension) const {
  detail::requireDimension(point_, dimension, "nail point");
}

// Affine rows with n_i = e_i and a constant p: C = x − p, J = I.
void FixedPointConstraint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  PathSample fixed;
  fixed.position = padTo3d(point_);
  detail::writeAffineRows(detail::coordinateAxes(input.dimension), fixed, input, output);
}

}  // namespace tinkertoy
