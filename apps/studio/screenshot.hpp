// Screenshot: the window's back buffer as RGB pixels, and as a PNG (stb_image_write, on the
// desktop and in the browser alike) written to a temporary file and renamed, so a failed write
// leaves no partial file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace tinkertoy::studio {

// An RGB image, 3 bytes a pixel, top row first.
struct Pixels {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};

// The current framebuffer (width × height), read before it is shown.
Pixels captureWindow(int width, int height);
// Writes `image` as a PNG. Throws std::runtime_error naming the file if it cannot be written.
void savePng(const Pixels& image, const std::filesystem::path& file);
// Both: the window as it is drawn now, to `file`.
void saveScreenshot(const std::filesystem::path& file, int width, int height);

}  // namespace tinkertoy::studio
