// Reading a whole file within a size limit: a file without end (/dev/zero, a runaway pipe) or a
// huge one would otherwise take memory without bound. Used for scene files and state files.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace tinkertoy::detail {

struct BoundedRead {
  enum class Problem { None, CannotOpen, CannotRead, TooLarge };
  std::string bytes;
  Problem problem = Problem::None;
  std::string reason;  // the system's words for CannotOpen and CannotRead
};

// The bytes of `file`, or the problem: it cannot be opened or read, or it holds more than
// `limit` bytes (reading stops one byte past the limit).
BoundedRead readBounded(const std::filesystem::path& file, std::size_t limit);

}  // namespace tinkertoy::detail
