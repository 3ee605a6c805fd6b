// InputOrder: the key presses and mouse button changes that came between two frames, handed to
// the frames in the order they came.
//
// Debian's Dear ImGui (1.86) reads the mouse buttons once a frame, and the Studio took every key
// pressed since the last frame at the start of the next. On a page that draws slowly (a loaded
// machine, a browser tab in the background) a button's release, a key and a click can all fall
// between two frames; the key then ran ahead of the release: a rod dragged out just before 5
// (the Nail tool) was pressed was dropped with the tool's change, and the click meant for the
// nail fell into the drag; and a key pressed and let go between two frames never reached
// ImGui's widgets (Enter in the Save As dialog). Here each frame takes the keys up to and
// including one button change, and sees the mouse where it was at that change, and each key it
// takes down; what came after waits for the next frame, and a key the frame before took waits a
// frame more. (Later versions of ImGui queue their input the same way, and call it trickling.)
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
  // What a frame takes: the keys to act on before the mouse, then the buttons: while a change is
  // taken or still waiting, every button's state as of the last change taken and, if one was
  // taken this frame, where the pointer was at it (without one, the platform's own reading of
  // the buttons and the pointer stands).
  struct Frame {
    std::vector<Key> keys;
    struct Buttons {
      std::array<bool, kButtons> down{};
      std::optional<Pointer> at;
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
    bool changed = false;
    std::vector<int> taken;
    while (!events_.empty()) {
      if (const Key* key = std::get_if<Key>(&events_.front())) {
        // A key after this frame's button change waits; so does a key taken this frame or the
        // last, so that a widget sees it up between two presses (ImGui reads a key's state once
        // a frame, and a key held down two frames is one press).
        const auto in = [&](const std::vector<int>& keys) { return std::find(keys.begin(), keys.end(), key->key) != keys.end(); };
        if (changed || in(taken) || in(lastTaken_)) break;
        frame.keys.push_back(*key);
        taken.push_back(key->key);
      } else {
        if (changed) break;  // one button change a frame
        const ButtonChange& change = std::get<ButtonChange>(events_.front());
        down_[static_cast<std::size_t>(change.button)] = change.down;
        frame.buttons = Frame::Buttons{down_, change.at};
        changed = true;
      }
      events_.pop_front();
    }
    lastTaken_ = std::move(taken);
    // A change still waiting (behind a key that waits) keeps the buttons as the last one left
    // them: the platform's reading would show it before the keys that came first.
    const bool changeWaits = std::any_of(events_.begin(), events_.end(),
                                         [](const auto& e) { return std::holds_alternative<ButtonChange>(e); });
    if (!changed && changeWaits) frame.buttons = Frame::Buttons{down_, std::nullopt};
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
  std::vector<int> lastTaken_;  // the keys the last frame took
};

}  // namespace tinkertoy::studio
