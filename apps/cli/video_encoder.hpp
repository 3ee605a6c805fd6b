// VideoEncoder: frames drawn by cairo, piped raw to the ffmpeg program, which encodes them as
// MP4 (H.264, yuv420p, playable everywhere) or as an animated GIF (a palette made for each
// frame, so ffmpeg holds one frame at a time). No frame touches the disk.
#pragma once

#include <cairo.h>

#include <filesystem>
#include <string>

#include "child_process.hpp"
#include "flag_checks.hpp"

namespace tinkertoy::cli {

class VideoEncoder {
 public:
  enum class Format { Mp4, Gif };

  // Starts `ffmpeg` (the program's path) writing `file` in `format`. Throws std::runtime_error
  // when it cannot start.
  VideoEncoder(const std::string& ffmpeg, Format format, const std::filesystem::path& file, PixelSize size, int fps);

  // Sends one frame: an ARGB32 image surface of the encoder's size. False when ffmpeg stopped
  // taking frames (finish() then says what went wrong).
  bool add(cairo_surface_t* frame);
  // Ends the stream and waits for ffmpeg: "" on success, otherwise what went wrong.
  std::string finish();

  // The highest GIF frame rate that plays in real time: GIF delays are whole hundredths of a
  // second, and players stretch a one-hundredth delay.
  static constexpr int kMaxGifFps = 50;

 private:
  ChildProcess ffmpeg_;
  PixelSize size_;
  bool refused_ = false;  // ffmpeg stopped reading before the last frame
};

}  // namespace tinkertoy::cli
