// FormulaCurve: a wire whose coordinates are formulas of its parameter u (docs/formula.md,
// "Curves"):
//
//   c(u) = (x(u), y(u))   or   (x(u), y(u), z(u)) in 3D
//
// Its tangent c'(u) and curvature c''(u) come from one evaluation of each coordinate with Jets
// (formula/jet.hpp), u moving at rate 1: the gradient is c'(u) and the rate's gradient c''(u).
// A coordinate that does not read u is constant: its c' and c'' are 0. Where a coordinate is not
// defined (sqrt of a negative u) c(u) is not finite, and a bead that reaches it stops the
// simulation with an error naming the bead.
//
//   auto eight = std::make_shared<FormulaCurve>(std::vector<std::string>{"cos(u)", "0.5*sin(2*u)"});
//   auto same = formulaCurve([](auto u) { using std::cos, std::sin; return std::array{cos(u), 0.5 * sin(2.0 * u)}; });
#pragma once

#include <array>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "tinkertoy/curves/curve.hpp"
#include "tinkertoy/formula/formula.hpp"

namespace tinkertoy {

class FormulaCurve final : public Curve {
 public:
  // x, y (and z in 3D) as formulas of u and the parameters. `period` is 0, or P > 0 for a closed
  // curve, c(u + P) = c(u), which a sketch draws whole. Throws FormulaError for a bad formula and
  // std::invalid_argument for other than 2 or 3 coordinates or a bad parameter.
  explicit FormulaCurve(std::vector<std::string> coordinates, FormulaParameters parameters = {}, double period = 0.0);
  // Coordinates already built over the one variable u, such as C++ functions (Formula::function):
  // unless they were read from text the curve cannot be written to a scene. (The period has no
  // default here, so that {"cos(u)", "sin(u)"} is never read as a range of two characters.)
  FormulaCurve(std::vector<Formula> coordinates, double period);
  explicit FormulaCurve(const FormulaCurveSettings& s) : FormulaCurve(s.coordinates, s.parameters, s.period) {}

  [[nodiscard]] std::string_view type() const override { return FormulaCurveSettings::type; }
  // None (std::monostate) for coordinates written in C++.
  [[nodiscard]] CurveSettings settings() const override;
  [[nodiscard]] int dimension() const override { return static_cast<int>(coordinates_.size()); }
  // Throws std::invalid_argument for a period that is negative or not finite, or that the curve
  // does not close after (checked at a few u).
  void validate() const override;
  [[nodiscard]] CurvePoint evaluate(double u) const override;
  [[nodiscard]] std::optional<Domain> domain() const override {
    return period_ > 0.0 ? std::optional<Domain>(Domain{0.0, period_, true}) : std::nullopt;
  }

  [[nodiscard]] const std::vector<Formula>& coordinates() const { return coordinates_; }
  [[nodiscard]] const FormulaParameters& parameters() const { return parameters_; }
  [[nodiscard]] double period() const { return period_; }

 private:
  std::vector<Formula> coordinates_;
  FormulaParameters parameters_;
  double period_;
};

// A curve whose point is `f(u)`, a generic callable of u that returns a std::array of 2 or 3
// numbers of u's type: [](auto u) { return std::array{cos(u), sin(u)}; } (a constant coordinate
// as decltype(u)(0.5)).
template <class F>
std::shared_ptr<FormulaCurve> formulaCurve(F f, double period = 0.0) {
  constexpr std::size_t dimension = std::tuple_size_v<decltype(f(0.0))>;
  static_assert(dimension == 2 || dimension == 3, "a curve's callable returns std::array of 2 or 3 numbers");
  const std::vector<std::string> u = {"u"};
  std::vector<Formula> coordinates;
  for (std::size_t k = 0; k < dimension; ++k) {
    coordinates.push_back(Formula::function([f, k](auto v) { return f(v)[k]; }, u, u));
  }
  return std::make_shared<FormulaCurve>(std::move(coordinates), period);
}

}  // namespace tinkertoy
