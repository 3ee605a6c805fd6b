// Checks on JSON text before a parser sees it, made piece by piece as the text arrives: no NUL
// byte (nlohmann's lexer would take one for the end of the input) and nesting at most
// kMaxJsonDepth deep (no scene needs more than a dozen levels). One pass, constant memory, so a
// file of 10⁵ '[' or an endless /dev/zero is refused after its first bytes, not after the whole
// of it has been read and parsed.
//
//   JsonTextCheck check;
//   for (std::string_view piece : pieces) {
//     if (std::string problem = check.feed(piece); !problem.empty()) return refuse(problem);
//   }
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tinkertoy::scene {

inline constexpr int kMaxJsonDepth = 64;

class JsonTextCheck {
 public:
  // The next piece of the text. Returns "" or what is wrong, with its line and column; once a
  // problem is found, every later call returns it again.
  std::string feed(std::string_view piece);

 private:
  [[nodiscard]] std::string where() const;  // "line L, column C" of the last character

  std::string problem_;
  int depth_ = 0;
  bool inString_ = false, escaped_ = false;
  std::size_t line_ = 1, column_ = 0;
};

// The whole of `text` through one JsonTextCheck.
std::string checkJsonText(std::string_view text);

}  // namespace tinkertoy::scene
