// The text of a large scene, for measuring how loading scales and for running the command line
// out of memory: a row of double pendulums hanging at rest, 1 m apart, `particles` particles of
// 1 kg in all (an even number), each hanging by a rod: the upper one of each pair from a fixed
// point, the lower one from the upper. As many rods as particles, half of them naming two
// particles by id. Written compactly, about 110 bytes per particle and rod. The solve is easy
// (J W Jᵀ is the same 2×2 block for every pair), so stepping it costs little.
//
//   const std::string text = pendulumRowSceneText(260000);  // 29 MB
//   Scene scene = parseScene(text);
#pragma once

#include <string>

namespace tinkertoy::bench {

std::string pendulumRowSceneText(int particles);

}  // namespace tinkertoy::bench
