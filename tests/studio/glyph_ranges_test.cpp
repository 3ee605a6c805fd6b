// Every character the Studio can show is in the font it loads (issue #15: the error banner read
// "J W J? is singular", ᵀ missing from the glyph ranges). The messages come from the library and
// the Studio, so the test reads their sources: every non-ASCII character inside a string literal
// under src/, include/ and apps/ must be in kStudioGlyphRanges, and DejaVu Sans must draw it
// (FreeType finds a glyph for it, not the missing-glyph box).
#include <gtest/gtest.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>

#include "glyph_ranges.hpp"

namespace tinkertoy::studio {
namespace {

// The code point starting at text[i] (UTF-8), and how many bytes it takes; 0 bytes if malformed.
std::pair<char32_t, int> decode(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) return {0, 0};
  char32_t c = length == 1 ? lead : lead & (0x7F >> length);
  for (int k = 1; k < length; ++k) c = (c << 6) | (byte(i + k) & 0x3F);
  return {c, length};
}

// Non-ASCII characters inside "…" literals of a C++ source, with where each was first seen.
// Comments outside literals are skipped; raw strings and character literals are not needed here.
void collect(const std::filesystem::path& file, std::map<char32_t, std::string>& found) {
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    bool inString = false;
    for (std::size_t i = 0; i < line.size();) {
      const char c = line[i];
      if (!inString && c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
      if (c == '\\' && inString) {
        i += 2;
        continue;
      }
      if (c == '"') inString = !inString;
      const auto [point, length] = decode(line, i);
      if (inString && point >= 0x80) found.emplace(point, file.string() + ":" + std::to_string(number));
      i += length > 0 ? length : 1;
    }
  }
}

std::map<char32_t, std::string> charactersInMessages() {
  std::map<char32_t, std::string> found;
  const std::filesystem::path root(TINKERTOY_SOURCE_DIR);
  for (const char* folder : {"src", "include", "apps"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
      const std::string extension = entry.path().extension().string();
      if (extension == ".cpp" || extension == ".hpp") collect(entry.path(), found);
    }
  }
  return found;
}

std::string hex(char32_t c) {
  std::ostringstream text;
  text << "U+" << std::hex << std::uppercase << std::setw(4) << std::setfill('0') << static_cast<unsigned>(c);
  return text.str();
}

TEST(GlyphRanges, CoverEveryCharacterOfTheMessages) {
  const std::map<char32_t, std::string> found = charactersInMessages();
  ASSERT_TRUE(found.count(U'ᵀ')) << "the scan must see the singular-matrix message's ᵀ";
  for (const auto& [c, where] : found) EXPECT_TRUE(inStudioGlyphRanges(c)) << hex(c) << " (first at " << where << ")";
}

TEST(GlyphRanges, TheStudioFontDrawsEveryOne) {
  ASSERT_TRUE(std::filesystem::exists(kStudioFont)) << kStudioFont << " (scripts/install-deps.sh installs fonts-dejavu-core)";
  FT_Library library = nullptr;
  ASSERT_EQ(FT_Init_FreeType(&library), 0);
  FT_Face face = nullptr;
  ASSERT_EQ(FT_New_Face(library, kStudioFont, 0, &face), 0);
  int checked = 0;
  for (const auto& [c, where] : charactersInMessages()) {
    EXPECT_NE(FT_Get_Char_Index(face, c), 0u) << hex(c) << " (first at " << where << ") has no glyph in " << kStudioFont;
    ++checked;
  }
  EXPECT_GE(checked, 10) << "the scan must find the messages' characters (13 when written)";
  FT_Done_Face(face);
  FT_Done_FreeType(library);
}

}  // namespace
}  // namespace tinkertoy::studio
