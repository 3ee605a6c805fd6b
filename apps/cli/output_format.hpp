// The kinds of file `render` and `plot` write, told apart by the output's extension.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

namespace tinkertoy::cli {

enum class OutputFormat { Svg, Png, Pdf, Mp4, Gif };

// The file's extension in lower case (".png" for "A.PNG").
inline std::string lowercaseExtension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// The format named by the extension (any case), or nothing for another extension.
inline std::optional<OutputFormat> outputFormat(const std::filesystem::path& file) {
  const std::string ext = lowercaseExtension(file);
  if (ext == ".svg") return OutputFormat::Svg;
  if (ext == ".png") return OutputFormat::Png;
  if (ext == ".pdf") return OutputFormat::Pdf;
  if (ext == ".mp4") return OutputFormat::Mp4;
  if (ext == ".gif") return OutputFormat::Gif;
  return std::nullopt;
}

inline bool isVideo(OutputFormat format) { return format == OutputFormat::Mp4 || format == OutputFormat::Gif; }

// "1.4 MB", "75 kB", "512 B": a file's size for a person.
inline std::string readableSize(std::uintmax_t bytes) {
  char text[32];
  if (bytes >= 1000 * 1000) {
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  } else if (bytes >= 1000) {
    std::snprintf(text, sizeof text, "%.0f kB", static_cast<double>(bytes) / 1e3);
  } else {
    std::snprintf(text, sizeof text, "%ju B", bytes);
  }
  return text;
}

}  // namespace tinkertoy::cli
