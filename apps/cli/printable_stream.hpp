// PrintableStreambuf: passes text on to another stream buffer with its control characters made
// visible, so that a name or a path holding terminal escape codes ("\x1b[2J") is shown, not
// obeyed, and with every byte that is not part of well-formed UTF-8 shown as "\xHH", so that what
// the command writes is valid UTF-8 whatever bytes a scene or an argument holds. Newlines and
// tabs pass; every other byte below 0x20, and DEL, becomes "\xHH". Well-formed UTF-8 sequences
// pass, so λ, ‖ and ᵀ print as themselves.
//
//   PrintableStreambuf printable(std::cerr.rdbuf());
//   std::ostream err(&printable);          // messages go here
//   markEscaped(err, printable);           // so that unescaped(err) finds std::cerr's buffer:
//   unescaped(err)                         // what the progress bar's own escapes are written to
#pragma once

#include <cstdio>
#include <ostream>
#include <streambuf>
#include <string>

#include "common/utf8.hpp"

namespace tinkertoy::cli {

class PrintableStreambuf : public std::streambuf {
 public:
  explicit PrintableStreambuf(std::streambuf* target) : target_(target) {}
  PrintableStreambuf(const PrintableStreambuf&) = delete;
  PrintableStreambuf& operator=(const PrintableStreambuf&) = delete;
  ~PrintableStreambuf() override { flushPending(); }
  [[nodiscard]] std::streambuf* target() const { return target_; }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    const auto byte = static_cast<unsigned char>(traits_type::to_char_type(ch));
    if (!pending_.empty() && (byte & 0xC0) != 0x80) flushPending();  // a sequence cut short
    if (byte >= 0x80) {
      pending_ += static_cast<char>(byte);
      // Complete once its lead byte's length is there (or at once if the lead is no lead).
      if (detail::utf8SequenceLength(pending_, 0) == pending_.size() || pending_.size() == 4 ||
          ((byte & 0xC0) != 0x80 && byte < 0xC2)) {
        if (!flushPending()) return traits_type::eof();
      }
      return ch;
    }
    if ((byte >= 0x20 && byte != 0x7f) || byte == '\n' || byte == '\t') {
      return target_->sputc(static_cast<char>(byte)) == traits_type::eof() ? traits_type::eof() : ch;
    }
    return write(escaped(byte)) ? ch : traits_type::eof();
  }
  int sync() override {
    flushPending();
    return target_->pubsync();
  }

 private:
  static std::string escaped(unsigned char byte) {
    char text[5];
    std::snprintf(text, sizeof text, "\\x%02x", byte);
    return text;
  }
  bool write(const std::string& text) {
    return target_->sputn(text.data(), static_cast<std::streamsize>(text.size())) == static_cast<std::streamsize>(text.size());
  }
  // The bytes held back while a UTF-8 sequence arrives: as they are if they are one, else escaped.
  bool flushPending() {
    if (pending_.empty()) return true;
    const std::string text = detail::printableUtf8(pending_);
    pending_.clear();
    return write(text);
  }

  std::streambuf* target_;
  std::string pending_;  // bytes of a UTF-8 sequence not yet complete
};

// The slot of a stream's private storage (std::ios_base::pword) that names the buffer behind its
// escaping, if any.
inline int escapedTargetSlot() {
  static const int slot = std::ios_base::xalloc();
  return slot;
}

// Notes on `stream`, which writes through `printable`, the buffer behind the escaping.
inline void markEscaped(std::ostream& stream, const PrintableStreambuf& printable) {
  stream.pword(escapedTargetSlot()) = printable.target();
}

// The buffer that writes to the terminal unescaped: the one behind a stream markEscaped noted,
// else the stream's own.
inline std::streambuf* unescaped(std::ostream& stream) {
  if (void* target = stream.pword(escapedTargetSlot())) return static_cast<std::streambuf*>(target);
  return stream.rdbuf();
}

}  // namespace tinkertoy::cli
