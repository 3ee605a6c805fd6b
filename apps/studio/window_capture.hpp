// WindowCapture: pictures of the Studio's window for the user to keep — a screenshot (F12) or a
// video (F9 starts and stops it) — written to the capture directory (the working directory
// unless --capture-dir says otherwise) as <name>-<n>.png or <name>-<n>.mp4, n the first number
// whose file does not exist yet (in the browser, a screenshot is then downloaded). A video goes
// to the platform's VideoRecorder (on the desktop the same ffmpeg encoder as `tinkertoy render`,
// H.264 MP4 at 60 frames per second), an even number of pixels wide and high as H.264 needs. Its clock is the Studio's frame clock (wall time; 1/60 s a frame under --script): a
// second of it is a second of video whatever the drawing rate, a slow frame shown for as many
// video frames as it lasted and a fast one dropped.
//
//   capture.requestScreenshot("four_bar");                // on the key
//   if (auto note = capture.afterRender(w, h, clock)) …   // after drawing, before showing the frame
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "frames_due.hpp"
#include "video_recorder.hpp"

namespace tinkertoy::studio {

class WindowCapture {
 public:
  explicit WindowCapture(std::filesystem::path directory) : directory_(std::move(directory)) {}
  // A recording still running is finished (its file is kept).
  ~WindowCapture();
  WindowCapture(const WindowCapture&) = delete;
  WindowCapture& operator=(const WindowCapture&) = delete;

  // The next frame drawn is saved as <name>-<n>.png.
  void requestScreenshot(const std::string& name);
  // Starts recording <name>-<n>.mp4 from the next frame drawn, or stops the one running.
  void toggleRecording(const std::string& name);
  [[nodiscard]] bool recording() const { return recorder_ != nullptr || startRequested_; }
  // Whether the frame being drawn goes into a screenshot or a video: notifications stay out of it.
  [[nodiscard]] bool capturing() const { return recording() || screenshotRequested_; }

  // What the user should hear about the capture, and whether it is an error.
  struct Note {
    std::string message;
    bool error = false;
  };
  // Takes what was asked for from the frame just drawn (width × height pixels) at `clock`
  // seconds of the frame clock.
  std::optional<Note> afterRender(int width, int height, double clock);

 private:
  std::filesystem::path nextFile(const std::string& name, const char* extension) const;
  std::optional<Note> startRecording(int width, int height);
  Note stopRecording();

  std::filesystem::path directory_;
  std::string screenshotName_, recordingName_;
  bool screenshotRequested_ = false, startRequested_ = false, stopRequested_ = false;
  std::unique_ptr<VideoRecorder> recorder_;
  std::filesystem::path video_;
  long frames_ = 0;
  double start_ = 0.0;  // the clock at the recording's first frame
};

}  // namespace tinkertoy::studio
