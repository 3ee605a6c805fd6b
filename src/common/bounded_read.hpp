// Reading a whole file within a size limit: a file without end (/dev/zero, a runaway pipe) or a
// huge one would otherwise take memory without bound. Used for scene files and state files.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace tinkertoy::detail {

struct BoundedRead {
  enum class Problem { None, CannotOpen, CannotRead, TooLarge, Refused };
  std::string bytes;
  Problem problem = Problem::None;
  std::string reason;  // the system's words for CannotOpen and CannotRead; the inspector's for Refused
};

// Looks at each piece of a file as it arrives, in order; returns why the file is refused ("" to
// read on), so that a file that cannot be what it should is refused before the rest is read.
using ChunkInspector = std::function<std::string(std::string_view chunk)>;

// The bytes of `file`, or the problem: it cannot be opened or read, it holds more than `limit`
// bytes (reading stops one byte past the limit), or `inspect` refused a piece of it (reading
// stops there).
BoundedRead readBounded(const std::filesystem::path& file, std::size_t limit, const ChunkInspector& inspect = {});

}  // namespace tinkertoy::detail
