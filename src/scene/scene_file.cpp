#include "scene/scene_file.hpp"

#include "common/bounded_read.hpp"
#include "scene/json_text_check.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::scene {

std::string readSceneFile(const std::filesystem::path& file, std::size_t limit) {
  // Checked as it is read: a file that cannot be a scene (a NUL byte, runaway nesting) is refused
  // at its first bad byte.
  JsonTextCheck check;
  detail::BoundedRead read = detail::readBounded(file, limit, [&check](std::string_view piece) { return check.feed(piece); });
  using Problem = detail::BoundedRead::Problem;
  switch (read.problem) {
    case Problem::None:
      return std::move(read.bytes);
    case Problem::CannotOpen:
      throw SceneError("", "cannot open scene file: " + read.reason, file.string());
    case Problem::CannotRead:
      throw SceneError("", "cannot read scene file: " + read.reason, file.string());
    case Problem::Refused:
      throw SceneError("", read.reason, file.string());
    case Problem::TooLarge:
      break;
  }
  throw SceneError("", "the scene file is larger than the limit of " + std::to_string(limit >> 20) + " MiB; is it a scene?",
                   file.string());
}

}  // namespace tinkertoy::scene
