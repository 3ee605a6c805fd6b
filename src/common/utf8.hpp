// UTF-8 in messages. A message quotes the user's text (a formula, a name, a path); cut at the
// wrong byte, or holding bytes that are not UTF-8, it would make the whole message invalid
// UTF-8 (a terminal shows garbage, Python refuses to decode it). These keep quoted text whole
// and valid.
//
//   utf8SequenceLength("x−1", 1)   3: U+2212 takes three bytes
//   printableUtf8("a\xffb\n")       "a\\xffb\\x0a": a byte that is not UTF-8, and a control
//                                   character, shown as escapes
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tinkertoy::detail {

// The length (1 to 4) of the well-formed UTF-8 sequence that starts at byte `at` of `text`, or 0
// if none does (a stray continuation byte, an overlong or truncated sequence, a surrogate).
std::size_t utf8SequenceLength(std::string_view text, std::size_t at);

// Whether all of `text` is well-formed UTF-8.
bool isUtf8(std::string_view text);

// Why `name` cannot name a body or constraint ("holds a NUL byte", "is not UTF-8 text"), or "":
// a name shows in messages and is an id in scene files, so it is text.
std::string nameProblem(std::string_view name);

// The character that starts at byte `at`, as a message quotes it: its whole UTF-8 sequence, or
// "\xHH" for a byte that begins none and for a control character (NUL, ESC, a line break: a
// quoted NUL would end the message where C strings end).
std::string utf8CharacterAt(std::string_view text, std::size_t at);

// `text` as a message quotes it: every character as utf8CharacterAt gives it.
std::string printableUtf8(std::string_view text);

// The characters (code points, an escaped byte counting as its four) of printableUtf8(text)
// before byte `at` of text: where a caret under byte `at` goes.
std::size_t utf8ColumnOf(std::string_view text, std::size_t at);

}  // namespace tinkertoy::detail
