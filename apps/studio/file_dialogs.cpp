// Studio: the Open, Save As and unsaved-changes dialogs (studio.hpp).
//
// Open lists the example scenes and the recent files. A click selects one (its path goes into
// the path field and, for an example, its description shows below the list); a double click,
// Enter in the path field or the Open button opens it. In the browser, a button opens its file
// picker too, and a saved file is downloaded (platform.hpp).
#include <imgui.h>
#include <imgui_stdlib.h>

#include "layout.hpp"
#include "platform.hpp"
#include "studio.hpp"

namespace tinkertoy::studio {

bool isShippedExample(const std::filesystem::path& file) { return isInDirectory(file, TINKERTOY_SCENES_DIR); }

void Studio::fileDialogs() {
  if (openDialog_) {
    ImGui::OpenPopup("Open a scene");
    openDialog_ = false;
    pathField_.clear();
    examples_ = listScenes(TINKERTOY_SCENES_DIR);
  }
  if (saveDialog_) {
    ImGui::OpenPopup("Save the scene as");
    saveDialog_ = false;
    // A shipped example is saved as a copy in the working directory, never over itself.
    pathField_ = !document_.file()                     ? "untitled.json"
                 : isShippedExample(*document_.file()) ? document_.file()->filename().string()
                                                       : document_.file()->string();
  }
  if (confirmDiscard_) {
    ImGui::OpenPopup("Unsaved changes");
    confirmDiscard_ = false;
  }
  const auto openPath = [this](const std::filesystem::path& file) {
    ImGui::CloseCurrentPopup();
    offerToOpen(file);
  };
  // A file in a list: a click selects it, a double click opens it.
  const auto choice = [&](const std::filesystem::path& file, const std::string& label) {
    if (ImGui::Selectable(label.c_str(), pathField_ == file.string(), ImGuiSelectableFlags_AllowDoubleClick)) {
      pathField_ = file.string();
      if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) openPath(file);
    }
  };
  const ImVec2 size(static_cast<float>(layout::kOpenDialog.x()), static_cast<float>(layout::kOpenDialog.y()));
  ImGui::SetNextWindowPos({static_cast<float>(window_.x()) / 2, static_cast<float>(window_.y()) / 2}, ImGuiCond_Always,
                          {0.5f, 0.5f});
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  if (ImGui::BeginPopupModal("Open a scene", nullptr, ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove)) {
    ImGui::SetNextItemWidth(size.x - 170);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // type a path at once
    const bool enter =
        ImGui::InputTextWithHint("##path", "a scene file's path", &pathField_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (enter || ImGui::Button("Open")) openPath(pathField_);
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    if (platform::hasFilePicker() && ImGui::Button("A scene file from this computer…")) {
      ImGui::CloseCurrentPopup();
      platform::pickFile();
    }
    ImGui::TextDisabled("Examples (%s): click to read about one, double-click to open it", TINKERTOY_SCENES_DIR);
    ImGui::BeginChild("examples", {0, static_cast<float>(layout::kOpenDialogList)}, true);
    const SceneEntry* selected = nullptr;
    for (const SceneEntry& scene : examples_) {
      choice(scene.file, scene.file.filename().string() + (scene.name.empty() ? "" : "  —  " + scene.name));
      if (pathField_ == scene.file.string()) selected = &scene;
    }
    ImGui::EndChild();
    ImGui::BeginChild("description", {0, 90}, false);
    if (selected) ImGui::TextWrapped("%s", selected->description.empty() ? "(no description)" : selected->description.c_str());
    ImGui::EndChild();
    if (!recent_.files().empty()) {
      ImGui::TextDisabled("Recent");
      for (const auto& file : recent_.files()) choice(file, file.string());
    }
    ImGui::EndPopup();
  }
  if (ImGui::BeginPopupModal("Save the scene as", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    if (document_.file() && isShippedExample(*document_.file())) {
      ImGui::TextUnformatted("This is a shipped example: save your version as a file of your own.");
    }
    ImGui::SetNextItemWidth(420);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // a name and Enter save
    const bool enter = ImGui::InputText("path", &pathField_, ImGuiInputTextFlags_EnterReturnsTrue);
    if (enter || ImGui::Button("Save")) {
      try {
        if (isShippedExample(pathField_)) throw SceneError(pathField_, "is a shipped example; save under another name");
        document_.saveAs(pathField_);
        platform::deliver(pathField_);
        recent_.add(pathField_);
        report("saved " + pathField_, false);
      } catch (const std::exception& e) {
        report(e.what(), true);
      }
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  if (ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::TextUnformatted("The scene has changes that are not saved. Discard them?");
    if (ImGui::Button("Discard")) {
      ImGui::CloseCurrentPopup();
      if (afterDiscard_) afterDiscard_();
      afterDiscard_ = nullptr;
    }
    ImGui::SameLine();
    if (ImGui::Button("Keep editing")) {
      afterDiscard_ = nullptr;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

}  // namespace tinkertoy::studio
