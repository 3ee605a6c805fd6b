// A scratch directory of its own for a test: a fresh, uniquely named folder under the system's
// temporary folder (mkdtemp), removed with everything in it when the object goes. Two users or
// two checkouts testing at once never share one.
//
//   ScratchDirectory scratch;
//   saveScene(scene, scratch.path() / "scene.json");
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace tinkertoy::testing_support {

class ScratchDirectory {
 public:
  ScratchDirectory() {
    const std::filesystem::path unique = "tinkertoy-test-XXXXXX";  // mkdtemp fills in the X's
    std::string pattern = (std::filesystem::temp_directory_path() / unique).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch directory from " + pattern);
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace tinkertoy::testing_support
