// Screenshot: glReadPixels into a cairo image surface (screenshot.hpp).
#include "screenshot.hpp"

#include <GL/gl.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace tinkertoy::studio {

Image captureWindow(int width, int height) {
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());

  Image image(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), cairo_surface_destroy);
  cairo_surface_flush(image.get());
  unsigned char* pixels = cairo_image_surface_get_data(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  for (int y = 0; y < height; ++y) {
    // OpenGL's rows run bottom to top.
    const std::uint8_t* from = &rgba[static_cast<std::size_t>(height - 1 - y) * static_cast<std::size_t>(width) * 4];
    auto* to = reinterpret_cast<std::uint32_t*>(pixels + static_cast<std::ptrdiff_t>(y) * stride);
    for (int x = 0; x < width; ++x, from += 4) {
      to[x] = (std::uint32_t{from[0]} << 16) | (std::uint32_t{from[1]} << 8) | std::uint32_t{from[2]};
    }
  }
  cairo_surface_mark_dirty(image.get());
  return image;
}

void savePng(cairo_surface_t* image, const std::filesystem::path& file) {
  std::filesystem::path partial = file;
  partial += ".partial";
  if (cairo_surface_write_to_png(image, partial.c_str()) != CAIRO_STATUS_SUCCESS) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw std::runtime_error(file.string() + ": cannot write the screenshot");
  }
  std::filesystem::rename(partial, file);
}

void saveScreenshot(const std::filesystem::path& file, int width, int height) {
  savePng(captureWindow(width, height).get(), file);
}

}  // namespace tinkertoy::studio
