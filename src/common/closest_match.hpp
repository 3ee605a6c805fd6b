// closestMatch: the known word a typo was meant to be ("did you mean 'duration'?"), for the
// scene loader's unknown keys and types and the command line's unknown flags and commands.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace tinkertoy {

// The known word closest to `word` by edit distance (Levenshtein: insertions, deletions and
// substitutions), if it is close enough to be a typo: at most max(2, |word|/3) edits.
std::optional<std::string_view> closestMatch(std::string_view word, std::span<const std::string_view> known);

}  // namespace tinkertoy
