#include "json_path.hpp"

#include <cctype>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace tinkertoy::cli {
namespace {

using Step = std::variant<std::string, std::size_t>;  // a key, or an index

// "a.b[2][0].c" as its steps; throws on anything else ("", "a..b", "[x]", "a[", ".a").
std::vector<Step> stepsOf(std::string_view path) {
  const auto malformed = [&](const std::string& why) {
    return std::invalid_argument(std::string(1, '"').append(path).append("\" is not a JSON path such as bodies[2].mass: ").append(why));
  };
  std::vector<Step> steps;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string_view::npos) throw malformed("a '[' is not closed");
      const std::string_view digits = path.substr(i + 1, close - i - 1);
      if (digits.empty() || digits.size() > 9) throw malformed("an index must be a number of 1 to 9 digits");
      for (const char c : digits) {
        if (!std::isdigit(static_cast<unsigned char>(c))) throw malformed("an index must be a number");
      }
      steps.emplace_back(static_cast<std::size_t>(std::stoul(std::string(digits))));
      i = close + 1;
      if (i < path.size() && path[i] != '[' && path[i] != '.') throw malformed("a ']' must be followed by '.' or '['");
    } else {
      if (path[i] == '.') {
        if (steps.empty() || i + 1 == path.size()) throw malformed("a '.' must join two keys");
        ++i;
      }
      const std::size_t end = path.find_first_of(".[]", i);
      const std::string_view key = path.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
      if (key.empty()) throw malformed("a key is empty");
      steps.emplace_back(std::string(key));
      i = end == std::string_view::npos ? path.size() : end;
      if (i < path.size() && path[i] == ']') throw malformed("a ']' without its '['");
    }
  }
  if (steps.empty()) throw malformed("it is empty");
  return steps;
}

}  // namespace

void setAtPath(nlohmann::json& document, std::string_view path, nlohmann::json value) {
  const std::vector<Step> steps = stepsOf(path);
  nlohmann::json* node = &document;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const bool last = k + 1 == steps.size();
    if (const auto* key = std::get_if<std::string>(&steps[k])) {
      if (!node->is_object() || (!last && !node->contains(*key))) {
        throw std::invalid_argument(std::string(path) + ": the scene has no \"" + *key + "\" there");
      }
      node = &(*node)[*key];
    } else {
      const std::size_t index = std::get<std::size_t>(steps[k]);
      if (!node->is_array() || index >= node->size()) {
        throw std::invalid_argument(std::string(path) + ": the scene has no element [" + std::to_string(index) +
                                    "] there");
      }
      node = &(*node)[index];
    }
  }
  *node = std::move(value);
}

}  // namespace tinkertoy::cli
