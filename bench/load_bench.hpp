// How loading scales with the scene's size: parseScene on pendulumRowSceneText(N) (bench/
// pendulum_row_scene.hpp), the text already in memory, N particles and N rods, N from 10k to 260k,
// in CPU time. Google Benchmark fits the times to O(N): the coefficient is the time per particle
// and rod, and the RMS says how far from linear the times are (bench/RESULTS.md).
#pragma once

namespace tinkertoy::bench {

void registerLoading();

}  // namespace tinkertoy::bench
