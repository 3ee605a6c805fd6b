// VideoRecorder: where the Studio's recordings (F9) go, frame by frame. On the desktop an
// H.264 MP4 through ffmpeg (ffmpeg_video_recorder.cpp, the encoder `tinkertoy render` uses);
// the browser build has no recorder and says so (apps/web/browser_platform.cpp).
//
//   auto video = startVideoRecorder("chain-1.mp4", {640, 480}, 60);   // throws why not
//   video->add(captureWindow(w, h));  …  std::string problem = video->finish();
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "screenshot.hpp"

namespace tinkertoy::studio {

class VideoRecorder {
 public:
  virtual ~VideoRecorder() = default;
  // One frame, cropped or padded (white) to the video's size. False when the encoder stopped
  // taking frames (finish() then says why).
  virtual bool add(const Pixels& frame) = 0;
  // Ends the file: "" on success, otherwise what went wrong.
  virtual std::string finish() = 0;
};

// Starts recording `file`, width × height pixels (even numbers) at `fps` frames a second.
// Throws std::runtime_error saying why it cannot (no ffmpeg, ffmpeg refused the file; in the
// browser, never).
std::unique_ptr<VideoRecorder> startVideoRecorder(const std::filesystem::path& file, int width, int height, int fps);

}  // namespace tinkertoy::studio
