// RecentFiles: the scenes opened or saved lately, newest first, kept in
// $XDG_CONFIG_HOME/tinkertoy/studio-recent.txt (or ~/.config/...). A scripted run keeps its
// list in memory only, so replays do not depend on (or change) the user's history.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tinkertoy::studio {

class RecentFiles {
 public:
  // persist: read and write the list file.
  explicit RecentFiles(bool persist);
  void add(const std::filesystem::path& file);
  [[nodiscard]] const std::vector<std::filesystem::path>& files() const { return files_; }

 private:
  std::optional<std::filesystem::path> store_;
  std::vector<std::filesystem::path> files_;
};

}  // namespace tinkertoy::studio
