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
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

#include "support/scratch_directory.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {

namespace fs = std::filesystem;

inline constexpr int kWidth = 1280, kHeight = 800;

struct StudioRun {
  int status = -1;
  std::string errors;  // stderr
};

// A directory of this process's files (unique: mkdtemp), removed at exit.
inline const fs::path& scratchDirectory() {
  static const testing_support::ScratchDirectory directory;
  return directory.path();
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

// A screenshot read back: its size and its pixels (none if it could not be read).
class Screenshot {
 public:
  explicit Screenshot(const fs::path& png) {
    cairo_surface_t* image = cairo_image_surface_create_from_png(png.c_str());
    if (cairo_surface_status(image) == CAIRO_STATUS_SUCCESS) {
      width = cairo_image_surface_get_width(image);
      height = cairo_image_surface_get_height(image);
      const unsigned char* data = cairo_image_surface_get_data(image);
      const int stride = cairo_image_surface_get_stride(image);
      for (int y = 0; y < height; ++y) {
        const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
        pixels_.insert(pixels_.end(), row, row + width);
      }
    }
    cairo_surface_destroy(image);
  }
  int width = 0, height = 0;  // px; 0 when the file could not be read

  // The colour at (x, y) as RGB, each 0 … 255.
  [[nodiscard]] Eigen::Vector3i at(int x, int y) const {
    const std::uint32_t p = pixels_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
    return {static_cast<int>((p >> 16) & 0xff), static_cast<int>((p >> 8) & 0xff), static_cast<int>(p & 0xff)};
  }
  // How many pixels of the rectangle [x0, x1) × [y0, y1) (the whole picture by default) have a
  // colour for which `match` (an RGB) is true.
  template <class Match>
  [[nodiscard]] int count(Match match, int x0 = 0, int y0 = 0, int x1 = -1, int y1 = -1) const {
    int n = 0;
    for (int y = y0; y < (y1 < 0 ? height : y1); ++y) {
      for (int x = x0; x < (x1 < 0 ? width : x1); ++x) n += match(at(x, y)) ? 1 : 0;
    }
    return n;
  }

 private:
  std::vector<std::uint32_t> pixels_;
};

// The pixel at (x, y) of a screenshot, as RGB.
inline Eigen::Vector3i pixelAt(const fs::path& png, int x, int y) { return Screenshot(png).at(x, y); }

// Where the body `id` of `scene` is (its first two coordinates).
inline Eigen::Vector2d at(const Scene& scene, const char* id) {
  const Eigen::VectorXd x = scene.model.position(*scene.model.findBody(id));
  return {x[0], x[1]};
}

}  // namespace tinkertoy
