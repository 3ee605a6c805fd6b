#include "formula_bench.hpp"

#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/formula_constraint.hpp"
#include "tinkertoy/formula/formula.hpp"

namespace tinkertoy::bench {

namespace {

const std::vector<std::string> kVariables = {"xa", "ya", "xb", "yb"};
constexpr const char* kRod = "sqrt((xa - xb)^2 + (ya - yb)^2) - L";
const std::vector<double> kState = {0.3, -0.2, 1.1, 0.4}, kRates = {1.0, -0.5, 0.25, 2.0};

void formulaValue(benchmark::State& state) {
  const Formula rod(kRod, kVariables, {{"L", 1.0}});
  for (auto _ : state) benchmark::DoNotOptimize(rod.value(kState));
}

void formulaJet(benchmark::State& state) {
  const Formula rod(kRod, kVariables, {{"L", 1.0}});
  for (auto _ : state) benchmark::DoNotOptimize(rod.jet(kState, kRates));
}

// The same rod written in C++ (Formula::function): the same Jets without the interpreter.
void formulaCppJet(benchmark::State& state) {
  const Formula rod = Formula::function(
      [](auto xa, auto ya, auto xb, auto yb) {
        using std::sqrt;
        return sqrt((xa - xb) * (xa - xb) + (ya - yb) * (ya - yb)) - 1.0;
      },
      kVariables, kVariables);
  for (auto _ : state) benchmark::DoNotOptimize(rod.jet(kState, kRates));
}

// J (4 entries), Ċ and J̇ by central differences of the value: 2 evaluations per gradient entry,
// and the gradient again at s ± h ṡ for J̇: 4 × 2 + 2 × 4 × 2 = 24 evaluations.
void formulaFiniteDifferences(benchmark::State& state) {
  const Formula rod(kRod, kVariables, {{"L", 1.0}});
  const double h = 1e-6;
  const auto gradient = [&](std::vector<double> s, std::array<double, 4>& g) {
    for (std::size_t i = 0; i < 4; ++i) {
      const double x = s[i];
      s[i] = x + h;
      const double plus = rod.value(s);
      s[i] = x - h;
      g[i] = (plus - rod.value(s)) / (2 * h);
      s[i] = x;
    }
  };
  std::vector<double> ahead(4), behind(4);
  for (auto _ : state) {
    std::array<double, 4> g{}, gAhead{}, gBehind{};
    gradient(kState, g);
    for (std::size_t i = 0; i < 4; ++i) {
      ahead[i] = kState[i] + h * kRates[i];
      behind[i] = kState[i] - h * kRates[i];
    }
    gradient(ahead, gAhead);
    gradient(behind, gBehind);
    double rate = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
      rate += g[i] * kRates[i];
      g[i] = (gAhead[i] - gBehind[i]) / (2 * h);
    }
    benchmark::DoNotOptimize(rate);
    benchmark::DoNotOptimize(g);
  }
}

// One constraint's evaluate() at a state of two particles: C, Ċ, G and Ġ into scratch.
void evaluateConstraint(benchmark::State& state, const Constraint& c) {
  const std::array<Eigen::Vector3d, 2> x = {Eigen::Vector3d(0.3, -0.2, 0), Eigen::Vector3d(1.1, 0.4, 0)};
  const std::array<Eigen::Vector3d, 2> v = {Eigen::Vector3d(1.0, -0.5, 0), Eigen::Vector3d(0.25, 2.0, 0)};
  const std::array<double, 2> angles{}, rates{};
  const ConstraintInput input{.time = 0.0, .dimension = 2, .positions = x, .velocities = v, .angles = angles,
                              .angularVelocities = rates};
  double C = 0, Cdot = 0, Ctt = 0;
  std::array<Eigen::Vector4d, 2> gradients{}, gradientDots{};
  RowParameters parameters;
  for (auto _ : state) {
    ConstraintOutput output(&C, &Cdot, &Ctt, gradients.data(), gradientDots.data(), &parameters, 1);
    c.evaluate(input, output);
    benchmark::DoNotOptimize(C);
    benchmark::DoNotOptimize(gradientDots);
  }
}

}  // namespace

void registerFormulas() {
  static const FormulaConstraint formula(FormulaConstraintSettings{
      .points = {{"a", BodyPoint{}}, {"b", BodyPoint{}}}, .rows = {kRod}, .parameters = {{"L", 1.0}}});
  static const DistanceConstraint handWritten(DistanceConstraintSettings{.a = BodyPoint{}, .b = BodyPoint{}, .length = 1.0});
  benchmark::RegisterBenchmark("formula/rod/value", formulaValue);
  benchmark::RegisterBenchmark("formula/rod/value_and_derivatives", formulaJet);
  benchmark::RegisterBenchmark("formula/rod/value_and_derivatives_cpp", formulaCppJet);
  benchmark::RegisterBenchmark("formula/rod/finite_differences", formulaFiniteDifferences);
  benchmark::RegisterBenchmark("formula/rod/evaluate_formula_constraint",
                               [](benchmark::State& s) { evaluateConstraint(s, formula); });
  benchmark::RegisterBenchmark("formula/rod/evaluate_distance_constraint",
                               [](benchmark::State& s) { evaluateConstraint(s, handWritten); });
}

}  // namespace tinkertoy::bench
