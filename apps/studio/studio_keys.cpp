// Studio: the keyboard shortcuts (docs/studio.md, "Keys"), taken once a frame unless a text field
// or a dialog has the keyboard.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "studio.hpp"

namespace tinkertoy::studio {

void Studio::shortcuts() {
  // A field being typed into takes the keys (ImGui has them from the backend), and a dialog
  // (Open, Save As, Unsaved changes) holds the window until it is answered: no shortcuts then,
  // or Space would start the simulation behind the Open dialog.
  const bool dialog = openDialog_ || saveDialog_ || confirmDiscard_ ||
                      ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
  if (!ImGui::GetIO().WantTextInput && !dialog) {
    for (const KeyPress& press : pressedKeys_) shortcut(press.key, press.ctrl, press.shift);
  }
  pressedKeys_.clear();
}

void Studio::shortcut(int key, bool ctrl, bool shift) {
  if (ctrl) {
    if (key == GLFW_KEY_S) save();
    if (key == GLFW_KEY_Z) shift ? redo() : undo();
    if (key == GLFW_KEY_Y) redo();
    if (key == GLFW_KEY_O) openDialog_ = true;
    if (key == GLFW_KEY_N) whenDiscardable([this] { newCanvas(); });
    return;
  }
  switch (key) {
    case GLFW_KEY_SPACE:
      togglePlay();
      break;
    case GLFW_KEY_S:
      session_.step();
      break;
    case GLFW_KEY_R:
      reset();
      break;
    case GLFW_KEY_H:
    case GLFW_KEY_F1:
      showHelp_ = !showHelp_;
      break;
    case GLFW_KEY_F:
      frameModel();
      break;
    case GLFW_KEY_T:
      showTrails_ = !showTrails_;
      break;
    case GLFW_KEY_C:
      showForces_ = !showForces_;
      break;
    case GLFW_KEY_K:
      showContacts_ = !showContacts_;
      break;
    case GLFW_KEY_V:
      nextView();
      break;
    case GLFW_KEY_O:
      togglePerspective();
      break;
    case GLFW_KEY_P:
      traceSelectedPoint();
      break;
    case GLFW_KEY_F12:
      capture_.requestScreenshot(captureName());
      break;
    case GLFW_KEY_F9:
      capture_.toggleRecording(captureName());
      break;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
      if (!groundPoints_.empty()) finishGround();
      break;
    case GLFW_KEY_ESCAPE:
      gesture_ = {};
      groundPoints_.clear();
      selected_ = std::monostate{};
      selectedPoint_.reset();
      break;
    case GLFW_KEY_DELETE:
    case GLFW_KEY_BACKSPACE:
      if (!std::holds_alternative<std::monostate>(selected_)) remove(selected_);
      break;
    default:
      if (const std::optional<Tool> tool = toolForKey(key)) setTool(*tool);
  }
}

}  // namespace tinkertoy::studio
