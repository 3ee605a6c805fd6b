// Screenshot: the window's back buffer as a cairo image, and as a PNG written to a temporary file
// and renamed, so a failed write leaves no partial file.
#pragma once

#include <cairo.h>

#include <filesystem>
#include <memory>

namespace tinkertoy::studio {

using Image = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

// The current framebuffer (width × height) as an RGB image, top row first.
Image captureWindow(int width, int height);
// Writes `image` as a PNG. Throws std::runtime_error naming the file if it cannot be written.
void savePng(cairo_surface_t* image, const std::filesystem::path& file);
// Both: the window as it is drawn now, to `file`.
void saveScreenshot(const std::filesystem::path& file, int width, int height);

}  // namespace tinkertoy::studio
