// makeFromSettings: what makeConstraint, makeForce, makeBody and makeCurve share. Each kind's
// settings struct names the class it builds through a trait, Built<Settings>::Type, which has a
// constructor from those settings; std::monostate (the settings of something defined outside the
// library) builds nothing.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

namespace tinkertoy::detail {

// Throws std::invalid_argument naming `maker` for std::monostate.
template <class Base, template <class> class Built, class Variant>
std::unique_ptr<Base> makeFromSettings(const Variant& settings, const char* maker, const char* what) {
  return std::visit(
      [&](const auto& s) -> std::unique_ptr<Base> {
        using Settings = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<Settings, std::monostate>) {
          throw std::invalid_argument(std::string(maker) + ": no settings (" + what + " defined outside the library)");
        } else {
          return std::make_unique<typename Built<Settings>::Type>(s);
        }
      },
      settings);
}

}  // namespace tinkertoy::detail
