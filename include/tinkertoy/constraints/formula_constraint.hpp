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
//
// or, the same rod written once in C++ and differentiated the same way (formulaConstraint below):
//
//   model.addConstraint(formulaConstraint({{"a", p1}, {"b", p2}}, {"xa", "ya", "xb", "yb"},
//       [](auto xa, auto ya, auto xb, auto yb) { return (xa - xb) * (xa - xb) + (ya - yb) * (ya - yb) - 1.0; }));
#pragma once

#include <array>
#include <memory>
#include <optional>
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
  // Rows already built over the points' variables (namedPointVariables(points)), such as C++
  // functions (Formula::function). Such a constraint has no settings unless every row was read
  // from text: it cannot be written to a scene or edited by Model::editConstraint.
  FormulaConstraint(NamedPoints points, std::vector<Formula> rows, RowKind kind = RowKind::Equality);

  [[nodiscard]] std::string_view type() const override { return FormulaConstraintSettings::type; }
  [[nodiscard]] int rows() const override { return static_cast<int>(formulas_.size()); }
  [[nodiscard]] RowKind rowKind(int /*row*/) const override { return kind_; }
  [[nodiscard]] bool dependsOnTime() const override { return usesTime_; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {points_.data(), names_.size()}; }
  [[nodiscard]] bool usesAngle(std::size_t point) const override { return usesAngle_[point]; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override;

  // The name of each point, in order, and the rows' formulas.
  [[nodiscard]] const std::vector<std::string>& pointNames() const { return names_; }
  [[nodiscard]] const std::vector<Formula>& formulas() const { return formulas_; }

 private:
  // What the constructors share, once points_, names_ and formulas_ are set.
  void noteVariablesUsed();

  std::optional<FormulaConstraintSettings> settings_;  // for a constraint read from text
  RowKind kind_;
  std::vector<std::string> names_;
  std::vector<std::string> variables_;
  std::array<BodyPoint, kMaxConstraintPoints> points_{};
  std::vector<Formula> formulas_;
  std::array<bool, kMaxConstraintPoints> usesAngle_{};
  bool usesZ_ = false;
  bool usesTime_ = false;
};

// A one-row formula constraint whose C is `f`, a generic callable of the variables named
// `arguments` (in f's order) among the points' x<n>, y<n>, z<n>, phi<n> and t. Throws as
// Formula::function and the constructor do.
template <class F>
std::unique_ptr<FormulaConstraint> formulaConstraint(NamedPoints points, const std::vector<std::string>& arguments, F f,
                                                     RowKind kind = RowKind::Equality) {
  std::vector<Formula> rows;
  rows.push_back(Formula::function(std::move(f), namedPointVariables(points), arguments));
  return std::make_unique<FormulaConstraint>(std::move(points), std::move(rows), kind);
}

}  // namespace tinkertoy
