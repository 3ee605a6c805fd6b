#include "tinkertoy/dynamics/immovable_constraints.hpp"

#include <algorithm>
#include <cmath>

namespace tinkertoy {

namespace {

// The larger of the two, and NaN once either is: a NaN error is reported, never lost.
void keepWorse(double& worst, double value) {
  if (std::isnan(value) || value > worst) worst = value;
}

}  // namespace

void ImmovableConstraints::build(const Model& model) {
  constraints_.clear();
  int widest = 0;
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const ConstraintId id = model.constraintAt(k);
    const Constraint& constraint = model.constraint(id);
    if (!model.isEnabled(id) || model.movesAny(constraint.points())) continue;
    constraints_.push_back(id);
    widest = std::max(widest, constraint.rows());
  }
  const auto rows = static_cast<std::size_t>(widest);
  C_.assign(rows, 0.0);
  Cdot_.assign(rows, 0.0);
  Ctt_.assign(rows, 0.0);
  gradients_.assign(rows * kMaxConstraintPoints, Eigen::Vector4d::Zero());
  gradientDots_.assign(rows * kMaxConstraintPoints, Eigen::Vector4d::Zero());
  parameters_.assign(rows, RowParameters{});
}

ImmovableConstraints::Violations ImmovableConstraints::measure(const Model& model, const StateView& state) {
  Violations worst;
  for (const ConstraintId id : constraints_) {
    const Constraint& constraint = model.constraint(id);
    const auto points = constraint.points();
    for (std::size_t p = 0; p < points.size(); ++p) {
      model.pointKinematics(points[p], state, kinematics_);
      positions_[p] = kinematics_.position;
      velocities_[p] = kinematics_.velocity;
      angles_[p] = kinematics_.oriented ? kinematics_.angle : 0.0;
      angularVelocities_[p] = kinematics_.oriented ? kinematics_.angularVelocity : 0.0;
    }
    const ConstraintInput input{state.time,
                                model.dimension(),
                                {positions_.data(), points.size()},
                                {velocities_.data(), points.size()},
                                {angles_.data(), points.size()},
                                {angularVelocities_.data(), points.size()}};
    const int rows = constraint.rows();
    ConstraintOutput output(C_.data(), Cdot_.data(), Ctt_.data(), gradients_.data(), gradientDots_.data(),
                            parameters_.data(), rows);
    constraint.evaluate(input, output);
    for (int r = 0; r < rows; ++r) {
      const auto row = static_cast<std::size_t>(r);
      keepWorse(worst.position, rowViolation(constraint.rowKind(r), C_[row]));
      keepWorse(worst.velocity, rowVelocityViolation(constraint.rowKind(r), C_[row], Cdot_[row]));
    }
  }
  return worst;
}

}  // namespace tinkertoy
