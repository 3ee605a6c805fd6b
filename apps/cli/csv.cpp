// CSV fields and records (csv.hpp).
#include "csv.hpp"

#include <stdexcept>

namespace tinkertoy::cli {

std::string csvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

namespace {

// std::getline that gives up on a line longer than `limit` bytes, so that a file without line
// ends (/dev/zero) is not read until memory runs out. `total` counts the record's bytes so far.
bool readLine(std::istream& in, std::string& text, std::size_t& total, std::size_t limit, std::size_t line) {
  text.clear();
  char chunk[4096];
  for (;;) {
    in.getline(chunk, sizeof chunk);
    const auto got = static_cast<std::size_t>(in.gcount());
    const bool whole = !in.fail() || in.eof();  // a line end or the end of the input was reached
    text.append(chunk, whole && got > 0 && !in.eof() ? got - 1 : got);  // gcount counts the '\n'
    total += got;
    if (total > limit) {
      throw std::runtime_error("line " + std::to_string(line) + ": a record longer than the limit of " +
                               std::to_string(limit >> 20) + " MiB");
    }
    if (whole) return !text.empty() || got > 0 || !in.eof();
    in.clear();  // the chunk filled up: the line goes on
  }
}

}  // namespace

std::optional<std::vector<std::string>> readCsvRecord(std::istream& in, std::size_t& line) {
  std::string text;
  std::size_t total = 0;
  if (!readLine(in, text, total, kMaxCsvRecordBytes, line)) return std::nullopt;
  const std::size_t opened = line;
  ++line;
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0;; ++i) {
    if (i == text.size()) {
      if (!quoted) break;
      // A newline inside quotes belongs to the field; the record goes on on the next line.
      std::string more;
      if (!readLine(in, more, total, kMaxCsvRecordBytes, opened)) {
        throw std::runtime_error("line " + std::to_string(opened) + ": a quoted field is not closed");
      }
      ++line;
      fields.back() += '\n';
      text = std::move(more);
      i = static_cast<std::size_t>(-1);
      continue;
    }
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        fields.back() += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r' || i + 1 != text.size()) {
      fields.back() += c;
    }
  }
  return fields;
}

}  // namespace tinkertoy::cli
