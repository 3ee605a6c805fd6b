#include "scene/scene_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::scene {

std::string readSceneFile(const std::filesystem::path& file, std::size_t limit) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw SceneError("", "cannot open scene file: " + std::string(std::strerror(errno)), file.string());
  std::string text;
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  while (in) {
    const std::size_t size = text.size();
    const std::size_t wanted = std::min(kChunk, limit + 1 - size);  // one byte past the limit tells
    text.resize(size + wanted);
    in.read(text.data() + size, static_cast<std::streamsize>(wanted));
    text.resize(size + static_cast<std::size_t>(in.gcount()));
    if (text.size() > limit) {
      throw SceneError("", "the scene file is larger than the limit of " + std::to_string(limit >> 20) +
                               " MiB; is it a scene?", file.string());
    }
  }
  if (in.bad()) throw SceneError("", "cannot read scene file: " + std::string(std::strerror(errno)), file.string());
  return text;
}

}  // namespace tinkertoy::scene
