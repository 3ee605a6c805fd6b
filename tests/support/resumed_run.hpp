// A run resumed from a state file: the scene read again from its text, and a simulator of it
// restored from the state another simulator saved, for tests that step both and compare.
#pragma once

#include <string>

#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::testing_support {

struct ResumedRun {
  ResumedRun(const std::string& sceneText, const std::string& state)
      : scene(parseScene(sceneText)), simulator(scene.model, scene.settings) {
    simulator.restoreState(state);
  }
  Scene scene;
  Simulator simulator;  // of scene.model, which it keeps a reference to: a ResumedRun stays put
  ResumedRun(const ResumedRun&) = delete;
  ResumedRun& operator=(const ResumedRun&) = delete;
};

}  // namespace tinkertoy::testing_support
