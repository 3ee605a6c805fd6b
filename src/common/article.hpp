// "a revolute", "an angle": a word with its indefinite article, for messages that name a type
// ("a " + type reads "a angle joint"). The type names are English words; a vowel letter starts
// every one that takes "an".
#pragma once

#include <string>
#include <string_view>

namespace tinkertoy::detail {

inline std::string withArticle(std::string_view word) {
  const bool vowel = !word.empty() && std::string_view("aeiouAEIOU").find(word.front()) != std::string_view::npos;
  std::string text(vowel ? "an " : "a ");
  text += word;
  return text;
}

}  // namespace tinkertoy::detail
