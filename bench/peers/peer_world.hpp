// PeerWorld: one engine's world built from a benchmark Scenario (bench/scenario.hpp), as the
// peer benchmark drives it: step it, read its state back in the scenario's body order. The
// harness (peer_bench.cpp) times step() alone, in CPU time, and measures every state with the
// scenario's own constraintError() and energy(), so every engine is judged the same way.
//
// Each engine's driver (box2d_world.cpp, chipmunk_world.cpp, ode_world.cpp, bullet_world.cpp,
// mujoco_world.cpp, tinkertoy_world.cpp) offers one or more EngineModes: a way of running that
// engine (a solver, an iteration count, a formulation), the scenarios it can build, and a
// factory. A mode that cannot express a scenario (a 2D engine and the 3D cloth) says so in
// supports() and is left out of that scenario's rows.
//
//   for (const EngineMode& mode : engineModes()) {
//     if (!mode.supports(scenario)) continue;
//     std::unique_ptr<PeerWorld> world = mode.build(scenario);
//     world->step();
//     world->read(state);
//   }
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace tinkertoy::bench {

class PeerWorld {
 public:
  virtual ~PeerWorld() = default;
  // Advances the world by scenario.dt (with the mode's substeps, if any).
  virtual void step() = 0;
  // The state of every body [scenario.bodyCount()], in the scenario's order: each particle, or
  // each disc, where the engine has it now.
  virtual void read(std::span<BodyState> out) const = 0;
  // The mass of every body as the engine holds it [scenario.bodyCount()], kg; 0 for a body the
  // engine holds fixed by infinite mass (a static disc, or a nailed particle in an engine that
  // nails that way). The peer test compares these with the scenario's.
  virtual void masses(std::span<double> out) const = 0;
};

struct EngineMode {
  std::string engine;  // "box2d 2.4", "tinkertoy"
  std::string mode;    // "8/3 iterations", "exact"
  bool isTinkertoy = false;
  std::function<bool(const Scenario&)> supports;
  std::function<std::unique_ptr<PeerWorld>(const Scenario&)> build;
  int threads = 1;  // more than one: its wall time is its cost (its CPU time counts every thread)
};

// Every mode of every engine built into this binary (the peers found at configure time), in a
// fixed order: Tinkertoy's modes first.
std::vector<EngineMode> engineModes();

// Each driver's modes; defined by its own file, listed by engineModes() when it was built.
std::vector<EngineMode> tinkertoyModes();
std::vector<EngineMode> box2dModes();
std::vector<EngineMode> chipmunkModes();
std::vector<EngineMode> odeModes();
std::vector<EngineMode> bulletModes();
std::vector<EngineMode> mujocoModes();

}  // namespace tinkertoy::bench
