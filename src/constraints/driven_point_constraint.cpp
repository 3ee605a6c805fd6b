#include "tinkertoy/constraints/driven_point_constraint.hpp"

#include <stdexcept>

#include "constraints/parts/affine_rows_part.hpp"

namespace tinkertoy {

DrivenPointConstraint::DrivenPointConstraint(BodyPoint point, std::shared_ptr<const Path> path)
    : point_(point), path_(std::move(path)) {
  if (!path_) throw std::invalid_argument("a driven point needs a path");
}

void DrivenPointConstraint::validate(int dimension) const {
  path_->validate();
  if (path_->dimension() != dimension) {
    throw std::invalid_argument("path dimension " + std::to_string(path_->dimension()) +
                                " does not match the model dimension " + std::to_string(dimension));
  }
}

// Affine rows with n_i = e_i and p = p(t): C = x − p(t), Ctt = −p̈(t).
void DrivenPointConstraint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  detail::writeAffineRows(detail::coordinateAxes(input.dimension), path_->sample(input.time), input,
                          output);
}

}  // namespace tinkertoy
