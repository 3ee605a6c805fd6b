// WindowCapture: screenshots and recordings of the window (window_capture.hpp).
#include "window_capture.hpp"

#include <cstdio>
#include <iostream>

#include "child_process.hpp"
#include "screenshot.hpp"

namespace tinkertoy::studio {

namespace {

constexpr int kVideoFps = 60;

}  // namespace

WindowCapture::~WindowCapture() {
  if (encoder_) std::cerr << "tinkertoy-studio: " << stopRecording().message << '\n';
}

void WindowCapture::requestScreenshot(const std::string& name) {
  screenshotName_ = name;
  screenshotRequested_ = true;
}

void WindowCapture::toggleRecording(const std::string& name) {
  if (encoder_) {
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
  if (!encoder_) return note;
  const long owed = framesDue(clock - start_, kVideoFps) - frames_;
  if (owed <= 0) return note;  // drawn faster than the video's rate
  // The window as a frame of the video's size (a resized window is cropped or padded).
  const Image window = captureWindow(width, height);
  const Image frame(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, videoWidth_, videoHeight_), cairo_surface_destroy);
  cairo_t* cr = cairo_create(frame.get());
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_set_source_surface(cr, window.get(), 0, 0);
  cairo_paint(cr);
  cairo_destroy(cr);
  for (long k = 0; k < owed; ++k) {
    ++frames_;
    if (!encoder_->add(frame.get())) return stopRecording();
  }
  return note;
}

std::optional<WindowCapture::Note> WindowCapture::startRecording(int width, int height) {
  const std::string ffmpeg = cli::findProgram("ffmpeg");
  if (ffmpeg.empty()) return Note{"recording a video " + cli::missingProgram("ffmpeg", "ffmpeg"), true};
  video_ = nextFile(recordingName_, ".mp4");
  videoWidth_ = std::max(width & ~1, 2);
  videoHeight_ = std::max(height & ~1, 2);
  frames_ = 0;
  try {
    encoder_ = std::make_unique<cli::VideoEncoder>(ffmpeg, cli::VideoEncoder::Format::Mp4, video_,
                                                   cli::PixelSize{videoWidth_, videoHeight_}, kVideoFps);
  } catch (const std::exception& e) {
    return Note{video_.string() + ": cannot record: " + e.what(), true};
  }
  return std::nullopt;
}

WindowCapture::Note WindowCapture::stopRecording() {
  const std::string problem = encoder_->finish();
  encoder_.reset();
  if (!problem.empty()) return {video_.string() + ": " + problem, true};
  char length[32];
  std::snprintf(length, sizeof length, "%.2f", static_cast<double>(frames_) / kVideoFps);
  return {"video saved as " + video_.string() + " (" + std::to_string(frames_) + " frames at " +
          std::to_string(kVideoFps) + " fps, " + length + " s of the Studio's clock)"};
}

}  // namespace tinkertoy::studio
