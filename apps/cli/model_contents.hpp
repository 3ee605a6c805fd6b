// What a model holds, in the words the command line prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tinkertoy/model/model.hpp"

namespace tinkertoy::cli {

// "1 step", "2 steps": n and the noun in the number it takes (`plural` for irregular nouns).
std::string counted(std::uint64_t n, std::string_view singular);
std::string counted(std::uint64_t n, std::string_view singular, std::string_view plural);

// The number of particles (bodies of type "particle").
std::size_t countParticles(const Model& model);
// "3 particles, 1 body, 4 constraints": bodies other than particles are listed only if any.
std::string describeContents(const Model& model);

}  // namespace tinkertoy::cli
