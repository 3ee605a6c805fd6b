#include "common/bounded_read.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace tinkertoy::detail {

BoundedRead readBounded(const std::filesystem::path& file, std::size_t limit, const ChunkInspector& inspect) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {"", BoundedRead::Problem::CannotOpen, std::strerror(errno)};
  BoundedRead read;
  std::string& bytes = read.bytes;
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  while (in) {
    const std::size_t size = bytes.size();
    const std::size_t wanted = std::min(kChunk, limit + 1 - size);  // one byte past the limit tells
    bytes.resize(size + wanted);
    in.read(bytes.data() + size, static_cast<std::streamsize>(wanted));
    bytes.resize(size + static_cast<std::size_t>(in.gcount()));
    if (inspect) {
      if (std::string refusal = inspect(std::string_view(bytes).substr(size)); !refusal.empty()) {
        return {"", BoundedRead::Problem::Refused, std::move(refusal)};
      }
    }
    if (bytes.size() > limit) return {"", BoundedRead::Problem::TooLarge, ""};
  }
  if (in.bad()) return {"", BoundedRead::Problem::CannotRead, std::strerror(errno)};
  return read;
}

}  // namespace tinkertoy::detail
