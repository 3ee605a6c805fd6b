// FormulaPotential: a potential energy V written as a formula over named points (docs/formula.md),
// whose force the engine derives by automatic differentiation: on each point the world force
// f_k = −∂V/∂x_k and, on a rigid body's point, the torque −∂V/∂φ_k. The energy diagnostics count
// V. A V that reads the time t changes the energy by ∂V/∂t, which the work ledger books as driven
// work, so E(t) − E(0) − W stays at the integrator's error.
//
//   model.addForce(std::make_unique<FormulaPotential>(FormulaPotentialSettings{
//       .points = {{"p", ball}}, .V = "0.5*k*((xp - 1)^2 + yp^2)", .parameters = {{"k", 20.0}}}));
//
// or the same well written in C++ (formulaPotential below):
//
//   model.addForce(formulaPotential({{"p", ball}}, {"xp", "yp"},
//       [](auto xp, auto yp) { return 10.0 * ((xp - 1) * (xp - 1) + yp * yp); }));
#pragma once

#include <array>
#include <memory>
#include <string>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/forces/force.hpp"
#include "tinkertoy/formula/formula.hpp"
#include "tinkertoy/formula/named_points.hpp"

namespace tinkertoy {

class FormulaPotential final : public Force {
 public:
  // Throws FormulaError for a bad V, std::invalid_argument for bad points.
  explicit FormulaPotential(FormulaPotentialSettings settings);
  // V already built over the points' variables (namedPointVariables(points)), such as a C++
  // function (Formula::function); unless V was read from text it cannot be written to a scene.
  FormulaPotential(NamedPoints points, Formula V);

  [[nodiscard]] std::string_view type() const override { return FormulaPotentialSettings::type; }
  // None (std::monostate) for a V written in C++.
  [[nodiscard]] ForceSettings settings() const override;
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {points_.data(), settings_.points.size()}; }
  [[nodiscard]] bool usesAngle(std::size_t point) const override {
    return formula_.uses(kVariablesPerPoint * point + kAngleVariable);
  }
  void validate(int dimension) const override;
  void accumulate(const Bodies& bodies, const StateView& state, Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] double potentialEnergy(const Bodies& bodies, const StateView& state) const override;
  // ∂V/∂t: the energy a time-dependent V puts in.
  [[nodiscard]] double power(const Bodies& bodies, const StateView& state) const override;
  [[nodiscard]] WorkSource workSource() const override { return WorkSource::Driven; }

  [[nodiscard]] const Formula& formula() const { return formula_; }

 private:
  // The variables' values at `state` into `values`; returns how many there are.
  std::size_t gather(const Bodies& bodies, const StateView& state, std::array<double, kMaxJetVariables>& values) const;
  // V with its gradient at `state` (the rates are irrelevant to a force and left at zero).
  [[nodiscard]] Jet evaluate(const Bodies& bodies, const StateView& state) const;

  FormulaPotentialSettings settings_;
  std::array<BodyPoint, kMaxConstraintPoints> points_{};
  Formula formula_;
};

// A potential whose V is `f`, a generic callable of the variables named `arguments` (in f's order)
// among the points' x<n>, y<n>, z<n>, phi<n> and t. Throws as Formula::function does.
template <class F>
std::unique_ptr<FormulaPotential> formulaPotential(NamedPoints points, const std::vector<std::string>& arguments, F f) {
  Formula V = Formula::function(std::move(f), namedPointVariables(points), arguments);
  return std::make_unique<FormulaPotential>(std::move(points), std::move(V));
}

}  // namespace tinkertoy
