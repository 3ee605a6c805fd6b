// WorkSource: where energy that E = T + V does not account for enters or leaves a model. Forces
// and constraint rows name their source; the simulator's work ledger sums the work by source
// (dynamics/work_ledger.hpp says what each one books).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace tinkertoy {

enum class WorkSource { Damping, Drag, Mouse, Motors, Springs, Driven, Impulses, Sleep };
inline constexpr std::size_t kWorkSources = 8;

// "damping", "drag", "mouse", "motors", "springs", "driven", "impulses", "sleep".
constexpr std::string_view workSourceName(WorkSource source) {
  constexpr std::array<std::string_view, kWorkSources> names = {"damping", "drag",     "mouse", "motors",
                                                                "springs", "driven",   "impulses", "sleep"};
  return names[static_cast<std::size_t>(source)];
}

}  // namespace tinkertoy
