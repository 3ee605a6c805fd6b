// InputOrder: the key presses and mouse button changes that came between two frames, handed to
// the frames in the order they came.
//
// Debian's Dear ImGui (1.86) reads the mouse buttons once a frame, and the Studio took every key
// pressed since the last frame at the start of the next. On a page that draws slowly (a loaded
// machine, a browser tab in the background) a button's release, a key and a click can all fall
// between two frames; the key then ran ahead of the release: a rod dragged out just before 5
// (the Nail tool) was pressed ended as a spring, and the click meant for the nail was lost in the
// drag; and a key pressed and let go between two frames never reached ImGui's widgets (Enter in
// the Save As dialog). Here each frame takes the keys up to and including one button change, and
// sees the mouse where it was at that change, and each key it takes down; what came after waits
// for the next frame. (Later versions of ImGui queue their input the same way, and call it
// trickling.)
//
//   InputOrder input;
//   input.button(0, true, {400, 250});    // from the platform's callbacks, as they come
//   input.key({'5', false, false});
//   const InputOrder::Frame now = input.take();  // the press only: the 5 waits a frame
#pragma once

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <variant>
#include <vector>

namespace tinkertoy::studio {

class InputOrder {
 public:
  static constexpr int kButtons = 3;  // left, right, middle
  struct Key {
    int key = 0;
    bool ctrl = false;
    bool shift = false;
  };
  struct Pointer {
    float x = 0.0f, y = 0.0f;  // window coordinates, as the platform gives the cursor
  };
  // What a frame takes: the keys to act on before the mouse, then, if a button changed, every
  // button's state and where the pointer was when it changed (otherwise the platform's own reading
  // stands).
  struct Frame {
    std::vector<Key> keys;
    struct Buttons {
      std::array<bool, kButtons> down{};
      Pointer at;
    };
    std::optional<Buttons> buttons;
  };

  void key(const Key& key) { events_.emplace_back(key); }
  // Buttons outside [0, kButtons) are not the Studio's and are let through untouched.
  void button(int button, bool down, const Pointer& at) {
    if (button >= 0 && button < kButtons) events_.emplace_back(ButtonChange{button, down, at});
  }

  [[nodiscard]] Frame take() {
    Frame frame;
    while (!events_.empty()) {
      if (const Key* key = std::get_if<Key>(&events_.front())) {
        // A key after this frame's button change waits, as does a key pressed again (a widget
        // sees a key down once a frame).
        const bool again = std::any_of(frame.keys.begin(), frame.keys.end(), [&](const Key& k) { return k.key == key->key; });
        if (frame.buttons || again) break;
        frame.keys.push_back(*key);
      } else {
        if (frame.buttons) break;  // one button change a frame
        const ButtonChange& change = std::get<ButtonChange>(events_.front());
        down_[static_cast<std::size_t>(change.button)] = change.down;
        frame.buttons = Frame::Buttons{down_, change.at};
      }
      events_.pop_front();
    }
    return frame;
  }

 private:
  struct ButtonChange {
    int button = 0;
    bool down = false;
    Pointer at;
  };
  std::deque<std::variant<Key, ButtonChange>> events_;
  std::array<bool, kButtons> down_{};
};

}  // namespace tinkertoy::studio
