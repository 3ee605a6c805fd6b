// Reading a scene file's text, within a size limit. A scene is read whole before it is parsed, so
// a file without end (/dev/zero, /dev/urandom, a runaway pipe) or a huge one would take memory
// without bound: reading stops after kMaxSceneFileBytes and the file is refused
// (docs/scene-format.md, "Limits"). A file that cannot be opened or read is a SceneError too.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace tinkertoy::scene {

// 256 MiB: about 2.4 million particles with a rod each, written compactly.
inline constexpr std::size_t kMaxSceneFileBytes = std::size_t{256} << 20;

std::string readSceneFile(const std::filesystem::path& file, std::size_t limit = kMaxSceneFileBytes);

}  // namespace tinkertoy::scene
