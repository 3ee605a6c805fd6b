// InputScript: a timed list of input events the Studio replays (--script FILE.json), for tests
// and reproducible recordings. Times are on the Studio's frame clock, which advances exactly
// 1/60 s per frame under --script, so a replay is the same every time.
//
//   {"events": [
//     {"t": 0.0, "tool": "particle"},
//     {"t": 0.1, "click": [0, 0]},              world point, m: move there, press, release
//     {"t": 0.5, "mouse": [1, -1]},             move the pointer to a world point
//     {"t": 0.5, "mouse_px": [640, 400]},       ... or to a window pixel
//     {"t": 0.6, "press": "left"},              "left", "right" or "middle"
//     {"t": 0.9, "release": "left"},
//     {"t": 1.0, "key": "space"},               a key with modifiers: "ctrl+z", "shift+f1", "f12"
//     {"t": 1.1, "scroll": 2},                  wheel notches, + zooms in
//     {"t": 1.2, "open": "scenes/rope.json"}    as if typed into the Open dialog
//     {"t": 1.3, "text": "2.5"}                 typed characters, into the field in focus
//   ]}
//
// Every problem is reported as "<file>: events[3].key: unknown key 'hyper'".
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tool.hpp"

namespace tinkertoy::studio {

struct ScriptEvent {
  enum class Kind { Click, Move, Press, Release, Key, Tool, Scroll, Open, Text };
  double time = 0.0;
  Kind kind = Kind::Move;
  Eigen::Vector2d position = Eigen::Vector2d::Zero();
  bool pixels = false;  // position is a window pixel, not a world point
  int button = 0;       // 0 left, 1 right, 2 middle
  int key = 0;          // GLFW key code
  bool ctrl = false, shift = false, alt = false;
  Tool tool = Tool::Drag;
  std::string name;  // the file to open, or the text typed
  double amount = 0.0;
};

class ScriptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InputScript {
 public:
  // Reads and checks a script file. Throws ScriptError.
  static InputScript load(const std::filesystem::path& file);

  // The events due by time t that have not been taken yet, in order.
  std::vector<ScriptEvent> take(double t);
  // The time of the last event.
  [[nodiscard]] double end() const { return events_.empty() ? 0.0 : events_.back().time; }

 private:
  std::vector<ScriptEvent> events_;
  std::size_t next_ = 0;
};

// The GLFW key code of a key name ("a", "space", "delete", "f1", ...), if there is one.
std::optional<int> keyCode(const std::string& name);

}  // namespace tinkertoy::studio
