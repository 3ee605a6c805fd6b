// The message banner's lines. A formula error ends with the formula and a caret under the
// character at fault (src/formula/formula.cpp); the caret is placed by counting characters, so
// those two lines must be drawn in a monospaced font, or it points at the wrong character.
//
//   for (const MessageLine& line : messageLines(message)) { /* line.code: monospaced */ }
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tinkertoy::studio {

struct MessageLine {
  std::string text;
  bool code = false;  // part of a formula-and-caret block
};

// A caret line: spaces, then one '^'.
inline bool isCaretLine(std::string_view line) {
  const std::size_t caret = line.find_first_not_of(' ');
  return caret != std::string_view::npos && caret + 1 == line.size() && line[caret] == '^';
}

// The message split at its line breaks; a caret line and the line above it are code.
inline std::vector<MessageLine> messageLines(std::string_view message) {
  std::vector<MessageLine> lines;
  for (std::size_t start = 0;;) {
    const std::size_t end = message.find('\n', start);
    lines.push_back({std::string(message.substr(start, end - start)), false});
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (isCaretLine(lines[i].text)) lines[i].code = lines[i - 1].code = true;
  }
  return lines;
}

}  // namespace tinkertoy::studio
