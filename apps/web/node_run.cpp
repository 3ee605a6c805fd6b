// tinkertoy-node: the engine compiled to WebAssembly, run by node (the browser build's first
// program, web/CMakeLists.txt). Loads a scene, takes STEPS steps of its settings, and prints the
// state it ends at, q then v, one number a line to the last bit, which
// tests/web/node_engine_test.cpp compares with the native build's.
//
//   node --no-experimental-fetch build/web/tinkertoy-node.js scenes/pendulum.json 120
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "tinkertoy/scene/scene.hpp"

namespace {

int run(const char* file, const char* stepsText) {
  char* end = nullptr;
  const long steps = std::strtol(stepsText, &end, 10);
  if (*stepsText == '\0' || *end != '\0' || steps < 0 || steps > 100000000) {
    std::fprintf(stderr, "tinkertoy-node: STEPS: must be a whole number from 0 to 100000000, got '%s'\n", stepsText);
    return 2;
  }
  tinkertoy::Scene scene = tinkertoy::loadScene(file);
  tinkertoy::Simulator simulator(scene.model, scene.settings);
  for (long k = 0; k < steps; ++k) simulator.step();
  for (const Eigen::VectorXd* x : {&scene.model.q(), &scene.model.v()}) {
    for (Eigen::Index i = 0; i < x->size(); ++i) std::printf("%.17g\n", (*x)[i]);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fputs("usage: tinkertoy-node SCENE STEPS\n", stderr);
    return 2;
  }
  try {
    return run(argv[1], argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tinkertoy-node: %s\n", e.what());
    return 1;
  }
}
