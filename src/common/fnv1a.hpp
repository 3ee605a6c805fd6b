// FNV-1a, 64 bits: a fast hash in which any change of a byte changes the result. Enough to tell
// a damaged file or another model apart; no defence against someone forging one.
#pragma once

#include <cstdint>
#include <string_view>

namespace tinkertoy::detail {

inline constexpr std::uint64_t kFnv1aStart = 14695981039346656037ull;

// The hash of `bytes` continued from `hash` (kFnv1aStart to begin).
inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnv1aStart) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace tinkertoy::detail
