// StudioWindow: GLFW, the GL context and Dear ImGui around the Studio (studio_window.hpp).
#define GL_SILENCE_DEPRECATION
#include "studio_window.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <iostream>

#include "glyph_ranges.hpp"
#include "studio.hpp"

namespace tinkertoy::studio {

namespace {

#ifdef __EMSCRIPTEN__
constexpr const char* kShaderVersion = "#version 300 es";  // WebGL 2
#else
constexpr const char* kShaderVersion = "#version 130";     // OpenGL 3.0
#endif
constexpr float kShortestFrame = 1e-4f;  // s: ImGui needs time to pass (a browser's clock may stand still)

// Loads DejaVu Sans with every character the panels and the library's messages use
// (glyph_ranges.hpp), and DejaVu Sans Mono second (monospacedFont()); or keeps ImGui's font,
// which is monospaced itself. The browser build carries both files at the same paths.
void loadFont() {
  if (!std::filesystem::exists(kStudioFont)) return;
  ImGuiIO& io = ImGui::GetIO();
  static ImVector<ImWchar> ranges;
  ImFontGlyphRangesBuilder builder;
  for (const GlyphRange& r : kStudioGlyphRanges) {
    builder.AddRanges(std::array<ImWchar, 3>{static_cast<ImWchar>(r.first), static_cast<ImWchar>(r.last), 0}.data());
  }
  builder.BuildRanges(&ranges);
  io.Fonts->AddFontFromFileTTF(kStudioFont, 16.0f, nullptr, ranges.Data);
  if (std::filesystem::exists(kStudioMonospacedFont)) {
    io.Fonts->AddFontFromFileTTF(kStudioMonospacedFont, 16.0f, nullptr, ranges.Data);
  }
}

InputOrder::Pointer cursorOf(GLFWwindow* window) {
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window, &x, &y);
  return {static_cast<float>(x), static_cast<float>(y)};
}

}  // namespace

StudioWindow::StudioWindow(const Eigen::Vector2i& size, Options options) {
  glfwSetErrorCallback([](int, const char* description) { std::cerr << "tinkertoy-studio: GLFW: " << description << '\n'; });
  if (!glfwInit()) throw NoWindow("cannot open a window (is there a display? Without one, run it under xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_RESIZABLE, options.resizable ? GLFW_TRUE : GLFW_FALSE);
  window_ = glfwCreateWindow(size.x(), size.y(), "Tinkertoy Studio", nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw NoWindow("cannot create an OpenGL 3 window");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(options.vsync ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  ImGui::StyleColorsLight();
  ImGui::GetStyle().FrameRounding = 3.0f;
  loadFont();
  // Every key press and mouse button goes to the window's queue, from GLFW's callbacks (installed
  // before ImGui's backend, which chains to them), so that none is lost between two frames and
  // each frame takes them in the order they came (input_order.hpp).
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int mods) {
    auto* self = static_cast<StudioWindow*>(glfwGetWindowUserPointer(w));
    if (self->studio_ && action == GLFW_PRESS) {
      self->input_.key({key, (mods & GLFW_MOD_CONTROL) != 0, (mods & GLFW_MOD_SHIFT) != 0});
    }
  });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int) {
    auto* self = static_cast<StudioWindow*>(glfwGetWindowUserPointer(w));
    if (action == GLFW_PRESS || action == GLFW_RELEASE) self->input_.button(button, action == GLFW_PRESS, cursorOf(w));
  });
  // A scene file dropped on the window is opened (the first, if several).
  glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
    auto* self = static_cast<StudioWindow*>(glfwGetWindowUserPointer(w));
    if (self->studio_ && count > 0) self->studio_->offerToOpen(paths[0]);
  });
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init(kShaderVersion);
}

StudioWindow::~StudioWindow() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

void StudioWindow::attach(Studio* studio) { studio_ = studio; }

void StudioWindow::frame(Studio& studio, std::optional<double> frameSeconds, const std::function<void()>& beforeNewFrame,
                         const std::function<void(int width, int height)>& beforeShow) {
  glfwPollEvents();
  const Eigen::Vector2i size = framebufferSize();
  studio.setWindowSize(size.cast<double>());
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  // A key shown down last frame only for its press is up again unless it is still held.
  for (const int key : keysShownDown_) io.KeysDown[key] = glfwGetKey(window_, key) == GLFW_PRESS;
  keysShownDown_.clear();
  const InputOrder::Frame input = input_.take();
  for (const InputOrder::Key& key : input.keys) {
    studio.pressKey(key.key, key.ctrl, key.shift);
    if (key.key >= 0 && key.key < IM_ARRAYSIZE(io.KeysDown) && !io.KeysDown[key.key]) {
      io.KeysDown[key.key] = true;  // pressed and let go since the last frame: the widgets see it
      keysShownDown_.push_back(key.key);
    }
  }
  if (input.buttons) {
    for (int b = 0; b < InputOrder::kButtons; ++b) io.MouseDown[b] = input.buttons->down[static_cast<std::size_t>(b)];
    if (input.buttons->at) io.MousePos = {input.buttons->at->x, input.buttons->at->y};
  }
  io.DeltaTime = frameSeconds ? static_cast<float>(*frameSeconds) : std::max(io.DeltaTime, kShortestFrame);
  if (beforeNewFrame) beforeNewFrame();
  ImGui::NewFrame();
  studio.frame(io.DeltaTime, frameSeconds.has_value());
  ImGui::Render();
  glViewport(0, 0, size.x(), size.y());
  glClearColor(0.97f, 0.97f, 0.95f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  studio.afterRender(size.x(), size.y());
  if (beforeShow) beforeShow(size.x(), size.y());
  glfwSwapBuffers(window_);
}

bool StudioWindow::closeRequested() const { return glfwWindowShouldClose(window_) != 0; }

void StudioWindow::keepOpen() { glfwSetWindowShouldClose(window_, GLFW_FALSE); }

void StudioWindow::resize(const Eigen::Vector2i& size) { glfwSetWindowSize(window_, size.x(), size.y()); }

Eigen::Vector2i StudioWindow::framebufferSize() const {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  return {width, height};
}

}  // namespace tinkertoy::studio
