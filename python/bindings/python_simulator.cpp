#include "python_simulator.hpp"

#include <pybind11/numpy.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <unordered_set>
#include <utility>

#include "arguments.hpp"
#include "bindings.hpp"

namespace tinkertoy::python {
namespace {

bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

// The models a live PythonSimulator steps. Read and written with the GIL held.
std::unordered_set<const Model*>& simulatedModels() {
  static std::unordered_set<const Model*> models;
  return models;
}

// A scene whose model another live simulator steps is refused before anything is built.
Scene& unclaimed(Scene& scene) {
  if (simulatedModels().contains(&scene.model)) {
    throw py::value_error(
        "Simulator: another Simulator is stepping this scene: a Simulator steps its scene's model in place, "
        "so two would share one state. Make the new one from a copy (tinkertoy.Simulator(scene.copy())), or "
        "drop the other one first (del sim)");
  }
  return scene;
}

// One row of the recorded trajectory per recorded step.
struct Recording {
  Recording(std::size_t rows, std::size_t n)
      : time(rows), q({rows, n}), v({rows, n}), kinetic(rows), potential(rows), constraintError(rows),
        velocityError(rows) {}

  void record(std::size_t row, const Model& model, const StepDiagnostics& d) {
    time.mutable_data()[row] = model.time();
    const auto n = static_cast<std::size_t>(model.q().size());
    std::memcpy(q.mutable_data() + row * n, model.q().data(), n * sizeof(double));
    std::memcpy(v.mutable_data() + row * n, model.v().data(), n * sizeof(double));
    kinetic.mutable_data()[row] = d.kineticEnergy;
    potential.mutable_data()[row] = d.potentialEnergy;
    constraintError.mutable_data()[row] = d.constraintError;
    velocityError.mutable_data()[row] = d.velocityError;
  }

  // The first `rows` rows, as a dict of arrays.
  py::dict rowsUpTo(std::size_t rows) const {
    const py::slice first(0, static_cast<py::ssize_t>(rows), 1);
    py::dict out;
    out["time"] = time[first];
    out["q"] = q[first];
    out["v"] = v[first];
    out["kinetic_energy"] = kinetic[first];
    out["potential_energy"] = potential[first];
    out["constraint_error"] = constraintError[first];
    out["velocity_error"] = velocityError[first];
    return out;
  }

  py::array_t<double> time, q, v, kinetic, potential, constraintError, velocityError;
};

}  // namespace

PythonSimulator::PythonSimulator(py::object sceneObject, Scene& scene, const SimulationSettings& settings)
    : sceneObject_(std::move(sceneObject)),
      scene_(unclaimed(scene)),
      simulator_(scene_.model, settings),
      origin_(modelOrigin(scene_)) {
  simulatedModels().insert(&scene_.model);
}

PythonSimulator::~PythonSimulator() { simulatedModels().erase(&scene_.model); }

void PythonSimulator::step() {
  noticeViewWrites();
  {
    py::gil_scoped_release unlocked;  // the caller holds the model's lock: no other thread touches it
    simulator_.step();
  }
  rememberState();
}

py::dict PythonSimulator::run(double duration, std::int64_t every) {
  const double dt = simulator_.settings().dt;
  if (!std::isfinite(duration) || duration < 0.0) {
    throw py::value_error("run: duration must be a finite number of seconds ≥ 0, got " + shortNumber(duration));
  }
  if (duration / dt > kMaxSteps) {
    throw py::value_error("run: duration " + shortNumber(duration) + " s takes " + shortNumber(duration / dt) +
                          " steps of dt = " + shortNumber(dt) + " s; a run takes at most " + shortNumber(kMaxSteps));
  }
  if (every < 1) throw py::value_error("run: every must be at least 1, got " + std::to_string(every));
  const std::uint64_t steps = stepsToReach(duration, simulator_.settings().dt);
  const auto everyStep = static_cast<std::uint64_t>(every);
  const std::size_t rows = 1 + steps / everyStep + (steps % everyStep != 0 ? 1 : 0);
  Recording recording(rows, static_cast<std::size_t>(scene_.model.q().size()));
  noticeViewWrites();
  std::size_t row = 0;
  recording.record(row++, scene_.model, simulator_.diagnostics());
  try {
    py::gil_scoped_release unlocked;  // as in step()
    for (std::uint64_t i = 1; i <= steps; ++i) {
      simulator_.step();
      if (i % everyStep == 0 || i == steps) recording.record(row++, scene_.model, simulator_.diagnostics());
    }
  } catch (const SimulationError& e) {
    rememberState();
    raiseSimulationError(e, {{"trajectory", recording.rowsUpTo(row)}});
  }
  rememberState();
  return recording.rowsUpTo(row);
}

py::object PythonSimulator::view(StateVector which, std::optional<BodyId> body) {
  const Model& model = scene_.model;
  const std::size_t offset = body ? model.offsetOf(*body) : 0;
  const std::size_t length = body ? model.body(*body).coordinateCount() : model.q().size();
  watching_ = true;
  rememberState();
  // The registered Python object of this simulator, which the view keeps alive.
  const py::object self = py::cast(this, py::return_value_policy::reference);
  return stateView(scene_.model, which, offset, length, self);
}

void PythonSimulator::restoreState(std::string_view file, const std::string& origin) {
  simulator_.restoreState(file, origin);
  rememberState();
}

// A write through a view changed q or v behind the model's back: tell the model
// (Model::stateWritten counts as an edit), so the simulator drops what it derived from the old state.
// A write that left NaN or an infinity (through np.asarray(view) or view.flat, which the view's
// own check does not see) is undone, entry by entry, and refused.
void PythonSimulator::noticeViewWrites() {
  if (!watching_) return;
  Model& model = scene_.model;
  bool undone = false;
  for (auto [x, seen] : {std::pair{&model.qStorage(), &seenQ_}, std::pair{&model.vStorage(), &seenV_}}) {
    if (x->size() != seen->size() || x->allFinite()) continue;  // another size: a layout edit, which checks its values
    for (Eigen::Index i = 0; i < x->size(); ++i) {
      if (!std::isfinite((*x)[i])) (*x)[i] = (*seen)[i];
    }
    undone = true;
  }
  if (undone) {
    throw py::value_error("Simulator: a write through a view of q or v left NaN or an infinity in the state; the "
                          "state takes finite numbers only, and those entries were put back");
  }
  if (!sameBits(model.q(), seenQ_) || !sameBits(model.v(), seenV_)) model.stateWritten();
}

// What the model holds now; an entry a raw write left non-finite keeps its last finite value, which
// noticeViewWrites puts back.
void PythonSimulator::rememberState() {
  if (!watching_) return;
  const Model& model = scene_.model;
  for (auto [x, seen] : {std::pair{&model.q(), &seenQ_}, std::pair{&model.v(), &seenV_}}) {
    if (x->size() == seen->size() && !x->allFinite()) {
      *seen = x->array().isFinite().select(*x, *seen);
    } else {
      *seen = *x;
    }
  }
}

}  // namespace tinkertoy::python
