// Studio: a number field whose edit counts once, when the user is done with it (the inspector's
// and the settings panel's).
#pragma once

#include <imgui.h>

namespace tinkertoy::studio {

inline bool numberField(const char* label, double& value) {
  ImGui::InputDouble(label, &value, 0.0, 0.0, "%.6g");
  return ImGui::IsItemDeactivatedAfterEdit();
}

}  // namespace tinkertoy::studio
