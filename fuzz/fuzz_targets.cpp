#include "fuzz_targets.hpp"

#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>

#include "common/fnv1a.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/formula/formula.hpp"
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

// Steps a simulator kFuzzSteps times: each step succeeds with a finite state and diagnostics, or
// throws SimulationError; anything else traps.
void stepChecked(Simulator& simulator, const Model& model) {
  for (int i = 0; i < kFuzzSteps; ++i) {
    try {
      simulator.step();
    } catch (const SimulationError&) {
      return;  // a blow-up, reported, the last good state kept
    }
    if (!model.q().allFinite() || !model.v().allFinite() || !finite(simulator.diagnostics())) __builtin_trap();
  }
}

// A slider-crank with a driven pin (acceleration level), and a four-bar whose crank a motor turns
// and whose rocker has limits (velocity level).
constexpr const char* kCrank = R"({"gravity": [0, -9.81], "settings": {"dt": 0.001},
  "particles": [{"id": "pin", "mass": 1, "position": [0.3, 0], "velocity": [0, 1.885]},
                {"id": "slider", "mass": 1, "position": [1.3, 0]}, {"id": "bob", "mass": 0.5, "position": [1.3, -0.5]}],
  "constraints": [
    {"type": "driven", "particle": "pin", "path": {"type": "circle", "center": [0, 0], "radius": 0.3, "speed": 6.283}},
    {"type": "distance", "a": "pin", "b": "slider", "length": 1.0},
    {"type": "line", "particle": "slider", "point": [0, 0], "direction": [1, 0]},
    {"type": "distance", "a": "slider", "b": "bob", "length": 0.5}]})";
constexpr const char* kFourBar = R"({"gravity": [0, -9.81], "settings": {"dt": 0.01, "formulation": "velocity", "substeps": 2},
  "bodies": [
    {"id": "crank", "type": "rigid", "mass": 0.48, "position": [0.15, 0.2598], "angle": 1.0472, "shape": {"type": "box", "size": [0.6, 0.08]}},
    {"id": "coupler", "type": "rigid", "mass": 1.76, "position": [1.2913, 0.9964], "angle": 0.4483, "shape": {"type": "box", "size": [2.2, 0.08]}},
    {"id": "rocker", "type": "rigid", "mass": 1.2, "position": [2.1413, 0.7366], "angle": 1.3812, "shape": {"type": "box", "size": [1.5, 0.08]}}],
  "constraints": [
    {"type": "revolute", "a": "crank", "b": null, "anchor": [0, 0], "motor_speed": 3.14, "max_motor_force": 50},
    {"type": "revolute", "a": "crank", "b": "coupler", "anchor": [0.3, 0.5196]},
    {"type": "revolute", "a": "coupler", "b": "rocker", "anchor": [2.2826, 1.4731]},
    {"type": "revolute", "a": "rocker", "b": null, "anchor": [2, 0], "lower": -0.3, "upper": 0.3}]})";

// Three boxes stacked on the ground in the soft step, with sleep: a state of contact points,
// carried on from step to step while the stack rests, and of sleeping islands.
constexpr const char* kStack = R"({"gravity": [0, -9.81], "settings": {"dt": 0.016666666666666666,
    "formulation": "velocity", "solver": "sequential", "position_correction": "soft", "substeps": 4,
    "iterations": 1, "collisions": true, "sleep": true, "sleep_time": 1.0},
  "bodies": [
    {"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true, "shape": {"type": "box", "size": [10, 1]}},
    {"id": "b0", "type": "rigid", "mass": 1, "position": [0, 0.5], "shape": {"type": "box", "size": [1, 1]}},
    {"id": "b1", "type": "rigid", "mass": 1, "position": [0.1, 1.5], "shape": {"type": "box", "size": [1, 1]}},
    {"id": "b2", "type": "rigid", "mass": 1, "position": [-0.1, 2.5], "shape": {"type": "box", "size": [1, 1]}}]})";

// Model `which` of kFuzzStateModels: the crank under rk4 and cg, dopri5 and ldlt, and RATTLE; the
// four-bar with a global solve and projection, and with sequential impulses and the soft step;
// the stack of boxes.
Scene stateModel(int which) {
  if (which == 5) return parseScene(kStack, "<fuzz>");
  Scene scene = parseScene(which < 3 ? kCrank : kFourBar, "<fuzz>");
  SimulationSettings& s = scene.settings;
  if (which == 1) {
    s.integrator = IntegratorKind::DormandPrince5;
    s.solver.kind = SolverKind::SparseLdlt;
  } else if (which == 2) {
    s.integrator = IntegratorKind::Rattle;
  } else if (which == 3) {
    s.solver.kind = SolverKind::SparseLdlt;
    s.velocity.positionCorrection = PositionCorrection::Projection;
  } else if (which == 4) {
    s.solver.kind = SolverKind::SequentialImpulses;
    s.velocity.positionCorrection = PositionCorrection::SoftStep;
  }
  return scene;
}

// The header of a state file for `items`, with their true length and checksum, then the items.
std::string sealed(std::string_view items) {
  StateWriter empty;
  std::string file = empty.sealed();  // a header for no items, to be corrected
  const std::uint64_t length = items.size(), checksum = detail::fnv1a(items);
  std::memcpy(file.data() + 16, &length, sizeof length);
  std::memcpy(file.data() + 24, &checksum, sizeof checksum);
  return file.append(items);
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
  stepChecked(simulator, scene->model);
  return 0;
}

int fuzzStateRestore(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Scene scene = stateModel(data[0] % kFuzzStateModels);
  Simulator simulator(scene.model, scene.settings);
  const std::string before = simulator.saveState();
  try {
    simulator.restoreState(sealed(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1)));
  } catch (const StateError&) {
    if (simulator.saveState() != before) __builtin_trap();  // refused: nothing may have changed
  }
  if (!finite(simulator.diagnostics())) __builtin_trap();
  stepChecked(simulator, scene.model);
  return 0;
}

std::string stateSeed(int which, int steps) {
  Scene scene = stateModel(which);
  Simulator simulator(scene.model, scene.settings);
  for (int i = 0; i < steps; ++i) simulator.step();
  const std::string file = simulator.saveState();
  return std::string(1, static_cast<char>(which)).append(file.substr(32));
}

int fuzzFormula(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> variables = {"u", "v", "w", "t"};
  std::optional<Formula> formula;
  try {
    formula.emplace(std::string_view(reinterpret_cast<const char*>(data), size), variables, FormulaParameters{{"k", 2.0}});
  } catch (const std::invalid_argument&) {
    return 0;  // FormulaError or a bad parameter: refused with a message
  }
  const std::vector<double> at = {0.7, -1.3, 2.1, 0.4}, rates = {1.0, 0.5, -2.0, 1.0};
  const double value = formula->value(at);
  const Jet jet = formula->jet(at, rates);
  const bool bothFinite = std::isfinite(value) && std::isfinite(jet.value);
  if (bothFinite && std::abs(value - jet.value) > 1e-9 * (1.0 + std::abs(value))) __builtin_trap();
  if (std::isfinite(value) != std::isfinite(jet.value) && std::isfinite(value) && !std::isnan(jet.value)) __builtin_trap();
  return 0;
}

}  // namespace tinkertoy::fuzz
