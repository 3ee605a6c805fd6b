// SceneList: the scenes of a directory with their names and descriptions (scene_list.hpp).
#include "scene_list.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

namespace tinkertoy::studio {

std::vector<SceneEntry> listScenes(const std::filesystem::path& directory) {
  std::vector<SceneEntry> scenes;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().extension() != ".json" || !entry.is_regular_file(error)) continue;
    SceneEntry scene{entry.path(), "", ""};
    // Only the two text fields are read: the dialog lists scenes, the loader checks them on open.
    std::ifstream in(entry.path());
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object()) {
      scene.description = "(not a scene: the file is not a JSON object)";
    } else {
      if (const auto name = json.find("name"); name != json.end() && name->is_string()) scene.name = *name;
      if (const auto text = json.find("description"); text != json.end() && text->is_string()) scene.description = *text;
    }
    scenes.push_back(std::move(scene));
  }
  std::sort(scenes.begin(), scenes.end(), [](const SceneEntry& a, const SceneEntry& b) { return a.file < b.file; });
  return scenes;
}

bool isInDirectory(const std::filesystem::path& file, const std::filesystem::path& directory) {
  std::error_code error;
  const std::filesystem::path inside = std::filesystem::weakly_canonical(file, error);
  if (error) return false;
  const std::filesystem::path base = std::filesystem::weakly_canonical(directory, error);
  if (error) return false;
  const auto [end, at] = std::mismatch(base.begin(), base.end(), inside.begin(), inside.end());
  return end == base.end();
}

}  // namespace tinkertoy::studio
