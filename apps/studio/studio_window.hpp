// StudioWindow: the Studio's window — GLFW, an OpenGL (or WebGL 2) context and Dear ImGui — and
// one frame of it. The desktop's main loop (main.cpp) and the browser's (apps/web/studio_page.cpp,
// called by the browser for each frame it shows) both draw through it.
//
//   StudioWindow window({1280, 800}, {.resizable = true, .vsync = true});
//   Studio studio(scene, {1280, 800}, false, ".");
//   window.attach(&studio);
//   while (!window.closeRequested()) window.frame(studio, std::nullopt, nullptr);
#pragma once

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

#include "input_order.hpp"

struct GLFWwindow;

namespace tinkertoy::studio {

class Studio;

// No window could be made (no display, no OpenGL 3 / WebGL 2).
struct NoWindow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class StudioWindow {
 public:
  struct Options {
    bool resizable = true;
    bool vsync = true;
  };
  // Opens the window and sets up ImGui (its style and the Studio's fonts). Throws NoWindow.
  StudioWindow(const Eigen::Vector2i& size, Options options);
  ~StudioWindow();
  StudioWindow(const StudioWindow&) = delete;
  StudioWindow& operator=(const StudioWindow&) = delete;

  // Dropped files go to `studio` from now on, and key presses are kept for the Studio that
  // frame() draws (nullptr: neither). The keys reach it in order with the mouse buttons
  // (input_order.hpp).
  void attach(Studio* studio);
  // One frame: input, the Studio's frame, drawing, the Studio's capture, then `beforeShow` (a
  // last look at the drawn frame, for --screenshot) and the swap. `frameSeconds` fixes the
  // frame's clock (a replay); otherwise it is the time since the last frame, never 0.
  // `beforeNewFrame` may put input into ImGui's IO after the platform wrote the real one.
  void frame(Studio& studio, std::optional<double> frameSeconds, const std::function<void()>& beforeNewFrame,
             const std::function<void(int width, int height)>& beforeShow = {});
  // Whether the user asked to close the window (the Studio may still say no).
  [[nodiscard]] bool closeRequested() const;
  void keepOpen();
  void resize(const Eigen::Vector2i& size);
  [[nodiscard]] Eigen::Vector2i framebufferSize() const;

 private:
  GLFWwindow* window_ = nullptr;
  Studio* studio_ = nullptr;
  InputOrder input_;
  std::vector<int> keysShownDown_;  // to ImGui for one frame, pressed and let go before it
};

}  // namespace tinkertoy::studio
