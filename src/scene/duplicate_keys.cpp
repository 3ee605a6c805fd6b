// Duplicate keys in JSON text (duplicate_keys.hpp).
//
// One pass over the text, which has parsed already: strings are skipped whole (escapes too),
// '{' and '[' open a container, '}' and ']' close one, ',' moves an array to its next element,
// and a string followed by ':' is a key of the innermost object. Each object keeps the keys it
// has seen with their offsets. A container records only its own step from its parent (".key" or
// "[i]"); the path is joined from the open containers' steps when a duplicate is found, so the
// pass stays linear in the text however deep it nests.
#include "duplicate_keys.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace tinkertoy::scene {

namespace {

struct Container {
  bool object = false;
  std::string step;                         // from its parent: ".key" under an object, "[i]" under an array
  std::map<std::string, std::size_t> keys;  // an object's keys so far, with their offsets
  std::size_t index = 0;                    // an array's current element
  std::string lastKey;                      // an object's current member
};

// The step from the innermost container to the value it is at now: ".key" or "[i]".
std::string childStep(const Container& c) {
  std::string step(1, c.object ? '.' : '[');  // built in steps: GCC 12 warns falsely on "." + key
  step += c.object ? c.lastKey : std::to_string(c.index);
  if (!c.object) step += ']';
  return step;
}

// The path of the value the innermost container is at now: its ancestors' steps, then its own,
// without the root's leading '.'.
std::string pathOf(const std::vector<Container>& open) {
  std::string path;
  for (std::size_t k = 1; k < open.size(); ++k) path += open[k].step;
  path += childStep(open.back());
  return path.starts_with('.') ? path.substr(1) : path;
}

}  // namespace

std::optional<DuplicateKey> findDuplicateKey(std::string_view json) {
  std::vector<Container> open;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') {
      const std::size_t start = i;
      for (++i; i < json.size() && json[i] != '"'; ++i) {
        if (json[i] == '\\') ++i;
      }
      std::size_t next = i + 1;
      while (next < json.size() && (json[next] == ' ' || json[next] == '\t' || json[next] == '\n' || json[next] == '\r')) ++next;
      if (open.empty() || !open.back().object || next >= json.size() || json[next] != ':') continue;
      // A key without escapes is its own text; one with them is decoded.
      const std::string_view literal = json.substr(start, i + 1 - start);
      const std::string key = literal.find('\\') == std::string_view::npos
                                  ? std::string(literal.substr(1, literal.size() - 2))
                                  : nlohmann::json::parse(literal).get<std::string>();
      Container& object = open.back();
      object.lastKey = key;
      if (const auto [seen, fresh] = object.keys.emplace(key, start); !fresh) {
        return DuplicateKey{pathOf(open), seen->second, start};
      }
    } else if (c == '{' || c == '[') {
      std::string step = open.empty() ? std::string() : childStep(open.back());
      open.push_back({c == '{', std::move(step), {}, 0, {}});
    } else if (c == '}' || c == ']') {
      if (!open.empty()) open.pop_back();
    } else if (c == ',' && !open.empty() && !open.back().object) {
      ++open.back().index;
    }
  }
  return std::nullopt;
}

}  // namespace tinkertoy::scene
