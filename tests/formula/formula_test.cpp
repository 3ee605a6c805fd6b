// Formula and Jet (include/tinkertoy/formula/): every function of the grammar and the chain rule
// through nesting against finite differences at random points (the gradient against differences
// of the value, the rate's gradient against differences of the gradient along the motion), the
// same derivatives from a C++ callable, constant folding, exact integer powers, the kink of abs,
// and every way a formula's text can be wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tinkertoy/formula/formula.hpp"

namespace tinkertoy {
namespace {

const std::vector<std::string> kUV = {"u", "v"};

struct Point {
  std::vector<double> s, w;  // the variables, and the direction they move in
};

// Checks f's Jet at p: ∇f against central differences of f, ḟ = ∇f·w, and ∇ḟ = H w against
// central differences of ∇f along w. h is relative to the point's size.
void expectDerivatives(const Formula& f, const Point& p, const std::string& label) {
  const std::size_t n = p.s.size();
  const Jet j = f.jet(p.s, p.w);
  EXPECT_DOUBLE_EQ(j.value, f.value(p.s)) << label;
  const double h = 1e-6;
  double rate = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = f.uses(i) ? j.gradient[static_cast<std::size_t>(f.slotOf(i))] : 0.0;
    std::vector<double> plus = p.s, minus = p.s;
    plus[i] += h;
    minus[i] -= h;
    const double difference = (f.value(plus) - f.value(minus)) / (2 * h);
    EXPECT_NEAR(g, difference, 1e-6 * (1 + std::abs(difference))) << label << ": ∂/∂" << kUV[i % 2] << i;
    rate += g * p.w[i];
  }
  EXPECT_NEAR(j.rate, rate, 1e-12 * (1 + std::abs(rate))) << label;
  std::vector<double> ahead = p.s, behind = p.s;
  for (std::size_t i = 0; i < n; ++i) {
    ahead[i] += h * p.w[i];
    behind[i] -= h * p.w[i];
  }
  const Jet a = f.jet(ahead, p.w), b = f.jet(behind, p.w);
  for (int k = 0; k < f.usedCount(); ++k) {
    const auto slot = static_cast<std::size_t>(k);
    const double difference = (a.gradient[slot] - b.gradient[slot]) / (2 * h);
    EXPECT_NEAR(j.rateGradient[slot], difference, 1e-5 * (1 + std::abs(difference))) << label << ": slot " << k;
  }
}

struct Case {
  const char* formula;
  double lo, hi;  // where u and v are drawn from
};

class FunctionDerivatives : public ::testing::TestWithParam<Case> {};

TEST_P(FunctionDerivatives, MatchFiniteDifferencesAtRandomPoints) {
  const Case& c = GetParam();
  const Formula f(c.formula, kUV);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> inside(c.lo, c.hi), speed(-2.0, 2.0);
  for (int trial = 0; trial < 25; ++trial) {
    expectDerivatives(f, {{inside(rng), inside(rng)}, {speed(rng), speed(rng)}},
                      std::string(c.formula) + ", trial " + std::to_string(trial));
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryFunction, FunctionDerivatives,
    ::testing::Values(Case{"u + v", -3, 3}, Case{"u - v", -3, 3}, Case{"u * v", -3, 3}, Case{"u / v", 0.5, 3},
                      Case{"-u * v", -3, 3}, Case{"u^3", -3, 3}, Case{"u^2.5", 0.2, 3}, Case{"u^v", 0.2, 3},
                      Case{"u^-2", 0.3, 3}, Case{"sqrt(u * v)", 0.1, 3}, Case{"exp(u - v)", -2, 2},
                      Case{"log(u * v)", 0.1, 3}, Case{"sin(u * v)", -3, 3}, Case{"cos(u * v)", -3, 3},
                      Case{"tan(u - v)", -0.6, 0.6}, Case{"asin(u * v)", -0.9, 0.9}, Case{"acos(u * v)", -0.9, 0.9},
                      Case{"atan(u * v)", -3, 3}, Case{"sinh(u - v)", -2, 2}, Case{"cosh(u - v)", -2, 2},
                      Case{"tanh(u * v)", -2, 2}, Case{"abs(u - 2 * v)", 0.1, 3}, Case{"atan2(u, v)", -3, 3},
                      Case{"min(u^2, v)", -2, 2}, Case{"max(u^2, v)", -2, 2}, Case{"hypot(u, v)", -3, 3},
                      Case{"2 / u + 3 - v", 0.2, 3},
                      // the chain rule through nesting
                      Case{"sin(exp(u) * v) / hypot(u, v^3) + atan2(u * v, 1 + u^2)^2", 0.2, 1.5},
                      Case{"sqrt(1 + (u - v)^2) * cosh(tanh(u) * v) - log(2 + sin(u * v))", -2, 2}),
    [](const ::testing::TestParamInfo<Case>& p) { return "case" + std::to_string(p.index); });

// Time and four points: a driven distance's C(x, t), its ∂C/∂t in the gradient and its
// ∂²C/∂t² in the rate's gradient, the time moving at ṫ = 1.
TEST(Formula, TimeDependentTermsMatchFiniteDifferences) {
  const std::vector<std::string> names = {"xa", "ya", "xb", "yb", "t"};
  const Formula f("(xa - xb)^2 + (ya - yb)^2 - (1 + 0.3 * sin(2 * t))^2", names);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> x(-2, 2);
  for (int trial = 0; trial < 20; ++trial) {
    expectDerivatives(f, {{x(rng), x(rng), x(rng), x(rng), x(rng)}, {x(rng), x(rng), x(rng), x(rng), 1.0}},
                      "trial " + std::to_string(trial));
  }
  EXPECT_FALSE(Formula("xa + ya", names).uses(4));
  EXPECT_TRUE(f.uses(4));
}

// A C++ callable written once for doubles and Jets gives the formula's numbers.
TEST(Jet, AGenericCallableGivesTheFormulasDerivatives) {
  const auto C = [](auto u, auto v) {
    using std::exp, std::hypot, std::sin;
    return sin(exp(u) * v) / hypot(u, v * v * v) + 2.0 * u - 1.0;
  };
  const Formula f("sin(exp(u) * v) / hypot(u, v^3) + 2 * u - 1", kUV);
  const std::vector<double> s = {0.7, -1.3}, w = {0.4, 2.1};
  const Jet byFormula = f.jet(s, w);
  const Jet byCallable = C(Jet::variable(s[0], 0, 2, w[0]), Jet::variable(s[1], 1, 2, w[1]));
  EXPECT_NEAR(byCallable.value, byFormula.value, 1e-15);
  EXPECT_DOUBLE_EQ(C(s[0], s[1]), byCallable.value);
  EXPECT_NEAR(byCallable.rate, byFormula.rate, 1e-14);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_NEAR(byCallable.gradient[k], byFormula.gradient[k], 1e-14);
    EXPECT_NEAR(byCallable.rateGradient[k], byFormula.rateGradient[k], 1e-13);
  }
}

// The same callable held as a Formula (Formula::function): its arguments may be any of the
// variables in any order, and it gives the text formula's value and Jet, slot for slot.
TEST(Formula, AFormulaWrittenInCppIsTheTextFormula) {
  const std::vector<std::string> names = {"a", "u", "b", "v", "t"};
  const Formula text("sin(exp(u) * v) / hypot(u, v^3) + 2 * u - t", names);
  const Formula function = Formula::function(
      [](auto v, auto t, auto u) {
        using std::exp, std::hypot, std::sin;
        return sin(exp(u) * v) / hypot(u, v * v * v) + 2.0 * u - t;
      },
      names, std::vector<std::string>{"v", "t", "u"});
  EXPECT_FALSE(function.fromText());
  EXPECT_TRUE(text.fromText());
  EXPECT_EQ(function.text(), "a C++ function of (v, t, u)");
  EXPECT_EQ(function.usedCount(), 3);
  EXPECT_FALSE(function.uses(0));
  EXPECT_FALSE(function.uses(2));
  const std::vector<double> s = {9.0, 0.7, 9.0, -1.3, 0.25}, w = {5.0, 0.4, 5.0, 2.1, 1.0};
  EXPECT_DOUBLE_EQ(function.value(s), text.value(s));
  const Jet a = function.jet(s, w), b = text.jet(s, w);
  EXPECT_DOUBLE_EQ(a.value, b.value);
  EXPECT_NEAR(a.rate, b.rate, 1e-14);
  for (const std::size_t v : {1u, 3u, 4u}) {
    const auto i = static_cast<std::size_t>(function.slotOf(v)), j = static_cast<std::size_t>(text.slotOf(v));
    EXPECT_NEAR(a.gradient[i], b.gradient[j], 1e-14) << names[v];
    EXPECT_NEAR(a.rateGradient[i], b.rateGradient[j], 1e-13) << names[v];
  }
  // A callable that returns a constant has no derivatives.
  const Formula constant = Formula::function([](auto /*u*/) { return 2.5; }, names, std::vector<std::string>{"u"});
  const Jet c = constant.jet(s, w);
  EXPECT_EQ(c.value, 2.5);
  EXPECT_EQ(c.gradient[0], 0.0);
  EXPECT_EQ(c.rate, 0.0);
}

TEST(Formula, ACppFunctionsArgumentsMustBeItsVariables) {
  const auto two = [](auto u, auto v) { return u * v; };
  const auto refused = [&](std::vector<std::string> arguments, const std::string& reason) {
    try {
      (void)Formula::function(two, kUV, arguments);
      ADD_FAILURE() << "accepted: " << reason;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  refused({"u", "w"}, "argument w is not a variable");
  refused({"u", "u"}, "argument u is named twice");
  refused({"u"}, "takes 2 arguments, but 1 variables are named");
}

TEST(Formula, FoldsConstantsAndKeepsIntegerPowersExact) {
  const FormulaParameters parameters = {{"L", 1.5}};
  const Formula folded("2^3 * L - cos(0)", kUV, parameters);
  EXPECT_EQ(folded.usedCount(), 0);
  EXPECT_EQ(folded.value(std::vector<double>{0, 0}), 11.0);
  const Formula cube("u^3", kUV);
  const Jet j = cube.jet(std::vector<double>{-2.0, 0.0}, std::vector<double>{1.0, 0.0});
  EXPECT_EQ(j.value, -8.0);
  EXPECT_EQ(j.gradient[0], 12.0);
  EXPECT_EQ(j.rateGradient[0], -12.0);  // 6u u̇
  EXPECT_EQ(Formula("-u^2", kUV).value(std::vector<double>{3, 0}), -9.0);  // −(u²)
  EXPECT_EQ(Formula("2^3^2", kUV).value(std::vector<double>{0, 0}), 512.0);  // 2^(3^2)
  EXPECT_EQ(Formula("1.5e2 + 2E-1 + 0.25", kUV).value(std::vector<double>{0, 0}), 150.45);
}

// A time-dependent formula written at time T: every whole name t becomes (t + T), nothing else.
TEST(Formula, ShiftsTheTimeOfWholeNamesOnly) {
  const std::string text = "t + tan(t) * xt - 1e-3*t^2 + 2E+1";
  const std::string shifted = shiftVariable(text, "t", 0.5);
  EXPECT_EQ(shifted, "(t + 0.5) + tan((t + 0.5)) * xt - 1e-3*(t + 0.5)^2 + 2E+1");
  const std::vector<std::string> names = {"xt", "t"};
  EXPECT_DOUBLE_EQ(Formula(shifted, names).value(std::vector<double>{0.3, 1.25}),
                   Formula(text, names).value(std::vector<double>{0.3, 1.75}));
}

// abs has a kink at 0: its derivative there is taken as 0, the mean of −1 and 1
// (docs/formula.md). min and max take the first argument's derivatives at a tie.
TEST(Formula, TheKinksHaveTheirDocumentedDerivatives) {
  const Jet a = Formula("abs(u)", kUV).jet(std::vector<double>{0, 0}, std::vector<double>{1, 0});
  EXPECT_EQ(a.value, 0.0);
  EXPECT_EQ(a.gradient[0], 0.0);
  const Formula m("min(u, v)", kUV);
  const Jet tie = m.jet(std::vector<double>{1, 1}, std::vector<double>{0, 0});
  EXPECT_EQ(tie.gradient[static_cast<std::size_t>(m.slotOf(0))], 1.0);
  EXPECT_EQ(tie.gradient[static_cast<std::size_t>(m.slotOf(1))], 0.0);
}

// Every bad text: the reason, and the column of the caret (1-based).
TEST(Formula, BadTextIsAFormulaErrorWithAColumnAndACaret) {
  const FormulaParameters L = {{"L", 1.0}};
  const struct {
    std::string text;
    std::string reason;
    std::size_t column;
  } bad[] = {
      {"", "the formula is empty", 1},
      {"   ", "the formula is empty", 4},
      {"u + w", "unknown name 'w': the variables are u, v; the parameters L", 5},
      {"foo(u)", "unknown function 'foo': the functions are sqrt, exp, log", 1},
      {"atan2(u)", "atan2 takes 2 arguments, not 1", 1},
      {"sin(u, v)", "sin takes 1 argument, not 2", 1},
      {"sin u", "the function sin needs its arguments in parentheses", 1},
      {"(u + v", "this '(' is not closed", 1},
      {"u + v)", "unexpected ')' after a complete formula", 6},
      {"u +", "the formula ends where a number, a name or '(' should be", 4},
      {"u * # v", "unexpected '#': expected a number, a name or '('", 5},
      {"1e + u", "malformed number '1e'", 1},
      {".5 * u", "malformed number '.5'", 1},
      {"u * 2.", "malformed number '2.'", 5},
      {"1e999 * u", "the number is too large for a double", 1},
      {"min(u v)", "expected ',' or ')' in the call of min", 7},
      {std::string(40, '(') + "u" + std::string(40, ')'), "nested deeper than 32 levels", 33},
      {std::string(40, '-') + "u", "nested deeper than 32 levels", 33},
  };
  for (const auto& b : bad) {
    try {
      const Formula f(b.text, kUV, L);
      ADD_FAILURE() << "accepted: " << b.text;
    } catch (const FormulaError& e) {
      EXPECT_EQ(e.reason().substr(0, b.reason.size()), b.reason) << b.text;
      EXPECT_EQ(e.column(), b.column) << b.text << ": " << e.reason();
      const std::string what = e.what();
      EXPECT_NE(what.find("\n  " + b.text + "\n  " + std::string(b.column - 1, ' ') + "^"), std::string::npos) << what;
    }
  }
  // 32 levels are allowed, also where the levels hold operands on the evaluation stack.
  EXPECT_EQ(Formula(std::string(32, '(') + "u" + std::string(32, ')'), kUV).value(std::vector<double>{2, 0}), 2.0);
  EXPECT_EQ(Formula(std::string(32, '-') + "u", kUV).value(std::vector<double>{2, 0}), 2.0);
  std::string held = "u";
  for (int level = 0; level < 16; ++level) held = "u + v * u^(" + held + ")";  // two levels each
  const Formula deep(held, kUV);
  EXPECT_TRUE(std::isfinite(deep.jet(std::vector<double>{1.0, 0.5}, std::vector<double>{1, 1}).rateGradient[0]));
  EXPECT_THROW(Formula(std::string(kMaxFormulaLength + 1, 'u'), kUV), FormulaError);
  EXPECT_THROW(Formula("u", kUV, {{"L", std::nan("")}}), std::invalid_argument);
  EXPECT_THROW(Formula("u", kUV, {{"v", 1.0}}), std::invalid_argument);
  EXPECT_THROW(Formula("u", std::vector<std::string>(18, "x")), std::invalid_argument);
}

}  // namespace
}  // namespace tinkertoy
