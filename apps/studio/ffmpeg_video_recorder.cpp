// The desktop's VideoRecorder: frames to ffmpeg through `tinkertoy render`'s encoder
// (video_recorder.hpp).
#include <cairo.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "child_process.hpp"
#include "video_encoder.hpp"
#include "video_recorder.hpp"

namespace tinkertoy::studio {

namespace {

class FfmpegVideoRecorder final : public VideoRecorder {
 public:
  FfmpegVideoRecorder(const std::string& ffmpeg, const std::filesystem::path& file, int width, int height, int fps)
      : encoder_(ffmpeg, cli::VideoEncoder::Format::Mp4, file, cli::PixelSize{width, height}, fps),
        frame_(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height), cairo_surface_destroy) {}

  bool add(const Pixels& window) override {
    // The window's pixels at the top left of a white frame of the video's size.
    cairo_surface_t* frame = frame_.get();
    cairo_surface_flush(frame);
    unsigned char* data = cairo_image_surface_get_data(frame);
    const int stride = cairo_image_surface_get_stride(frame);
    const int width = cairo_image_surface_get_width(frame), height = cairo_image_surface_get_height(frame);
    for (int y = 0; y < height; ++y) {
      auto* to = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
      std::fill(to, to + width, 0xffffffffu);
      if (y >= window.height) continue;
      const std::uint8_t* from = &window.rgb[static_cast<std::size_t>(y) * static_cast<std::size_t>(window.width) * 3];
      for (int x = 0; x < std::min(width, window.width); ++x, from += 3) {
        to[x] = 0xff000000u | (std::uint32_t{from[0]} << 16) | (std::uint32_t{from[1]} << 8) | std::uint32_t{from[2]};
      }
    }
    cairo_surface_mark_dirty(frame);
    return encoder_.add(frame);
  }
  std::string finish() override { return encoder_.finish(); }

 private:
  cli::VideoEncoder encoder_;
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> frame_;
};

}  // namespace

std::unique_ptr<VideoRecorder> startVideoRecorder(const std::filesystem::path& file, int width, int height, int fps) {
  const std::string ffmpeg = cli::findProgram("ffmpeg");
  if (ffmpeg.empty()) throw std::runtime_error("recording a video " + cli::missingProgram("ffmpeg", "ffmpeg"));
  try {
    return std::make_unique<FfmpegVideoRecorder>(ffmpeg, file, width, height, fps);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file.string() + ": cannot record: " + e.what());
  }
}

}  // namespace tinkertoy::studio
