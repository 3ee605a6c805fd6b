// Running Tinkertoy Studio from a test: under xvfb-run, with a script, in a scratch directory of
// the test process's own, and reading back its screenshots.
#pragma once

#include <cairo.h>

#include <Eigen/Core>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tinkertoy {

namespace fs = std::filesystem;

inline constexpr int kWidth = 1280, kHeight = 800;

struct StudioRun {
  int status = -1;
  std::string errors;  // stderr
};

// A directory of this process's files, removed at exit.
inline const fs::path& scratchDirectory() {
  struct Directory {
    fs::path path = fs::temp_directory_path() / ("tinkertoy-studio-test-" + std::to_string(::getpid()));
    Directory() { fs::create_directories(path); }
    ~Directory() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static const Directory directory;
  return directory.path;
}

inline fs::path scratch(const std::string& name) { return scratchDirectory() / name; }

// Runs the Studio under xvfb-run with `arguments`; its recent-files list goes to a scratch
// config directory. Under the sanitizer build, leak checking is off for this process: Mesa and
// X keep allocations until exit that are not ours to free (the library's own tests keep it on).
inline StudioRun runStudio(const std::string& arguments) {
  const fs::path errors = scratch("stderr.txt");
  const std::string command = "ASAN_OPTIONS=detect_leaks=0 XDG_CONFIG_HOME=" + scratch("config").string() + " " +
                              TINKERTOY_XVFB_RUN +
                              " -a -s '-screen 0 1400x1000x24' " + TINKERTOY_STUDIO + " --size " + std::to_string(kWidth) +
                              "x" + std::to_string(kHeight) + " " + arguments + " 2> " + errors.string();
  const int status = std::system(command.c_str());
  std::ifstream in(errors);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

inline fs::path write(const std::string& name, const std::string& text) {
  const fs::path file = scratch(name);
  std::ofstream(file) << text;
  return file;
}

// The pixel at (x, y) of a screenshot.
inline Eigen::Vector3i pixelAt(const fs::path& png, int x, int y) {
  cairo_surface_t* image = cairo_image_surface_create_from_png(png.c_str());
  Eigen::Vector3i colour(-1, -1, -1);
  if (cairo_surface_status(image) == CAIRO_STATUS_SUCCESS) {
    const unsigned char* pixels = cairo_image_surface_get_data(image);
    const auto p = *reinterpret_cast<const std::uint32_t*>(pixels + y * cairo_image_surface_get_stride(image) + 4 * x);
    colour = Eigen::Vector3i((p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff);
  }
  cairo_surface_destroy(image);
  return colour;
}

}  // namespace tinkertoy
