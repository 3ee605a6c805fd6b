#include "tinkertoy/solvers/factorization.hpp"

#include <array>
#include <utility>

namespace tinkertoy {

namespace {

constexpr std::array<std::pair<FactorizationKind, std::string_view>, 4> kNames = {{
    {FactorizationKind::Automatic, "auto"},
    {FactorizationKind::Simplicial, "simplicial"},
    {FactorizationKind::Supernodal, "supernodal"},
    {FactorizationKind::Tree, "tree"},
}};

}  // namespace

std::string_view factorizationName(FactorizationKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<FactorizationKind> parseFactorization(std::string_view name) {
  for (const auto& [kind, n] : kNames) {
    if (n == name) return kind;
  }
  return std::nullopt;
}

}  // namespace tinkertoy
