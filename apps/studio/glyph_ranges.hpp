// The Unicode ranges the Studio's font is loaded with: every character the panels and the
// library's messages use (tests/studio/glyph_ranges_test.cpp scans the sources for them, and
// checks that DejaVu Sans draws each one).
//
//   Basic Latin and Latin-1         the ASCII letters, and ×, ², ½, ·, …
//   Latin Extended-A                Ċ
//   Combining diacritical marks     the dots of q̇ and C̈
//   Greek                           λ, ω, θ, κ, …
//   Phonetic extensions             ᵀ of Jᵀ
//   General punctuation             ‖, —, …, ′
//   Superscripts and subscripts     ⁻¹, ₙ
//   Letterlike symbols, arrows, mathematical operators, miscellaneous technical
//
//   for (const GlyphRange& r : kStudioGlyphRanges) { /* add [r.first, r.last] to the font atlas */ }
#pragma once

#include <array>

namespace tinkertoy::studio {

struct GlyphRange {
  char32_t first, last;  // inclusive
};

inline constexpr std::array<GlyphRange, 11> kStudioGlyphRanges = {{
    {0x0020, 0x00FF},  // Basic Latin, Latin-1 Supplement
    {0x0100, 0x017F},  // Latin Extended-A (Ċ)
    {0x0300, 0x036F},  // Combining Diacritical Marks
    {0x0370, 0x03FF},  // Greek and Coptic
    {0x1D00, 0x1D7F},  // Phonetic Extensions
    {0x2000, 0x206F},  // General Punctuation
    {0x2070, 0x209F},  // Superscripts and Subscripts
    {0x2100, 0x214F},  // Letterlike Symbols
    {0x2190, 0x21FF},  // Arrows
    {0x2200, 0x22FF},  // Mathematical Operators
    {0x2300, 0x23FF},  // Miscellaneous Technical
}};

// The font the Studio draws its text with, when it is installed (Debian's fonts-dejavu-core).
inline constexpr const char* kStudioFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
// Its monospaced companion, for a formula and the caret under it (message_lines.hpp).
inline constexpr const char* kStudioMonospacedFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

[[nodiscard]] constexpr bool inStudioGlyphRanges(char32_t c) {
  for (const GlyphRange& r : kStudioGlyphRanges) {
    if (c >= r.first && c <= r.last) return true;
  }
  return false;
}

}  // namespace tinkertoy::studio
