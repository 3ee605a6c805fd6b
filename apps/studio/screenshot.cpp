// Screenshot: glReadPixels, and the PNG through stb_image_write (screenshot.hpp).
#include "screenshot.hpp"

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <GL/gl.h>
#endif

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <cstring>
#include <stdexcept>

namespace tinkertoy::studio {

Pixels captureWindow(int width, int height) {
  const auto row = static_cast<std::size_t>(width) * 3;
  std::vector<std::uint8_t> bottomUp(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottomUp.data());
  Pixels image{width, height, std::vector<std::uint8_t>(bottomUp.size())};
  for (int y = 0; y < height; ++y) {  // OpenGL's rows run bottom to top
    std::memcpy(&image.rgb[static_cast<std::size_t>(y) * row], &bottomUp[static_cast<std::size_t>(height - 1 - y) * row], row);
  }
  return image;
}

void savePng(const Pixels& image, const std::filesystem::path& file) {
  std::filesystem::path partial = file;
  partial += ".partial";
  if (stbi_write_png(partial.c_str(), image.width, image.height, 3, image.rgb.data(), image.width * 3) == 0) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw std::runtime_error(file.string() + ": cannot write the screenshot");
  }
  std::filesystem::rename(partial, file);
}

void saveScreenshot(const std::filesystem::path& file, int width, int height) {
  savePng(captureWindow(width, height), file);
}

}  // namespace tinkertoy::studio
