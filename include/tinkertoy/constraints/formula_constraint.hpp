// FormulaConstraint: a constraint written as formulas, one per row, whose J, Ċ, J̇ and Ctt the
// engine derives by automatic differentiation (formula/jet.hpp, docs/formula.md). Witkin's notes
// end their constraint section observing that deriving and coding each new constraint's Jacobian
// and its time derivative by hand does not scale; here the user writes C and nothing else.
//
// The variables of point k named n are x<n>, y<n>, z<n> (3D only) and, for a point of a rigid
// body, phi<n>, its frame's angle; t is the time. With s = (x, φ, t) and ṡ = (ẋ, φ̇, 1), one
// evaluation of each row with Jets gives
//
//   C = f(s),   ∂C/∂x_k, ∂C/∂φ_k, ∂C/∂t = ∇f,   Ċ = ∇f · ṡ,
//   J̇_k = Σ_j ∂²f/∂x_k∂s_j ṡ_j,   Ctt = Σ_j ∂²f/∂t∂s_j ṡ_j      (the rate's gradient)
//
// exactly, to round-off. A row's formula must be differentiable where the motion takes it; where
// it is not (sqrt(0), a division by zero), C or its derivatives are not finite: evaluate() then
// throws UndefinedConstraintError and the simulator refuses the step, naming the constraint.
//
//   model.addConstraint(std::make_unique<FormulaConstraint>(FormulaConstraintSettings{
//       .points = {{"a", p1}, {"b", p2}}, .rows = {"(xa - xb)^2 + (ya - yb)^2 - L^2"}, .parameters = {{"L", 1.0}}}));
#pragma once

#include <array>
#include <vector>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/formula/formula.hpp"
#include "tinkertoy/formula/named_points.hpp"

namespace tinkertoy {

class FormulaConstraint final : public Constraint {
 public:
  // Parses the rows; throws FormulaError (naming the row) for a bad formula and
  // std::invalid_argument for a bad point name, no points or no rows.
  explicit FormulaConstraint(FormulaConstraintSettings settings);

  [[nodiscard]] std::string_view type() const override { return FormulaConstraintSettings::type; }
  [[nodiscard]] int rows() const override { return static_cast<int>(formulas_.size()); }
  [[nodiscard]] RowKind rowKind(int /*row*/) const override { return settings_.kind; }
  [[nodiscard]] bool dependsOnTime() const override { return usesTime_; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {points_.data(), settings_.points.size()}; }
  [[nodiscard]] bool usesAngle(std::size_t point) const override { return usesAngle_[point]; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override { return settings_; }


 private:
  // Throws UndefinedConstraintError for f, not finite at these values of its variables, unless
  // the values themselves are not all finite.
  void undefined(const Formula& f, std::span<const double> values, std::span<const double> rates) const;

  FormulaConstraintSettings settings_;
  std::vector<std::string> variables_;
  std::array<BodyPoint, kMaxConstraintPoints> points_{};
  std::vector<Formula> formulas_;
  std::array<bool, kMaxConstraintPoints> usesAngle_{};
  bool usesZ_ = false;
  bool usesTime_ = false;
};

}  // namespace tinkertoy
