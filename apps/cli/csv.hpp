// CSV as RFC 4180 writes it: a field holding a comma, a double quote, a carriage return or a
// newline is quoted, its quotes doubled. The trajectory's header names bodies by their ids,
// which are the user's text, so `tinkertoy run` writes and `tinkertoy plot` reads it this way.
//
//   out << csvField("a,b");                      // "a,b" with its quotes
//   std::size_t line = 1;
//   while (auto record = readCsvRecord(in, line)) …
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tinkertoy::cli {

// The field as CSV: itself, or quoted.
std::string csvField(std::string_view text);

// A record (a line, or lines joined by a quoted field) longer than this is refused: 64 MiB, a
// trajectory row of about 700 000 particles.
inline constexpr std::size_t kMaxCsvRecordBytes = std::size_t{64} << 20;

// The next record (its fields unquoted), or nothing at the end of the input. A quoted field may
// span lines; `line` counts the lines read (1 before the first). A quote left open, or a record
// longer than kMaxCsvRecordBytes, is a std::runtime_error naming the line it opened on.
std::optional<std::vector<std::string>> readCsvRecord(std::istream& in, std::size_t& line);

}  // namespace tinkertoy::cli
