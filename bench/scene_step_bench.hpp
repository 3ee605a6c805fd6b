// A shipped scene stepped in a plain C++ loop from its initial state: the reference that
// bench/python_bench.py measures tinkertoy.Simulator.step() and run() from Python against.
#pragma once

namespace tinkertoy::bench {

// scene_step/double_pendulum: scenes/double_pendulum.json with its own settings (RK4, CG, 1 ms),
// 20 000 steps (20 s) per iteration, one iteration per repetition.
void registerSceneSteps();

}  // namespace tinkertoy::bench
