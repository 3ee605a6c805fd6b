// WindowCapture: screenshots and recordings of the window (window_capture.hpp).
#include "window_capture.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "platform.hpp"
#include "screenshot.hpp"

namespace tinkertoy::studio {

namespace {

constexpr int kVideoFps = 60;

}  // namespace

WindowCapture::~WindowCapture() {
  if (recorder_) std::cerr << "tinkertoy-studio: " << stopRecording().message << '\n';
}

void WindowCapture::requestScreenshot(const std::string& name) {
  screenshotName_ = name;
  screenshotRequested_ = true;
}

void WindowCapture::toggleRecording(const std::string& name) {
  if (recorder_) {
    stopRequested_ = true;
  } else {
    recordingName_ = name;
    startRequested_ = !startRequested_;
  }
}

std::filesystem::path WindowCapture::nextFile(const std::string& name, const char* extension) const {
  for (int n = 1;; ++n) {
    std::filesystem::path file = directory_ / (name + "-" + std::to_string(n) + extension);
    std::error_code error;
    if (!std::filesystem::exists(file, error) && !error) return file;
  }
}

std::optional<WindowCapture::Note> WindowCapture::afterRender(int width, int height, double clock) {
  std::optional<Note> note;
  if (screenshotRequested_) {
    screenshotRequested_ = false;
    const std::filesystem::path file = nextFile(screenshotName_, ".png");
    try {
      saveScreenshot(file, width, height);
      platform::deliver(file);
      note = Note{"screenshot saved as " + file.string()};
    } catch (const std::exception& e) {
      note = Note{e.what(), true};
    }
  }
  if (stopRequested_) {
    stopRequested_ = false;
    return stopRecording();
  }
  if (startRequested_) {
    startRequested_ = false;
    if (auto problem = startRecording(width, height)) return problem;
    start_ = clock;
  }
  if (!recorder_) return note;
  const long owed = framesDue(clock - start_, kVideoFps) - frames_;
  if (owed <= 0) return note;  // drawn faster than the video's rate
  const Pixels frame = captureWindow(width, height);
  for (long k = 0; k < owed; ++k) {
    ++frames_;
    if (!recorder_->add(frame)) return stopRecording();
  }
  return note;
}

std::optional<WindowCapture::Note> WindowCapture::startRecording(int width, int height) {
  video_ = nextFile(recordingName_, ".mp4");
  frames_ = 0;
  try {
    recorder_ = startVideoRecorder(video_, std::max(width & ~1, 2), std::max(height & ~1, 2), kVideoFps);
  } catch (const std::exception& e) {
    return Note{e.what(), true};
  }
  return std::nullopt;
}

WindowCapture::Note WindowCapture::stopRecording() {
  const std::string problem = recorder_->finish();
  recorder_.reset();
  if (!problem.empty()) return {video_.string() + ": " + problem, true};
  char length[32];
  std::snprintf(length, sizeof length, "%.2f", static_cast<double>(frames_) / kVideoFps);
  return {"video saved as " + video_.string() + " (" + std::to_string(frames_) + " frames at " +
          std::to_string(kVideoFps) + " fps, " + length + " s of the Studio's clock)"};
}

}  // namespace tinkertoy::studio
