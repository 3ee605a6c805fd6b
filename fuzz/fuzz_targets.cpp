#include "fuzz_targets.hpp"

#include <cmath>
#include <optional>
#include <string_view>

#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::fuzz {

namespace {

std::optional<Scene> load(const std::uint8_t* data, std::size_t size) {
  try {
    return parseScene(std::string_view(reinterpret_cast<const char*>(data), size), "<fuzz>");
  } catch (const SceneError&) {
    return std::nullopt;  // refused with a message: what the loader is for
  }
}

bool finite(const StepDiagnostics& d) {
  return std::isfinite(d.time) && std::isfinite(d.kineticEnergy) && std::isfinite(d.potentialEnergy) &&
         std::isfinite(d.constraintError) && std::isfinite(d.velocityError);
}

}  // namespace

int fuzzSceneLoader(const std::uint8_t* data, std::size_t size) {
  (void)load(data, size);
  return 0;
}

int fuzzLoadAndStep(const std::uint8_t* data, std::size_t size) {
  std::optional<Scene> scene = load(data, size);
  if (!scene || scene->model.bodyCount() > kFuzzMostBodies) return 0;
  Simulator simulator(scene->model, scene->settings);  // what the loader accepts runs
  if (!finite(simulator.diagnostics())) __builtin_trap();  // the loader let a non-finite start in
  for (int i = 0; i < kFuzzSteps; ++i) {
    try {
      simulator.step();
    } catch (const SimulationError&) {
      return 0;  // a blow-up, reported, the last good state kept
    }
    const Model& model = scene->model;
    if (!model.q().allFinite() || !model.v().allFinite() || !finite(simulator.diagnostics())) __builtin_trap();
  }
  return 0;
}

}  // namespace tinkertoy::fuzz
