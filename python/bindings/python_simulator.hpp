// PythonSimulator: the Simulator behind tinkertoy.Simulator. It steps its scene's model in
// place (scene.model is the simulated model), keeps the scene alive, notices writes through the
// NumPy views before each step, and knows the hash of the model it was made from, which
// save_state and restore_state use as their origin.
//
// One live simulator per scene: a second one would step the same model from wherever the first
// left it, so its construction is refused (scene.copy() gives a scene of its own).
//
//   PythonSimulator& sim = ...;   // a call from Python holds the model's lock (model_lock.hpp)
//   sim.step();                   // releases the GIL while it steps, keeping the lock
#pragma once

#include "real_numbers.hpp"  // before any cast of a double or a vector

#include <pybind11/pybind11.h>
#include <tinkertoy/tinkertoy.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "state_views.hpp"

namespace tinkertoy::python {

namespace py = pybind11;

class PythonSimulator {
 public:
  // `sceneObject` is the Python Scene whose model `scene` is; the caller holds its lock.
  // Throws ValueError if another live PythonSimulator steps that scene.
  PythonSimulator(py::object sceneObject, Scene& scene, const SimulationSettings& settings);
  PythonSimulator(const PythonSimulator&) = delete;
  PythonSimulator& operator=(const PythonSimulator&) = delete;
  ~PythonSimulator();

  Simulator& simulator() { return simulator_; }
  Scene& scene() { return scene_; }
  // What save_state records as the state's origin and restore_state requires by default: a hash
  // of the model as it was when the simulator was made, its state and the scene's settings,
  // duration and name left out; "" if the scene writer cannot write the model.
  const std::string& origin() const { return origin_; }

  // One step, with the GIL released.
  void step();
  // Steps for `duration` s with the GIL released, recording a row every `every` steps.
  // Refuses (ValueError, naming the argument) a duration that is not finite and ≥ 0 or that takes
  // more than kMaxSteps steps, and `every` below 1.
  py::dict run(double duration, std::int64_t every);
  // A writable view of the model's q or v (of one body's slice); `self` is this simulator's
  // Python object, which the view keeps alive.
  py::object view(StateVector which, std::optional<BodyId> body);
  void restoreState(std::string_view file, const std::string& origin);

 private:
  void noticeViewWrites();
  void rememberState();

  py::object sceneObject_;  // keeps the scene, and so the model, alive
  Scene& scene_;
  Simulator simulator_;
  std::string origin_;
  bool watching_ = false;  // views were handed out
  Eigen::VectorXd seenQ_, seenV_;
};

inline const Model& modelOf(const PythonSimulator& simulator) {
  return const_cast<PythonSimulator&>(simulator).scene().model;
}

}  // namespace tinkertoy::python
