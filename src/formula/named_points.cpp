#include "tinkertoy/formula/named_points.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace tinkertoy {

std::vector<std::string> namedPointVariables(const NamedPoints& points) {
  std::vector<std::string> names;
  for (const auto& [name, point] : points) {
    for (const char* axis : {"x", "y", "z", "phi"}) names.push_back(std::string(axis) + name);
  }
  names.emplace_back("t");
  return names;
}

void requirePointName(const std::string& name) {
  const bool word = std::all_of(name.begin(), name.end(),
                                [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (name.empty() || name.size() > 32 || std::isdigit(static_cast<unsigned char>(name[0])) || !word) {
    throw std::invalid_argument("point name '" + name +
                                "' is not a name of letters, digits and _ (at most 32, not starting with a digit)");
  }
}

void requireNamedPoints(const NamedPoints& points, std::size_t most) {
  if (points.empty() || points.size() > most) {
    throw std::invalid_argument("a formula names 1 to " + std::to_string(most) + " points");
  }
  for (std::size_t k = 0; k < points.size(); ++k) {
    requirePointName(points[k].first);
    for (std::size_t j = 0; j < k; ++j) {
      if (points[j].first == points[k].first) throw std::invalid_argument("point name '" + points[k].first + "' is given twice");
    }
  }
}

}  // namespace tinkertoy
