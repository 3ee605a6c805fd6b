// Duplicate keys in JSON text. JSON parsers keep one of two equal keys in an object (nlohmann
// keeps the last) without a word, so a scene with "mass" written twice would load with whichever
// came last. The scene loader refuses such text instead, naming both places.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tinkertoy::scene {

struct DuplicateKey {
  std::string path;            // the second occurrence, as the loader names fields: "particles[0].mass"
  std::size_t first = 0;       // byte offsets of the two keys' opening quotes
  std::size_t second = 0;
};

// The first key that repeats within one object of `json`, which must be well-formed JSON (it is
// checked after parsing). Keys compare as the strings they decode to ("a" and "\u0061" are one).
std::optional<DuplicateKey> findDuplicateKey(std::string_view json);

}  // namespace tinkertoy::scene
