// UTF-8 in messages (utf8.hpp). Well-formed sequences as RFC 3629 defines them: a lead byte C2–F4,
// continuation bytes 80–BF, no overlong forms (E0 needs A0–BF next, F0 needs 90–BF), no
// surrogates (ED needs 80–9F), nothing above U+10FFFF (F4 needs 80–8F).
#include "common/utf8.hpp"

#include <cstdio>

namespace tinkertoy::detail {

std::size_t utf8SequenceLength(std::string_view text, std::size_t at) {
  if (at >= text.size()) return 0;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[at + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > text.size() || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  }
  return length;
}

namespace {

std::string escaped(unsigned char byte) {
  char text[5];
  std::snprintf(text, sizeof text, "\\x%02x", byte);
  return text;
}

}  // namespace

bool isUtf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8SequenceLength(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

namespace {

// The bytes of the character at `at` that a message shows as they are: a well-formed sequence
// that is not a control character; 0 for one it escapes.
std::size_t shownLength(std::string_view text, std::size_t at) {
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte < 0x20 || byte == 0x7f) return 0;
  return utf8SequenceLength(text, at);
}

}  // namespace

std::string utf8CharacterAt(std::string_view text, std::size_t at) {
  if (at >= text.size()) return {};
  const std::size_t length = shownLength(text, at);
  return length > 0 ? std::string(text.substr(at, length)) : escaped(static_cast<unsigned char>(text[at]));
}

std::string printableUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = shownLength(text, at);
    out += length > 0 ? text.substr(at, length) : escaped(static_cast<unsigned char>(text[at]));
    at += length > 0 ? length : 1;
  }
  return out;
}

std::size_t utf8ColumnOf(std::string_view text, std::size_t at) {
  std::size_t column = 0;
  for (std::size_t k = 0; k < at && k < text.size();) {
    const std::size_t length = shownLength(text, k);
    column += length > 0 ? 1 : 4;
    k += length > 0 ? length : 1;
  }
  return column;
}

std::string nameProblem(std::string_view name) {
  if (name.find('\0') != std::string_view::npos) return "holds a NUL byte";
  if (!isUtf8(name)) return "is not UTF-8 text";
  return {};
}

}  // namespace tinkertoy::detail
