// InputScript: reading and replaying scripted input (input_script.hpp).
#include "input_script.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tinkertoy::studio {

namespace {

using Json = nlohmann::json;

Eigen::Vector2d point(const Json& value, const std::string& where) {
  if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number()) {
    throw ScriptError(where + ": must be [x, y]");
  }
  return {value[0].get<double>(), value[1].get<double>()};
}

int button(const Json& value, const std::string& where) {
  static const std::map<std::string, int> kButtons{{"left", 0}, {"right", 1}, {"middle", 2}};
  if (value.is_string()) {
    if (auto b = kButtons.find(value.get<std::string>()); b != kButtons.end()) return b->second;
  }
  throw ScriptError(where + ": must be \"left\", \"right\" or \"middle\"");
}

ScriptEvent event(const Json& e, const std::string& where) {
  if (!e.is_object()) throw ScriptError(where + ": must be an object");
  if (!e.contains("t") || !e["t"].is_number() || e["t"].get<double>() < 0) {
    throw ScriptError(where + ".t: must be a time in seconds, ≥ 0");
  }
  ScriptEvent out;
  out.time = e["t"].get<double>();
  std::vector<std::string> actions;
  for (const auto& [key, value] : e.items()) {
    if (key != "t") actions.push_back(key);
  }
  if (actions.size() != 1) throw ScriptError(where + ": needs exactly one action besides \"t\"");
  const std::string& action = actions[0];
  const Json& value = e[action];
  const std::string at = where + "." + action;
  if (action == "click" || action == "mouse" || action == "mouse_px") {
    out.kind = action == "click" ? ScriptEvent::Kind::Click : ScriptEvent::Kind::Move;
    out.position = point(value, at);
    out.pixels = action == "mouse_px";
  } else if (action == "press" || action == "release") {
    out.kind = action == "press" ? ScriptEvent::Kind::Press : ScriptEvent::Kind::Release;
    out.button = button(value, at);
  } else if (action == "key") {
    if (!value.is_string()) throw ScriptError(at + ": must be a key name such as \"space\" or \"ctrl+z\"");
    out.kind = ScriptEvent::Kind::Key;
    std::stringstream parts(value.get<std::string>());
    std::string part, key;
    while (std::getline(parts, part, '+')) {
      if (!key.empty()) {
        if (key == "ctrl") {
          out.ctrl = true;
        } else if (key == "shift") {
          out.shift = true;
        } else if (key == "alt") {
          out.alt = true;
        } else {
          throw ScriptError(at + ": unknown modifier '" + key + "' (ctrl, shift, alt)");
        }
      }
      key = part;
    }
    const std::optional<int> code = keyCode(key);
    if (!code) throw ScriptError(at + ": unknown key '" + value.get<std::string>() + "'");
    out.key = *code;
  } else if (action == "tool") {
    const std::optional<Tool> tool = value.is_string() ? toolNamed(value.get<std::string>()) : std::nullopt;
    if (!tool) throw ScriptError(at + ": must be one of " + toolNames());
    out.kind = ScriptEvent::Kind::Tool;
    out.tool = *tool;
  } else if (action == "scroll") {
    if (!value.is_number()) throw ScriptError(at + ": must be a number of wheel notches");
    out.kind = ScriptEvent::Kind::Scroll;
    out.amount = value.get<double>();
  } else if (action == "open" || action == "text") {
    if (!value.is_string()) throw ScriptError(at + (action == "open" ? ": must be a file path" : ": must be a string"));
    out.kind = action == "open" ? ScriptEvent::Kind::Open : ScriptEvent::Kind::Text;
    out.name = value.get<std::string>();
  } else {
    throw ScriptError(at + ": unknown action (click, mouse, mouse_px, press, release, key, tool, scroll, open, text)");
  }
  return out;
}

}  // namespace

InputScript InputScript::load(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::ifstream in(file);
  if (!in) throw ScriptError(name + ": cannot open the script");
  Json json;
  try {
    json = Json::parse(in);
  } catch (const Json::parse_error& e) {
    throw ScriptError(name + ": malformed JSON: " + e.what());
  }
  if (!json.is_object() || !json.contains("events") || !json["events"].is_array()) {
    throw ScriptError(name + ": must be an object with an \"events\" array");
  }
  for (const auto& [key, value] : json.items()) {
    if (key != "events") throw ScriptError(name + ": " + key + ": unknown field");
  }
  InputScript script;
  for (std::size_t i = 0; i < json["events"].size(); ++i) {
    try {
      script.events_.push_back(event(json["events"][i], "events[" + std::to_string(i) + "]"));
    } catch (const ScriptError& e) {
      throw ScriptError(name + ": " + e.what());
    }
  }
  std::stable_sort(script.events_.begin(), script.events_.end(),
                   [](const ScriptEvent& a, const ScriptEvent& b) { return a.time < b.time; });
  return script;
}

std::vector<ScriptEvent> InputScript::take(double t) {
  std::vector<ScriptEvent> due;
  while (next_ < events_.size() && events_[next_].time <= t) due.push_back(events_[next_++]);
  return due;
}

std::optional<int> keyCode(const std::string& name) {
  if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') return GLFW_KEY_A + (name[0] - 'a');
  if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') return GLFW_KEY_0 + (name[0] - '0');
  static const std::map<std::string, int> kNamed{
      {"space", GLFW_KEY_SPACE}, {"delete", GLFW_KEY_DELETE}, {"backspace", GLFW_KEY_BACKSPACE},
      {"escape", GLFW_KEY_ESCAPE}, {"enter", GLFW_KEY_ENTER},  {"tab", GLFW_KEY_TAB},
      {"left", GLFW_KEY_LEFT},     {"right", GLFW_KEY_RIGHT},  {"up", GLFW_KEY_UP},
      {"down", GLFW_KEY_DOWN},     {"f1", GLFW_KEY_F1},        {"f9", GLFW_KEY_F9},
      {"f12", GLFW_KEY_F12}};
  if (auto k = kNamed.find(name); k != kNamed.end()) return k->second;
  return std::nullopt;
}

}  // namespace tinkertoy::studio
