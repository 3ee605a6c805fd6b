#include "peer_world.hpp"

namespace tinkertoy::bench {

// The TINKERTOY_WITH_* definitions come from bench/peers/CMakeLists.txt, one per peer engine
// found when the build was configured.
std::vector<EngineMode> engineModes() {
  std::vector<EngineMode> modes = tinkertoyModes();
  const auto append = [&](std::vector<EngineMode> more) {
    for (EngineMode& m : more) modes.push_back(std::move(m));
  };
#ifdef TINKERTOY_WITH_BOX2D
  append(box2dModes());
#endif
#ifdef TINKERTOY_WITH_CHIPMUNK
  append(chipmunkModes());
#endif
#ifdef TINKERTOY_WITH_ODE
  append(odeModes());
#endif
#ifdef TINKERTOY_WITH_BULLET
  append(bulletModes());
#endif
#ifdef TINKERTOY_WITH_MUJOCO
  append(mujocoModes());
#endif
  (void)append;
  return modes;
}

}  // namespace tinkertoy::bench
