// Formula text → postfix program: a recursive-descent parser of the grammar in
// include/tinkertoy/formula/formula.hpp that emits instructions as it goes, folding every
// subexpression of constants into one Constant.
#include "formula/compile_formula.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include "common/utf8.hpp"


namespace tinkertoy::detail {

namespace {

using Op = Formula::Op;
using Instruction = Formula::Instruction;

struct Function {
  std::string_view name;
  Op op;
  int arguments;
};

constexpr std::array kFunctions = {
    Function{"sqrt", Op::Sqrt, 1},   Function{"exp", Op::Exp, 1},     Function{"log", Op::Log, 1},
    Function{"sin", Op::Sin, 1},     Function{"cos", Op::Cos, 1},     Function{"tan", Op::Tan, 1},
    Function{"asin", Op::Asin, 1},   Function{"acos", Op::Acos, 1},   Function{"atan", Op::Atan, 1},
    Function{"sinh", Op::Sinh, 1},   Function{"cosh", Op::Cosh, 1},   Function{"tanh", Op::Tanh, 1},
    Function{"abs", Op::Abs, 1},     Function{"atan2", Op::Atan2, 2}, Function{"min", Op::Min, 2},
    Function{"max", Op::Max, 2},     Function{"hypot", Op::Hypot, 2},
};

const Function* findFunction(std::string_view name) {
  const auto* f = std::find_if(kFunctions.begin(), kFunctions.end(), [&](const Function& g) { return g.name == name; });
  return f == kFunctions.end() ? nullptr : f;
}

std::string listOf(std::span<const std::string> names) {
  std::string list;
  for (const std::string& name : names) list.append(list.empty() ? "" : ", ").append(name);
  return list.empty() ? "none" : list;
}

class Parser {
 public:
  Parser(std::string_view text, std::span<const std::string> variables, const FormulaParameters& parameters)
      : text_(text), variables_(variables), parameters_(parameters) {}

  std::vector<Instruction> run() {
    skipSpace();
    if (at_ == text_.size()) fail("the formula is empty", at_);
    sum(0);
    skipSpace();
    if (at_ < text_.size()) fail("unexpected " + quoted(at_) + " after a complete formula", at_);
    return std::move(program_);
  }

 private:
  [[noreturn]] void fail(const std::string& reason, std::size_t at) const { throw FormulaError(reason, text_, at + 1); }

  // 'c', the whole character at byte `at`, with the ASCII a formula means where it is one of the
  // signs that look alike (− for -, × and · for *, ÷ for /).
  [[nodiscard]] std::string quoted(std::size_t at) const {
    const std::string c = detail::utf8CharacterAt(text_, at);
    std::string text = "'" + c + "'";
    for (const auto& [sign, ascii] : {std::pair{"−", "-"}, {"–", "-"}, {"×", "*"}, {"·", "*"}, {"÷", "/"}}) {
      if (c == sign) text.append(" (write '").append(ascii).append("')");
    }
    return text;
  }

  void skipSpace() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool accept(char c) {
    skipSpace();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void enter(std::size_t at, int depth) const {
    if (depth > kMaxFormulaDepth) {
      fail("nested deeper than " + std::to_string(kMaxFormulaDepth) + " levels", at);
    }
  }

  // The value of the last instruction, if the subexpression it ends is a constant.
  [[nodiscard]] std::optional<double> lastConstant(std::size_t back = 0) const {
    const Instruction& i = program_[program_.size() - 1 - back];
    if (i.op == Op::Constant) return i.constant;
    return std::nullopt;
  }
  void emitConstant(double value) { program_.push_back({.op = Op::Constant, .constant = value}); }

  // Appends a one-argument op, folding it if its argument is a constant.
  void emitUnary(Op op) {
    if (const auto c = lastConstant()) {
      program_.back().constant = applyUnary(op, *c);
    } else {
      program_.push_back({.op = op});
    }
  }
  // Appends a two-argument op, folding it if both arguments are constants; u^c becomes
  // PowerConstant.
  void emitBinary(Op op) {
    const auto v = lastConstant(), u = program_.size() >= 2 && v ? lastConstant(1) : std::nullopt;
    if (u && v) {
      program_.pop_back();
      program_.back().constant = applyBinary(op, *u, *v);
    } else if (op == Op::Power && v) {
      program_.back() = {.op = Op::PowerConstant, .constant = *v};
    } else {
      program_.push_back({.op = op});
    }
  }
  static double applyUnary(Op op, double u) {
    switch (op) {
      case Op::Negate: return -u;
      case Op::Sqrt: return std::sqrt(u);
      case Op::Exp: return std::exp(u);
      case Op::Log: return std::log(u);
      case Op::Sin: return std::sin(u);
      case Op::Cos: return std::cos(u);
      case Op::Tan: return std::tan(u);
      case Op::Asin: return std::asin(u);
      case Op::Acos: return std::acos(u);
      case Op::Atan: return std::atan(u);
      case Op::Sinh: return std::sinh(u);
      case Op::Cosh: return std::cosh(u);
      case Op::Tanh: return std::tanh(u);
      case Op::Abs: return std::abs(u);
      default: return u;
    }
  }
  static double applyBinary(Op op, double u, double v) {
    switch (op) {
      case Op::Add: return u + v;
      case Op::Subtract: return u - v;
      case Op::Multiply: return u * v;
      case Op::Divide: return u / v;
      case Op::Power: return std::pow(u, v);
      case Op::Atan2: return std::atan2(u, v);
      case Op::Min: return std::min(u, v);
      case Op::Max: return std::max(u, v);
      case Op::Hypot: return std::hypot(u, v);
      default: return u;
    }
  }

  // A level of nesting is a parenthesis, a call's argument, a sign or an exponent; the terms of
  // a sum and the factors of a product are one level.
  void sum(int depth) {
    product(depth);
    for (;;) {
      if (accept('+')) {
        product(depth);
        emitBinary(Op::Add);
      } else if (accept('-')) {
        product(depth);
        emitBinary(Op::Subtract);
      } else {
        return;
      }
    }
  }
  void product(int depth) {
    unary(depth);
    for (;;) {
      if (accept('*')) {
        unary(depth);
        emitBinary(Op::Multiply);
      } else if (accept('/')) {
        unary(depth);
        emitBinary(Op::Divide);
      } else {
        return;
      }
    }
  }
  void unary(int depth) {
    skipSpace();
    const std::size_t sign = at_;
    if (accept('-')) {
      enter(sign, depth + 1);
      unary(depth + 1);
      emitUnary(Op::Negate);
    } else if (accept('+')) {
      enter(sign, depth + 1);
      unary(depth + 1);
    } else {
      power(depth);
    }
  }
  void power(int depth) {
    primary(depth);
    if (accept('^')) {
      enter(at_ - 1, depth + 1);
      unary(depth + 1);
      emitBinary(Op::Power);
    }
  }
  void primary(int depth) {
    skipSpace();
    if (at_ == text_.size()) fail("the formula ends where a number, a name or '(' should be", at_);
    const char c = text_[at_];
    if (c == '(') {
      const std::size_t open = at_++;
      enter(open, depth + 1);
      sum(depth + 1);
      if (!accept(')')) fail("this '(' is not closed", open);
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      number();
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      name(depth);
    } else {
      fail("unexpected " + quoted(at_) + ": expected a number, a name or '('", at_);
    }
  }
  void number() {
    const std::size_t start = at_;
    const auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
      return at_ > from;
    };
    bool ok = digits();
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      ok = digits() && ok;  // "1." and ".5" are not numbers: JSON's forms only
    }
    if (ok && at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      ok = digits();
    }
    if (!ok) fail("malformed number '" + std::string(text_.substr(start, at_ - start)) + "'", start);
    const double value = std::strtod(std::string(text_.substr(start, at_ - start)).c_str(), nullptr);
    if (!std::isfinite(value)) fail("the number is too large for a double", start);
    emitConstant(value);
  }
  void name(int depth) {
    const std::size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    const std::string_view word = text_.substr(start, at_ - start);
    if (accept('(')) {
      call(word, start, depth);
      return;
    }
    const auto variable = std::find(variables_.begin(), variables_.end(), word);
    if (variable != variables_.end()) {
      program_.push_back({.op = Op::Variable, .variable = static_cast<std::uint32_t>(variable - variables_.begin())});
    } else if (const auto parameter = parameters_.find(word); parameter != parameters_.end()) {
      emitConstant(parameter->second);
    } else if (findFunction(word)) {
      fail("the function " + std::string(word) + " needs its arguments in parentheses", start);
    } else {
      std::vector<std::string> parameterNames;
      for (const auto& entry : parameters_) parameterNames.push_back(entry.first);
      fail("unknown name '" + std::string(word) + "': the variables are " + listOf(variables_) +
               "; the parameters " + listOf(parameterNames),
           start);
    }
  }
  void call(std::string_view word, std::size_t start, int depth) {
    const Function* f = findFunction(word);
    if (!f) {
      std::vector<std::string> names;
      for (const Function& g : kFunctions) names.emplace_back(g.name);
      fail("unknown function '" + std::string(word) + "': the functions are " + listOf(names), start);
    }
    enter(start, depth + 1);
    int count = 0;
    if (!accept(')')) {
      do {
        sum(depth + 1);
        ++count;
      } while (accept(','));
      if (!accept(')')) fail("expected ',' or ')' in the call of " + std::string(word), at_);
    }
    if (count != f->arguments) {
      fail(std::string(word) + " takes " + std::to_string(f->arguments) + (f->arguments == 1 ? " argument" : " arguments") +
               ", not " + std::to_string(count),
           start);
    }
    if (f->arguments == 1) {
      emitUnary(f->op);
    } else {
      emitBinary(f->op);
    }
  }

  std::string_view text_;
  std::span<const std::string> variables_;
  const FormulaParameters& parameters_;
  std::size_t at_ = 0;
  std::vector<Instruction> program_;
};

}  // namespace

std::vector<Formula::Instruction> compileFormula(std::string_view text, std::span<const std::string> variables,
                                                 const FormulaParameters& parameters) {
  if (text.size() > kMaxFormulaLength) {
    // The first 40 bytes, not cutting a character in two.
    std::size_t shown = 0;
    while (shown < 40) {
      const std::size_t length = std::max<std::size_t>(1, detail::utf8SequenceLength(text, shown));
      if (shown + length > 40) break;
      shown += length;
    }
    throw FormulaError("longer than " + std::to_string(kMaxFormulaLength) + " characters", text.substr(0, shown),
                       shown + 1);
  }
  return Parser(text, variables, parameters).run();
}

}  // namespace tinkertoy::detail
