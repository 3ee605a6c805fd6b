// Checks on JSON text before parsing (json_text_check.hpp). Brackets inside strings do not
// count, so the check follows strings and their escapes; a column counts characters, not the
// continuation bytes of UTF-8.
#include "scene/json_text_check.hpp"

namespace tinkertoy::scene {

std::string JsonTextCheck::where() const {
  return "line " + std::to_string(line_) + ", column " + std::to_string(column_);
}

std::string JsonTextCheck::feed(std::string_view piece) {
  if (!problem_.empty()) return problem_;
  for (const char c : piece) {
    if (c == '\n') {
      ++line_;
      column_ = 0;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++column_;
    }
    if (c == '\0') return problem_ = "a NUL byte at " + where() + ": a scene is JSON text";
    if (inString_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        inString_ = false;
      }
      continue;
    }
    if (c == '"') {
      inString_ = true;
    } else if (c == '[' || c == '{') {
      if (++depth_ > kMaxJsonDepth) {
        return problem_ = "arrays and objects nested more than " + std::to_string(kMaxJsonDepth) + " deep at " + where() +
                          "; no scene needs more than a dozen levels";
      }
    } else if ((c == ']' || c == '}') && depth_ > 0) {
      --depth_;
    }
  }
  return {};
}

std::string checkJsonText(std::string_view text) { return JsonTextCheck().feed(text); }

}  // namespace tinkertoy::scene
