// SceneList: the scenes the Open dialog offers — every *.json file in a directory, in name order,
// each with the name and the description its file gives (docs/scene-format.md, "Top level"), so
// the dialog can say what a scene shows before it is opened.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tinkertoy::studio {

struct SceneEntry {
  std::filesystem::path file;
  std::string name;         // the scene's "name", or empty
  std::string description;  // its "description"; for a file that is not a readable scene, why
};

// The scenes in `directory` (not its subdirectories); none if it cannot be read.
std::vector<SceneEntry> listScenes(const std::filesystem::path& directory);

// Whether `file` lies in `directory` or below it, however either is spelled (relative, with
// "..", through a symbolic link).
bool isInDirectory(const std::filesystem::path& file, const std::filesystem::path& directory);

}  // namespace tinkertoy::studio
