// Frames piped to ffmpeg (video_encoder.hpp).
#include "video_encoder.hpp"

#include <bit>
#include <cstring>
#include <vector>

namespace tinkertoy::cli {

namespace {

std::vector<std::string> ffmpegArguments(VideoEncoder::Format format, const std::filesystem::path& file, PixelSize size,
                                         int fps) {
  // cairo's ARGB32 is one native-endian 32-bit word per pixel: B, G, R, A bytes on little-endian machines.
  const char* pixels = std::endian::native == std::endian::little ? "bgra" : "argb";
  std::vector<std::string> args = {"-hide_banner", "-nostats", "-loglevel", "error", "-y",
                                   "-f", "rawvideo", "-pix_fmt", pixels,
                                   "-s", std::to_string(size.width) + "x" + std::to_string(size.height),
                                   "-r", std::to_string(fps), "-i", "pipe:0"};
  if (format == VideoEncoder::Format::Mp4) {
    args.insert(args.end(), {"-c:v", "libx264", "-preset", "medium", "-crf", "20", "-pix_fmt", "yuv420p",
                             "-movflags", "+faststart", "-f", "mp4"});
  } else {
    // A palette made for each frame, then dithering onto it: far better colours than GIF's
    // fixed palette, and, unlike one palette for the whole clip, no need to hold every frame.
    args.insert(args.end(), {"-vf", "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1:dither=bayer",
                             "-loop", "0", "-f", "gif"});
  }
  // "file:" keeps ffmpeg from reading a name such as "10:00.mp4" as a protocol.
  args.push_back("file:" + file.string());
  return args;
}

}  // namespace

VideoEncoder::VideoEncoder(const std::string& ffmpeg, Format format, const std::filesystem::path& file, PixelSize size,
                           int fps)
    : ffmpeg_(ffmpeg, ffmpegArguments(format, file, size, fps)), size_(size) {}

bool VideoEncoder::add(cairo_surface_t* frame) {
  cairo_surface_flush(frame);
  const auto* data = reinterpret_cast<const char*>(cairo_image_surface_get_data(frame));
  const auto stride = static_cast<std::size_t>(cairo_image_surface_get_stride(frame));
  const auto row = static_cast<std::size_t>(size_.width) * 4;
  if (stride == row) {  // rows without padding: the frame in one piece
    refused_ = !ffmpeg_.write({data, row * static_cast<std::size_t>(size_.height)});
  }
  for (int y = 0; y < size_.height && stride != row && !refused_; ++y) {
    refused_ = !ffmpeg_.write({data + static_cast<std::size_t>(y) * stride, row});
  }
  return !refused_;
}

std::string VideoEncoder::finish() {
  return ffmpeg_.finishAndExplain("ffmpeg", !refused_);
}

}  // namespace tinkertoy::cli
