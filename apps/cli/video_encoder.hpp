// VideoEncoder: frames drawn by cairo, piped raw to the ffmpeg program, which encodes them as
// MP4 (H.264, yuv420p, playable everywhere) or as an animated GIF (one palette made for the
// whole clip). No frame touches the disk.
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
  // taking frames (it failed; finish() says why).
  bool add(cairo_surface_t* frame);
  // Ends the stream and waits for ffmpeg: "" on success, otherwise what went wrong.
  std::string finish();

 private:
  ChildProcess ffmpeg_;
  PixelSize size_;
};

}  // namespace tinkertoy::cli
