// The Studio's building tools and the names scripts call them by.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace tinkertoy::studio {

enum class Tool { Drag, Particle, Rod, Spring, Nail, Wire, Delete };

// "drag", "particle", "rod", "spring", "nail", "wire", "delete".
inline std::optional<Tool> toolNamed(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, Tool>, 7> kNames{
      {{"drag", Tool::Drag}, {"particle", Tool::Particle}, {"rod", Tool::Rod}, {"spring", Tool::Spring},
       {"nail", Tool::Nail}, {"wire", Tool::Wire}, {"delete", Tool::Delete}}};
  for (const auto& [n, tool] : kNames) {
    if (n == name) return tool;
  }
  return std::nullopt;
}

}  // namespace tinkertoy::studio
