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

std::optional<std::vector<std::string>> readCsvRecord(std::istream& in, std::size_t& line) {
  std::string text;
  if (!std::getline(in, text)) return std::nullopt;
  const std::size_t opened = line;
  ++line;
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0;; ++i) {
    if (i == text.size()) {
      if (!quoted) break;
      // A newline inside quotes belongs to the field; the record goes on on the next line.
      std::string more;
      if (!std::getline(in, more)) {
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
