// Formula: an expression such as "(xa - xb)^2 + (ya - yb)^2 - L^2", parsed once into a compact
// program and evaluated, with doubles for its value or with Jets (formula/jet.hpp) for its
// gradient, rate and the rate's gradient, by automatic differentiation (docs/formula.md).
//
//   const std::vector<std::string> variables = {"xa", "ya", "xb", "yb"};
//   Formula rod("(xa - xb)^2 + (ya - yb)^2 - L^2", variables, {{"L", 1.0}});
//   double c = rod.value(std::vector<double>{1, 0, 0, 0});     // 0
//   Jet j = rod.jet(values, rates);      // j.gradient[rod.slotOf(0)] = ∂C/∂xa, j.rate = Ċ, …
//
// Grammar (docs/formula.md, "Grammar"):
//
//   sum      := product (("+" | "-") product)*
//   product  := unary (("*" | "/") unary)*
//   unary    := ("-" | "+") unary | power
//   power    := primary ("^" unary)?            right-associative: a^b^c = a^(b^c), -a^2 = -(a^2)
//   primary  := number | name | name "(" sum ("," sum)* ")" | "(" sum ")"
//   number   := digits ("." digits)? (("e" | "E") ("+" | "-")? digits)?
//
// Names are variables (given by whoever parses: the points' coordinates, the time), parameters
// (named constants) and the functions sqrt exp log sin cos tan asin acos atan sinh cosh tanh abs
// (one argument) and atan2 min max hypot (two). Subexpressions of constants alone are folded at
// parse time; a power with a constant exponent is c u^(c−1), exact for integers and any u.
//
// A formula may also be written in C++, as a generic callable of some of the variables
// (Formula::function, formula/formula_function.hpp): the engine calls it with doubles for the
// value and with Jets for the derivatives, and the constraint, potential or curve built on it
// cannot tell the two kinds apart.
//
//   const auto rod = [](auto xa, auto ya, auto xb, auto yb) { return (xa - xb) * (xa - xb) + (ya - yb) * (ya - yb); };
//   Formula same = Formula::function(rod, variables, std::vector<std::string>{"xa", "ya", "xb", "yb"});
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tinkertoy/formula/formula_function.hpp"
#include "tinkertoy/formula/jet.hpp"

namespace tinkertoy {

// Longest formula text, in bytes, and deepest nesting of parentheses, calls and operators.
inline constexpr std::size_t kMaxFormulaLength = 10000;
inline constexpr int kMaxFormulaDepth = 32;

// Named constants of a formula; looked up by string_view.
using FormulaParameters = std::map<std::string, double, std::less<>>;

// What is wrong with a formula's text, and where: what() is the reason, then the formula with a
// caret under the column (1-based, in bytes) where the problem starts.
class FormulaError : public std::invalid_argument {
 public:
  FormulaError(const std::string& reason, std::string_view text, std::size_t column);
  [[nodiscard]] const std::string& reason() const { return reason_; }
  [[nodiscard]] std::size_t column() const { return column_; }

 private:
  std::string reason_;
  std::size_t column_;
};

// `text` with every name `variable` replaced by "(variable + offset)": a time-dependent formula
// written into a scene at time `offset`, which the file's clock starts again from 0. Only whole
// names are replaced (not the t of "tan" or of "xt").
[[nodiscard]] std::string shiftVariable(std::string_view text, std::string_view variable, double offset);

class Formula;

// Why `f` is not finite at `values` moving at `rates` (one per variable of `variables`): "the
// formula "<text>" or one of its derivatives is not finite at xp = 1, yp = 2: it is not defined
// there (...)", naming the variables it reads; empty if one of their values or rates is itself
// not finite, which is then not the formula's doing.
[[nodiscard]] std::string undefinedFormulaReason(const Formula& f, std::span<const std::string> variables,
                                                 std::span<const double> values, std::span<const double> rates);

class Formula {
 public:
  // Parses `text`, whose names may be `variables` (at most kMaxJetVariables; their order is the
  // order of the values given to value() and jet()) and `parameters` (finite numbers). Throws
  // FormulaError for a syntax error, an unknown name, a wrong number of arguments, a formula
  // too long or too deep, and std::invalid_argument for a parameter that is not finite or whose
  // name is also a variable's or a function's.
  Formula(std::string_view text, std::span<const std::string> variables, const FormulaParameters& parameters = {});

  // `f`, a generic callable of the variables named `arguments`, in f's order (each one of
  // `variables`, as above). Throws std::invalid_argument for an argument that is not a variable or
  // is named twice, or for a count of arguments that is not f's.
  template <class F>
  [[nodiscard]] static Formula function(F f, std::span<const std::string> variables,
                                        std::span<const std::string> arguments) {
    constexpr std::size_t arity = detail::arityOf<F>();
    static_assert(arity <= static_cast<std::size_t>(kMaxJetVariables),
                  "a formula's callable takes 0 to kMaxJetVariables numbers (double or Jet), e.g. [](auto x, auto y)");
    return Formula(std::make_shared<detail::FormulaFunctionOf<F, arity>>(std::move(f)), variables, arguments);
  }

  // The text, or for a C++ function "a C++ function of (xa, ya, ...)".
  [[nodiscard]] const std::string& text() const { return text_; }
  // Whether the formula was parsed from text (not a C++ function): only such a one can be
  // written to a scene.
  [[nodiscard]] bool fromText() const { return function_ == nullptr; }
  // Whether the formula reads variable `variable`, and its index in a Jet's gradient (−1 if not).
  [[nodiscard]] bool uses(std::size_t variable) const { return slots_[variable] >= 0; }
  [[nodiscard]] int slotOf(std::size_t variable) const { return slots_[variable]; }
  // The number of variables it was built over (those it may read), and the number it reads: the
  // size of the Jets jet() returns.
  [[nodiscard]] std::size_t variableCount() const { return slots_.size(); }
  [[nodiscard]] int usedCount() const { return used_; }

  // The value at `values` [one per variable].
  [[nodiscard]] double value(std::span<const double> values) const;
  // The value, its gradient over the variables it reads (in slot order), its rate as they move at
  // `rates` [one per variable], and the rate's gradient. Allocates nothing.
  [[nodiscard]] Jet jet(std::span<const double> values, std::span<const double> rates) const;

  enum class Op : std::uint8_t {
    Constant, Variable, Negate, Add, Subtract, Multiply, Divide, PowerConstant, Power,
    Sqrt, Exp, Log, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Abs, Atan2, Min, Max, Hypot,
  };
  struct Instruction {
    Op op;
    std::uint32_t variable = 0;  // Variable: which one
    double constant = 0.0;       // Constant: its value; PowerConstant: the exponent
  };

 private:
  Formula(std::shared_ptr<const detail::FormulaFunction> function, std::span<const std::string> variables,
          std::span<const std::string> arguments);

  template <class Number>
  Number execute(const Number* inputs) const;

  std::string text_;
  std::vector<Instruction> program_;  // postfix, for a formula read from text
  std::shared_ptr<const detail::FormulaFunction> function_;  // or a C++ function
  std::vector<std::size_t> arguments_;  // the C++ function's arguments: their variables' indices
  std::vector<int> slots_;            // per variable: its Jet slot, or −1 if unused
  int used_ = 0;
};

}  // namespace tinkertoy
