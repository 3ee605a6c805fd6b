// The browser's side of platform.hpp and video_recorder.hpp: the page (web/index.html) opens its
// file picker and downloads what the Studio writes; there is no video recorder.
#include <emscripten.h>

#include <stdexcept>

#include "platform.hpp"
#include "video_recorder.hpp"

// The page's functions, which the Module object of web/index.html carries.
EM_JS(void, pageOpensFilePicker, (), { Module.tinkertoyPickFile(); });
EM_JS(void, pageDownloads, (const char* path), { Module.tinkertoyDownload(UTF8ToString(path)); });

namespace tinkertoy::studio {

namespace platform {

bool hasFilePicker() { return true; }
void pickFile() { pageOpensFilePicker(); }
void deliver(const std::filesystem::path& file) { pageDownloads(std::filesystem::absolute(file).c_str()); }

}  // namespace platform

std::unique_ptr<VideoRecorder> startVideoRecorder(const std::filesystem::path&, int, int, int) {
  throw std::runtime_error(
      "recording a video is not available in the browser: the desktop Studio records one (F9), and "
      "`tinkertoy render` makes one from a scene file");
}

}  // namespace tinkertoy::studio
