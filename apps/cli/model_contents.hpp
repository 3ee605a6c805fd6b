// What a model holds, in the words the command line prints.
#pragma once

#include <cstddef>
#include <string>

#include "tinkertoy/model/model.hpp"

namespace tinkertoy::cli {

// The number of particles (bodies of type "particle").
std::size_t countParticles(const Model& model);
// "3 particles, 1 body, 4 constraints": bodies other than particles are listed only if any.
std::string describeContents(const Model& model);

}  // namespace tinkertoy::cli
