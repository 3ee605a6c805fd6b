// PrintableStreambuf: passes text on to another stream buffer with its control characters made
// visible, so that a name or a path holding terminal escape codes ("\x1b[2J") is shown, not
// obeyed. Newlines and tabs pass; every other byte below 0x20, and DEL, becomes "\xHH". Bytes of
// UTF-8 sequences (0x80 and up) pass, so λ, ‖ and ᵀ print as themselves.
//
//   PrintableStreambuf printable(std::cerr.rdbuf());
//   std::ostream err(&printable);          // messages go here
//   printable.target()                     // what the progress bar's own escapes are written to
#pragma once

#include <cstdio>
#include <streambuf>

namespace tinkertoy::cli {

class PrintableStreambuf : public std::streambuf {
 public:
  explicit PrintableStreambuf(std::streambuf* target) : target_(target) {}
  [[nodiscard]] std::streambuf* target() const { return target_; }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    const auto byte = static_cast<unsigned char>(traits_type::to_char_type(ch));
    if ((byte >= 0x20 && byte != 0x7f) || byte == '\n' || byte == '\t') {
      return target_->sputc(static_cast<char>(byte)) == traits_type::eof() ? traits_type::eof() : ch;
    }
    char escaped[5];
    std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
    return target_->sputn(escaped, 4) == 4 ? ch : traits_type::eof();
  }
  int sync() override { return target_->pubsync(); }

 private:
  std::streambuf* target_;
};

}  // namespace tinkertoy::cli
