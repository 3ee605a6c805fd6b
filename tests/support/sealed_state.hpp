// A state file (dynamics/state_archive.hpp) whose items are `items` under the 32-byte header of
// `header`, another state file, with their true length and checksum (FNV-1a 64): a forged or cut
// file that passes every check of the header, so that a test reaches the reader's item checks.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace tinkertoy::testing_support {

inline std::string sealedState(const std::string& header, const std::string& items) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : items) hash = (hash ^ c) * 1099511628211ull;
  std::string file = header.substr(0, 32);
  const std::uint64_t length = items.size();
  std::memcpy(file.data() + 16, &length, 8);
  std::memcpy(file.data() + 24, &hash, 8);
  return file + items;
}

}  // namespace tinkertoy::testing_support
