// Studio: the inspector — the selected item's entry in the scene file, field by field, each
// edit a change of the scene's JSON that the loader checks (docs/studio.md, "Inspector").
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "number_field.hpp"
#include "studio.hpp"

namespace tinkertoy::studio {

void Studio::inspector() {
  if (std::holds_alternative<std::monostate>(selected_)) {
    ImGui::TextDisabled("Click an item with the Drag tool to inspect it.");
    return;
  }
  const auto pointer = document_.locate(selected_);
  if (!pointer) {
    ImGui::TextDisabled("This item is not part of the scene file.");
    return;
  }
  const Json item = inspection_.of(document_, *pointer, session_.playing());  // a copy: an edit reloads it
  ImGui::TextDisabled("%s", pointer->to_string().c_str());
  // The fields under the item's own ID: ImGui keeps a field's text while it is being edited,
  // and a field of the same name on another item must not inherit it.
  ImGui::PushID(pointer->to_string().c_str());
  for (const auto& [key, value] : item.items()) inspectorField(*pointer / key, key, value);
  surfaceFields(*pointer, item);
  ImGui::PopID();
  if (const auto* constraint = std::get_if<ConstraintId>(&selected_)) {
    const std::span<const double> lambda = session_.simulator().lambda(*constraint);
    if (!lambda.empty()) ImGui::Text("λ[0] = %.6g (< 0: tension)", lambda[0]);
  }
  if (ImGui::Button("Delete")) remove(selected_);
  springForSelectedRod();
}

void Studio::inspectorField(const Json::json_pointer& at, const std::string& name, const Json& value) {
  const auto change = [&](Json replacement) { edit([&](Json& scene) { scene[at] = std::move(replacement); }); };
  if (value.is_object()) {  // a shape, a curve, a path: each of its fields on its own
    for (const auto& [key, inner] : value.items()) inspectorField(at / key, name + "." + key, inner);
  } else if (value.is_number()) {
    double v = value.get<double>();
    if (numberField(name.c_str(), v)) change(v);
  } else if (value.is_boolean()) {
    bool v = value.get<bool>();
    if (ImGui::Checkbox(name.c_str(), &v)) change(v);
  } else if (value.is_array() && !value.empty() && value.size() <= 3 &&
             std::all_of(value.begin(), value.end(), [](const Json& x) { return x.is_number(); })) {
    double v[3] = {0, 0, 0};
    for (std::size_t i = 0; i < value.size(); ++i) v[i] = value[i].get<double>();
    ImGui::InputScalarN(name.c_str(), ImGuiDataType_Double, v, static_cast<int>(value.size()), nullptr, nullptr, "%.6g");
    if (ImGui::IsItemDeactivatedAfterEdit()) change(Json(std::vector<double>(v, v + value.size())));
  } else if (value.is_string() && at.back() != "type") {
    // A formula (a constraint's C, a potential's V, a curve's x and y) or an id, taken when the
    // user is done with it: the loader derives the formula's J anew, or refuses the text with its
    // reason and caret, and the old text stays.
    std::string text = value.get<std::string>();
    ImGui::InputText(name.c_str(), &text);
    if (ImGui::IsItemDeactivatedAfterEdit()) change(text);
  } else if (value.is_string()) {
    ImGui::Text("%s: %s", name.c_str(), value.get<std::string>().c_str());
  } else if (value.is_null()) {
    ImGui::Text("%s: the world", name.c_str());
  } else if (value.is_array()) {  // a formula constraint's rows, a spline's points: each on its own
    for (std::size_t i = 0; i < value.size(); ++i) {
      inspectorField(at / i, name + "[" + std::to_string(i) + "]", value[i]);
    }
  } else {
    ImGui::TextWrapped("%s: %s", name.c_str(), value.dump().c_str());
  }
}

void Studio::surfaceFields(const Json::json_pointer& at, const Json& item) {
  const std::string type = item.value("type", "");
  const bool collides = type == RigidBodySettings::type ||
                        (type == ParticleSettings::type && document_.scene().model.dimension() == 2);
  if (!collides) return;
  const VelocitySettings& settings = document_.scene().settings.velocity;
  for (const auto& [name, fallback] : {std::pair<std::string, double>{"friction", settings.friction},
                                       std::pair<std::string, double>{"restitution", settings.restitution}}) {
    const std::string& key = name;  // a lambda takes a reference, not a structured binding (clang 14)
    if (item.contains(key)) continue;  // its own, shown with the rest
    double value = fallback;
    if (numberField((key + " (the scene's)").c_str(), value)) {
      edit([&](Json& scene) { scene[at / key] = value; });
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("how it collides: the settings' %s until it has its own (docs/scene-format.md, \"Collisions\")",
                        key.c_str());
    }
  }
}

}  // namespace tinkertoy::studio
