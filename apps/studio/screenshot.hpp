// Screenshot: the window's back buffer as a PNG (through cairo), written to a temporary file
// and renamed, so a failed write leaves no partial file.
#pragma once

#include <filesystem>

namespace tinkertoy::studio {

// Reads the current framebuffer (width × height) and writes it. Throws std::runtime_error
// naming the file if it cannot be written.
void saveScreenshot(const std::filesystem::path& file, int width, int height);

}  // namespace tinkertoy::studio
