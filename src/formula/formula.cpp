#include "tinkertoy/formula/formula.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "common/utf8.hpp"
#include "formula/compile_formula.hpp"

namespace tinkertoy {

namespace {

// The deepest evaluation stack a program of kMaxFormulaDepth levels can need: each level holds at
// most three operands while it evaluates the next (a sum's, a product's and a power's base).
constexpr std::size_t kMaxStack = 3 * kMaxFormulaDepth + 4;

// u^c: a square, the commonest power, as u·u, exact and much cheaper than std::pow (Jet's pow
// does the same).
double powerOf(double u, double c) { return c == 2.0 ? u * u : std::pow(u, c); }
Jet powerOf(const Jet& u, double c) { return pow(u, c); }

// The text, quoted whole and valid UTF-8, with a caret under the character at byte column
// (1-based).
std::string caretLine(std::string_view text, std::size_t column) {
  std::string line = "\n  ";
  line.append(detail::printableUtf8(text)).append("\n  ").append(detail::utf8ColumnOf(text, column - 1), ' ').append("^");
  return line;
}

}  // namespace

FormulaError::FormulaError(const std::string& reason, std::string_view text, std::size_t column)
    : std::invalid_argument(reason + caretLine(text, std::clamp<std::size_t>(column, 1, text.size() + 1))),
      reason_(reason),
      column_(column) {}

Formula::Formula(std::string_view text, std::span<const std::string> variables, const FormulaParameters& parameters)
    : text_(text), slots_(variables.size(), -1) {
  if (variables.size() > static_cast<std::size_t>(kMaxJetVariables)) {
    throw std::invalid_argument("a formula may have at most " + std::to_string(kMaxJetVariables) + " variables");
  }
  for (const auto& [name, value] : parameters) {
    if (!std::isfinite(value)) throw std::invalid_argument("parameter " + name + " must be a finite number");
    if (std::find(variables.begin(), variables.end(), name) != variables.end()) {
      throw std::invalid_argument("parameter " + name + " has the name of a variable");
    }
  }
  program_ = detail::compileFormula(text, variables, parameters);
  std::size_t depth = 0, deepest = 0;
  for (const Instruction& i : program_) {
    if (i.op == Op::Variable && slots_[i.variable] < 0) slots_[i.variable] = used_++;
    switch (i.op) {
      case Op::Constant:
      case Op::Variable: ++depth; break;
      case Op::Add: case Op::Subtract: case Op::Multiply: case Op::Divide: case Op::Power:
      case Op::Atan2: case Op::Min: case Op::Max: case Op::Hypot: --depth; break;
      default: break;  // one argument: the stack keeps its depth
    }
    deepest = std::max(deepest, depth);
  }
  if (deepest > kMaxStack) throw std::logic_error("formula: the parser's depth limit let through a deeper program");
}

Formula::Formula(std::shared_ptr<const detail::FormulaFunction> function, std::span<const std::string> variables,
                 std::span<const std::string> arguments)
    : function_(std::move(function)), slots_(variables.size(), -1) {
  if (arguments.size() != function_->arity()) {
    throw std::invalid_argument("the C++ function takes " + std::to_string(function_->arity()) + " arguments, but " +
                                std::to_string(arguments.size()) + " variables are named for it");
  }
  text_ = "a C++ function of (";
  for (const std::string& name : arguments) {
    const auto at = std::find(variables.begin(), variables.end(), name);
    if (at == variables.end()) throw std::invalid_argument("the C++ function's argument " + name + " is not a variable");
    const auto v = static_cast<std::size_t>(at - variables.begin());
    if (slots_[v] >= 0) throw std::invalid_argument("the C++ function's argument " + name + " is named twice");
    slots_[v] = used_++;
    arguments_.push_back(v);
    text_.append(used_ > 1 ? ", " : "").append(name);
  }
  text_.append(")");
}

// The program run on a stack of Numbers (double or Jet): every op is the function of the same
// name, which for a Jet also carries the derivatives (formula/jet.hpp).
template <class Number>
Number Formula::execute(const Number* inputs) const {
  using std::abs, std::acos, std::asin, std::atan, std::atan2, std::cos, std::cosh, std::exp, std::hypot, std::log,
      std::max, std::min, std::pow, std::sin, std::sinh, std::sqrt, std::tan, std::tanh;
  Number stack[kMaxStack];
  std::size_t top = 0;  // stack[top − 1] is the last result
  for (const Instruction& i : program_) {
    if (i.op == Op::Constant) {
      stack[top++] = Number(i.constant);
      continue;
    }
    if (i.op == Op::Variable) {
      stack[top++] = inputs[i.variable];
      continue;
    }
    Number& u = stack[top - 1];  // a one-argument op's operand, or a two-argument op's second
    switch (i.op) {
      case Op::Negate: u = -u; continue;
      case Op::PowerConstant: u = powerOf(u, i.constant); continue;
      case Op::Sqrt: u = sqrt(u); continue;
      case Op::Exp: u = exp(u); continue;
      case Op::Log: u = log(u); continue;
      case Op::Sin: u = sin(u); continue;
      case Op::Cos: u = cos(u); continue;
      case Op::Tan: u = tan(u); continue;
      case Op::Asin: u = asin(u); continue;
      case Op::Acos: u = acos(u); continue;
      case Op::Atan: u = atan(u); continue;
      case Op::Sinh: u = sinh(u); continue;
      case Op::Cosh: u = cosh(u); continue;
      case Op::Tanh: u = tanh(u); continue;
      case Op::Abs: u = abs(u); continue;
      default: break;
    }
    Number& a = stack[top - 2];
    switch (i.op) {
      case Op::Add: a = a + u; break;
      case Op::Subtract: a = a - u; break;
      case Op::Multiply: a = a * u; break;
      case Op::Divide: a = a / u; break;
      case Op::Power: a = pow(a, u); break;
      case Op::Atan2: a = atan2(a, u); break;
      case Op::Min: a = min(a, u); break;  // at a tie, the first
      case Op::Max: a = max(a, u); break;
      case Op::Hypot: a = hypot(a, u); break;
      default: break;
    }
    --top;
  }
  return stack[0];
}

double Formula::value(std::span<const double> values) const {
  if (!function_) return execute(values.data());
  double arguments[kMaxJetVariables];
  for (std::size_t k = 0; k < arguments_.size(); ++k) arguments[k] = values[arguments_[k]];
  return function_->value(arguments);
}

Jet Formula::jet(std::span<const double> values, std::span<const double> rates) const {
  Jet inputs[kMaxJetVariables];
  if (function_) {  // the arguments in the function's order, which is their slots'
    for (std::size_t k = 0; k < arguments_.size(); ++k) {
      inputs[k] = Jet::variable(values[arguments_[k]], static_cast<int>(k), used_, rates[arguments_[k]]);
    }
    Jet result = function_->jet(inputs);
    result.widen(used_);  // a callable may return a constant where it is evaluated
    return result;
  }
  for (std::size_t v = 0; v < slots_.size(); ++v) {
    if (slots_[v] >= 0) inputs[v] = Jet::variable(values[v], slots_[v], used_, rates[v]);
  }
  Jet result = execute<Jet>(inputs);
  result.widen(used_);  // max(1, xa) is the constant 1 where xa < 1
  return result;
}

std::string undefinedFormulaReason(const Formula& f, std::span<const std::string> variables,
                                  std::span<const double> values, std::span<const double> rates) {
  std::ostringstream state;
  for (std::size_t v = 0; v < values.size(); ++v) {
    if (!f.uses(v)) continue;
    if (!std::isfinite(values[v]) || !std::isfinite(rates[v])) return {};
    state << (state.tellp() > 0 ? ", " : "") << variables[v] << " = " << values[v];
  }
  return "the formula \"" + detail::printableUtf8(f.text()) + "\" or one of its derivatives is not finite at " +
         state.str() +
         ": it is not defined there (a square root or logarithm of a number at or below 0, a division by 0?), or too "
         "large for a double";
}

std::string shiftVariable(std::string_view text, std::string_view variable, double offset) {
  std::ostringstream shifted;
  shifted.precision(17);
  std::size_t at = 0;
  while (at < text.size()) {
    const auto c = static_cast<unsigned char>(text[at]);
    if (!std::isalpha(c) && c != '_') {
      // A number's exponent ("1e3") is not a name: copy a number whole.
      std::size_t end = at + 1;
      if (std::isdigit(c) || c == '.') {
        while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
                                     ((text[end] == '+' || text[end] == '-') && (text[end - 1] == 'e' || text[end - 1] == 'E')))) {
          ++end;
        }
      }
      shifted << text.substr(at, end - at);
      at = end;
      continue;
    }
    std::size_t end = at;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    const std::string_view name = text.substr(at, end - at);
    if (name == variable) {
      shifted << "(" << name << " + " << offset << ")";
    } else {
      shifted << name;
    }
    at = end;
  }
  return shifted.str();
}

}  // namespace tinkertoy
