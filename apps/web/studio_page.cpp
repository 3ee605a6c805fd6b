// The Studio as a web page (web/index.html): the desktop Studio's code, in a frame the browser
// calls for each picture it shows (emscripten_set_main_loop; not ASYNCIFY, which cannot unwind
// through the engine's try blocks). The canvas follows the size of the page's stage.
//
// The page calls in through three functions:
//   tinkertoy_open(path)   opens a scene file of the page's file system (asks first about
//                          unsaved changes);
//   tinkertoy_gallery()    the shipped scenes as JSON: [{"file", "name", "description"}, …];
//   tinkertoy_scene()      the model as Save writes it, for a link to share ("" if it cannot).
// A scene given as the program's argument (the page's link) opens at the start.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "scene_list.hpp"
#include "studio.hpp"
#include "studio_window.hpp"

namespace {

using tinkertoy::studio::Studio;
using tinkertoy::studio::StudioWindow;

constexpr const char* kStage = "#stage";  // the element whose size the canvas takes
const Eigen::Vector2i kSmallest{400, 300};  // px, as the desktop's --size

struct Page {
  std::optional<StudioWindow> window;
  std::unique_ptr<Studio> studio;
  bool shown = false;  // the first frame is drawn
};
Page* page = nullptr;  // lives as long as the page does

Eigen::Vector2i stageSize() {
  double width = 0.0, height = 0.0;
  emscripten_get_element_css_size(kStage, &width, &height);
  return Eigen::Vector2i(static_cast<int>(std::lround(width)), static_cast<int>(std::lround(height))).cwiseMax(kSmallest);
}

void frame() {
  if (const Eigen::Vector2i size = stageSize(); size != page->window->framebufferSize()) page->window->resize(size);
  try {
    page->window->frame(*page->studio, std::nullopt, nullptr);
  } catch (const std::exception& e) {
    // The browser's console shows it as an error (stderr is only a warning there: the Studio's
    // messages about the user's input go to stderr as well as to its banner).
    emscripten_log(EM_LOG_CONSOLE | EM_LOG_ERROR, "tinkertoy-studio: internal error, please report it: %s", e.what());
  }
  if (!page->shown) {
    page->shown = true;
    EM_ASM({ if (Module.onFirstFrame) Module.onFirstFrame(); });
  }
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void tinkertoy_open(const char* path) { page->studio->offerToOpen(path); }

EMSCRIPTEN_KEEPALIVE const char* tinkertoy_gallery() {
  static std::string text;
  nlohmann::json scenes = nlohmann::json::array();
  for (const tinkertoy::studio::SceneEntry& scene : tinkertoy::studio::listScenes(TINKERTOY_SCENES_DIR)) {
    scenes.push_back({{"file", scene.file.string()}, {"name", scene.name}, {"description", scene.description}});
  }
  text = scenes.dump();
  return text.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* tinkertoy_scene() {
  static std::string text;
  const std::filesystem::path file = "/tmp/tinkertoy-share.json";
  try {
    page->studio->dumpScene(file);
    std::ostringstream contents;
    contents << std::ifstream(file).rdbuf();
    text = contents.str();
  } catch (const std::exception& e) {
    std::cerr << "tinkertoy-studio: cannot write the scene for a link: " << e.what() << '\n';
    text.clear();
  }
  return text.c_str();
}

}  // extern "C"

int main(int argc, char** argv) {
  std::optional<std::filesystem::path> scene;
  if (argc > 1) scene = argv[1];
  std::error_code ignored;
  std::filesystem::current_path("/home/web_user", ignored);  // where Save As and F12 write before the download
  page = new Page;
  const Eigen::Vector2i size = stageSize();
  try {
    page->window.emplace(size, StudioWindow::Options{.resizable = true, .vsync = true});
  } catch (const tinkertoy::studio::NoWindow& e) {
    std::cerr << "tinkertoy-studio: " << e.what() << " (does this browser have WebGL 2?)\n";
    return 1;
  }
  page->studio = std::make_unique<Studio>(scene, size.cast<double>(), false, ".");
  page->window->attach(page->studio.get());
  emscripten_set_main_loop(frame, 0, false);  // main returns; the page keeps the Studio
  return 0;
}
