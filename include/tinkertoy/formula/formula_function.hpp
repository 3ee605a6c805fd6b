// A formula written in C++: a generic callable, such as
//
//   [](auto xa, auto ya, auto xb, auto yb) { return (xa - xb) * (xa - xb) + (ya - yb) * (ya - yb) - 1.0; }
//
// held behind one interface that calls it with doubles (its value) or with Jets (its value and
// derivatives, formula/jet.hpp). Formula::function (formula.hpp) builds a Formula from one; this
// header is the machinery: how many arguments the callable takes, and the call with n of them.
// A callable reads functions unqualified so that Jets find theirs by argument-dependent lookup:
// `using std::sin; return sin(xa);`, not `std::sin(xa)`.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tinkertoy/formula/jet.hpp"

namespace tinkertoy::detail {

class FormulaFunction {
 public:
  virtual ~FormulaFunction() = default;
  [[nodiscard]] virtual std::size_t arity() const = 0;
  // f(a[0], …, a[arity − 1]).
  [[nodiscard]] virtual double value(const double* arguments) const = 0;
  [[nodiscard]] virtual Jet jet(const Jet* arguments) const = 0;
};

template <std::size_t>
using JetArgument = const Jet&;

template <class F, class Indices>
struct TakesJets;
template <class F, std::size_t... I>
struct TakesJets<F, std::index_sequence<I...>> : std::is_invocable<const F&, JetArgument<I>...> {};

// The number of Jets f can be called with, the fewest first; kMaxJetVariables + 1 if none up to
// kMaxJetVariables fits.
template <class F, std::size_t N = 0>
constexpr std::size_t arityOf() {
  if constexpr (N > static_cast<std::size_t>(kMaxJetVariables)) {
    return N;
  } else if constexpr (TakesJets<F, std::make_index_sequence<N>>::value) {
    return N;
  } else {
    return arityOf<F, N + 1>();
  }
}

template <class F, std::size_t N>
class FormulaFunctionOf final : public FormulaFunction {
 public:
  explicit FormulaFunctionOf(F f) : f_(std::move(f)) {}
  [[nodiscard]] std::size_t arity() const override { return N; }
  [[nodiscard]] double value(const double* arguments) const override {
    return call(arguments, std::make_index_sequence<N>{});
  }
  [[nodiscard]] Jet jet(const Jet* arguments) const override { return call(arguments, std::make_index_sequence<N>{}); }

 private:
  // A callable that returns a constant for Jets (`return 1.0;`) gives a Jet without derivatives.
  template <class Number, std::size_t... I>
  Number call([[maybe_unused]] const Number* arguments, std::index_sequence<I...> /*indices*/) const {
    return Number(f_(arguments[I]...));
  }

  F f_;
};

}  // namespace tinkertoy::detail
