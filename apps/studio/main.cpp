// tinkertoy-studio: build models by clicking, drag them with the mouse (docs/studio.md).
//
//   tinkertoy-studio [SCENE.json] [--script FILE.json] [--frames N] [--screenshot FILE.png]
//                    [--dump-scene FILE.json] [--size WxH]
//
// With --script or --frames the Studio runs on a fixed frame clock of 1/60 s, so a replay is
// the same every time, and exits after the script's last event (or after N frames).
// Exit codes: 0 done, 1 no window (no display, no OpenGL), 2 bad input (a flag, the script,
// an unwritable output path).
#include <imgui.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <regex>

#include "cli.hpp"
#include "input_script.hpp"
#include "layout.hpp"
#include "memory_reserve.hpp"
#include "misspelling.hpp"
#include "printable_stream.hpp"
#include "screenshot.hpp"
#include "studio.hpp"
#include "studio_window.hpp"

namespace {

using tinkertoy::studio::InputScript;
using tinkertoy::studio::ScriptEvent;
using tinkertoy::studio::Studio;
using tinkertoy::studio::StudioWindow;

constexpr double kScriptFrame = 1.0 / 60.0;  // s per frame under --script and --frames
// The command line's exit codes where they mean the same (cli.hpp).
using tinkertoy::cli::kBadInput;
using tinkertoy::cli::kResourceFailure;
constexpr int kNoWindow = 1;

struct Options {
  std::optional<std::filesystem::path> scene, script, screenshot, dump;
  std::optional<std::string> compare;  // settings flags of the compare mode's ghost
  std::filesystem::path captureDirectory = ".";
  int frames = 0;
  std::string size = "1280x800";
  int width = 1280, height = 800;
};

// Fails unless `file` can be created: its directory exists.
void requireWritable(const std::optional<std::filesystem::path>& file, const char* flag) {
  if (!file) return;
  const std::filesystem::path directory = file->parent_path().empty() ? "." : file->parent_path();
  if (!std::filesystem::is_directory(directory)) {
    throw CLI::ValidationError(flag, file->string() + ": the directory " + directory.string() + " does not exist");
  }
}

// Replays script events into ImGui's IO (after the backend wrote the real input).
class Replay {
 public:
  explicit Replay(InputScript script) : script_(std::move(script)) {}

  void apply(double time, Studio& studio) {
    ImGuiIO& io = ImGui::GetIO();
    // A click and the keys last one frame.
    if (releaseClick_) mouseDown_[0] = false, releaseClick_ = false;
    keys_.clear();
    io.MouseWheel = 0.0f;
    for (const ScriptEvent& e : script_.take(time)) {
      switch (e.kind) {
        case ScriptEvent::Kind::Click:
        case ScriptEvent::Kind::Move:
          mouse_ = e.pixels ? e.position : studio.camera().toPixels(e.position);
          if (e.kind == ScriptEvent::Kind::Click) mouseDown_[0] = releaseClick_ = true;
          break;
        case ScriptEvent::Kind::Press:
        case ScriptEvent::Kind::Release:
          mouseDown_[e.button] = e.kind == ScriptEvent::Kind::Press;
          break;
        case ScriptEvent::Kind::Key:
          keys_.push_back(e);  // down for ImGui's widgets this frame
          studio.pressKey(e.key, e.ctrl, e.shift);
          break;
        case ScriptEvent::Kind::Tool:
          studio.setTool(e.tool);
          break;
        case ScriptEvent::Kind::Scroll:
          io.MouseWheel = static_cast<float>(e.amount);
          break;
        case ScriptEvent::Kind::Open:
          studio.open(e.name);
          break;
        case ScriptEvent::Kind::Text:
          io.AddInputCharactersUTF8(e.name.c_str());
          break;
      }
    }
    io.MousePos = {static_cast<float>(mouse_.x()), static_cast<float>(mouse_.y())};
    for (int b = 0; b < 3; ++b) io.MouseDown[b] = mouseDown_[b];
    for (bool& down : io.KeysDown) down = false;
    io.KeyCtrl = io.KeyShift = io.KeyAlt = false;
    for (const ScriptEvent& key : keys_) {
      io.KeysDown[key.key] = true;
      io.KeyCtrl = io.KeyCtrl || key.ctrl;
      io.KeyShift = io.KeyShift || key.shift;
      io.KeyAlt = io.KeyAlt || key.alt;
    }
  }
  [[nodiscard]] double end() const { return script_.end(); }

 private:
  InputScript script_;
  Eigen::Vector2d mouse_ = Eigen::Vector2d::Zero();
  bool mouseDown_[3] = {false, false, false};
  bool releaseClick_ = false;
  std::vector<ScriptEvent> keys_;  // pressed this frame
};

int runStudio(const Options& options, std::optional<Replay> replay) {
  const bool deterministic = replay || options.frames > 0;
  std::optional<StudioWindow> window;
  try {
    window.emplace(Eigen::Vector2i(options.width, options.height),
                   StudioWindow::Options{.resizable = !deterministic, .vsync = !deterministic});
  } catch (const tinkertoy::studio::NoWindow& e) {
    std::cerr << "tinkertoy-studio: " << e.what() << '\n';
    return kNoWindow;
  }
  int status = 0;
  Studio studio(options.scene, {options.width, options.height}, deterministic, options.captureDirectory);
  window->attach(&studio);
  if (options.compare) studio.compare(*options.compare);
  if (options.frames > 0 && !replay) studio.play();  // N frames of the scene running, not of t = 0
  const long lastFrame = options.frames > 0 ? options.frames
                         : replay          ? static_cast<long>(std::ceil(replay->end() / kScriptFrame)) + 2
                                           : -1;
  const std::optional<double> frameSeconds = deterministic ? std::optional(kScriptFrame) : std::nullopt;
  for (long frame = 0;; ++frame) {
    const bool last = frame + 1 == lastFrame;
    window->frame(
        studio, frameSeconds,
        [&] {
          if (replay) replay->apply(static_cast<double>(frame) * kScriptFrame, studio);
        },
        [&](int width, int height) {
          if (!last || !options.screenshot) return;
          try {
            tinkertoy::studio::saveScreenshot(*options.screenshot, width, height);
          } catch (const std::exception& e) {
            std::cerr << "tinkertoy-studio: " << e.what() << '\n';
            status = kBadInput;
          }
        });
    if (last) break;
    if (window->closeRequested()) {
      if (studio.mayClose()) break;
      window->keepOpen();
    }
  }
  if (options.dump) {
    try {
      studio.dumpScene(*options.dump);
    } catch (const std::exception& e) {
      std::cerr << "tinkertoy-studio: " << e.what() << '\n';
      status = kBadInput;
    }
  }
  window->attach(nullptr);  // the Studio goes first; keys after this go nowhere
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // As the command line does: memory kept for the moment it runs out, so that the Studio ends
  // with a message (exit code 5) instead of an abort; nothing else escapes main either.
  const tinkertoy::cli::MemoryReserve reserve(tinkertoy::cli::MemoryReserve::kDefaultBytes);
  // Messages on stderr show control characters (from a scene's names, a path) instead of
  // obeying them, as the command line's do; stderr gets its own buffer back before exit.
  tinkertoy::cli::PrintableStreambuf printable(std::cerr.rdbuf());
  const struct Restore {
    std::streambuf* original;
    ~Restore() { std::cerr.rdbuf(original); }
  } restore{std::cerr.rdbuf(&printable)};
  Options options;
  CLI::App app{"Tinkertoy Studio: build models by clicking and drag them with the mouse", "tinkertoy-studio"};
  app.add_option("SCENE", options.scene, "scene file to open (default: an empty canvas)");
  app.add_option("--script", options.script, "replay the input events in this JSON file (docs/studio.md)")
      ->check(CLI::ExistingFile);
  app.add_option("--frames", options.frames,
                 "run this many frames (at 1/60 s each), then exit; without --script the scene plays")
      ->check(CLI::PositiveNumber);
  app.add_option("--compare", options.compare,
                 "start in compare mode: the scene also runs under these settings flags, in one argument "
                 "(\"--ks 100 --kd 2\"), drawn as a ghost");
  app.add_option("--screenshot", options.screenshot, "save the window as PNG after the script or the frames");
  app.add_option("--dump-scene", options.dump, "write the model and its state at exit");
  app.add_option("--size", options.size, "window size in pixels, WxH")->capture_default_str();
  app.add_option("--capture-dir", options.captureDirectory,
                 "where F12 screenshots and F9 recordings go (default: the working directory)")
      ->check(CLI::ExistingDirectory);
  std::optional<Replay> replay;
  try {
    app.parse(argc, argv);
    std::smatch match;
    static const std::regex kSize(R"(([0-9]{2,5})x([0-9]{2,5}))");
    if (!std::regex_match(options.size, match, kSize)) {
      throw CLI::ValidationError("--size", "must be WxH in pixels, e.g. 1280x800, got '" + options.size + "'");
    }
    options.width = std::stoi(match[1]);
    options.height = std::stoi(match[2]);
    if (options.width < 400 || options.height < 300) {
      throw CLI::ValidationError("--size", "must be at least 400x300, got '" + options.size + "'");
    }
    requireWritable(options.screenshot, "--screenshot");
    requireWritable(options.dump, "--dump-scene");
    if (options.script) replay.emplace(InputScript::load(*options.script));
  } catch (const CLI::ParseError& e) {
    if (const std::string typo = tinkertoy::cli::misspelling(app, std::vector<std::string>(argv + 1, argv + argc));
        e.get_exit_code() != 0 && !typo.empty()) {
      std::cerr << typo << "\nRun with --help for more information.\n";
      return kBadInput;
    }
    const int code = app.exit(e);
    return code == 0 ? 0 : kBadInput;
  } catch (const tinkertoy::studio::ScriptError& e) {
    std::cerr << "tinkertoy-studio: --script: " << e.what() << '\n';
    return kBadInput;
  }
  try {
    return runStudio(options, std::move(replay));
  } catch (const std::bad_alloc&) {
    std::cerr << "tinkertoy-studio: out of memory: the machine could not give the Studio the memory it needed\n";
  } catch (const std::exception& e) {
    std::cerr << "tinkertoy-studio: internal error, please report it: " << e.what() << '\n';
  }
  return kResourceFailure;
}
