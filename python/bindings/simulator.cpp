// Simulator: how the model moves. step() and run() release the GIL; run() keeps its loop in
// C++ and returns the whole trajectory as NumPy arrays. q, v, body_q() and body_v() are
// writable views of the engine's state (state_views.hpp); a write through one is noticed before
// the next step, so the simulator treats it as the edit it is.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <tinkertoy/tinkertoy.hpp>

#include <cstring>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "state_views.hpp"

namespace tinkertoy::python {
namespace {

bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

class PythonSimulator {
 public:
  PythonSimulator(py::object scene, const std::optional<SimulationSettings>& settings)
      : sceneObject_(std::move(scene)),
        scene_(sceneObject_.cast<Scene&>()),
        simulator_(scene_.model, settings.value_or(scene_.settings)) {}

  Simulator& simulator() { return simulator_; }
  Scene& scene() { return scene_; }

  void step() {
    noticeViewWrites();
    {
      py::gil_scoped_release unlocked;
      simulator_.step();
    }
    rememberState();
  }

  py::dict run(double duration, int every);

  py::object view(py::handle self, StateVector which, std::optional<BodyId> body) {
    const Model& model = scene_.model;
    const std::size_t offset = body ? model.offsetOf(*body) : 0;
    const std::size_t length = body ? model.body(*body).coordinateCount() : model.q().size();
    watching_ = true;
    rememberState();
    return stateView(scene_.model, which, offset, length, self);
  }

  void restoreState(const py::bytes& file, const std::string& origin) {
    simulator_.restoreState(std::string_view(file), origin);
    rememberState();
  }

 private:
  // A write through a view changed q or v behind the model's back: tell the model (the
  // non-const accessor counts as an edit), so the simulator drops what it derived from the old state.
  void noticeViewWrites() {
    if (!watching_) return;
    const Model& model = scene_.model;
    if (!sameBits(model.q(), seenQ_)) (void)scene_.model.q();
    if (!sameBits(model.v(), seenV_)) (void)scene_.model.v();
  }
  void rememberState() {
    if (!watching_) return;
    const Model& model = scene_.model;
    seenQ_ = model.q();
    seenV_ = model.v();
  }

  py::object sceneObject_;  // keeps the scene, and so the model, alive
  Scene& scene_;
  Simulator simulator_;
  bool watching_ = false;  // views were handed out
  Eigen::VectorXd seenQ_, seenV_;
};

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

py::dict PythonSimulator::run(double duration, int every) {
  if (!(duration >= 0.0) || duration / simulator_.settings().dt > kMaxSteps) {
    throw py::value_error("run: duration must be a finite number of seconds ≥ 0 that takes at most 1e12 steps, not " +
                          std::to_string(duration));
  }
  if (every < 1) throw py::value_error("run: every must be at least 1, not " + std::to_string(every));
  const std::uint64_t steps = stepsToReach(duration, simulator_.settings().dt);
  const auto everyStep = static_cast<std::uint64_t>(every);
  const std::size_t rows = 1 + steps / everyStep + (steps % everyStep != 0 ? 1 : 0);
  Recording recording(rows, static_cast<std::size_t>(scene_.model.q().size()));
  noticeViewWrites();
  std::size_t row = 0;
  recording.record(row++, scene_.model, simulator_.diagnostics());
  try {
    py::gil_scoped_release unlocked;
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

py::dict workOf(const WorkLedger& ledger) {
  py::dict out;
  for (std::size_t s = 0; s < kWorkSources; ++s) {
    out[py::str(std::string(workSourceName(static_cast<WorkSource>(s))))] = ledger.work[s];
  }
  return out;
}

void bindDiagnostics(py::module_& module) {
  py::class_<StepDiagnostics>(module, "StepDiagnostics", "The state of the model after a step.")
      .def_readonly("step", &StepDiagnostics::step)
      .def_readonly("time", &StepDiagnostics::time)
      .def_readonly("kinetic_energy", &StepDiagnostics::kineticEnergy, "½ vᵀ M v, J")
      .def_readonly("potential_energy", &StepDiagnostics::potentialEnergy, "Σ V, J")
      .def_property_readonly("total_energy", &StepDiagnostics::totalEnergy)
      .def_readonly("constraint_error", &StepDiagnostics::constraintError, "‖C‖∞")
      .def_readonly("velocity_error", &StepDiagnostics::velocityError, "‖Ċ‖∞")
      .def_readonly("solves", &StepDiagnostics::solves)
      .def_readonly("solver_iterations", &StepDiagnostics::solverIterations)
      .def_readonly("solver_residual", &StepDiagnostics::solverResidual)
      .def_readonly("factorizations", &StepDiagnostics::factorizations)
      .def_readonly("projection_iterations", &StepDiagnostics::projectionIterations)
      .def_readonly("projection_converged", &StepDiagnostics::projectionConverged)
      .def_readonly("adaptive_steps", &StepDiagnostics::adaptiveSteps)
      .def_readonly("rejected_steps", &StepDiagnostics::rejectedSteps)
      .def_property_readonly("work", [](const StepDiagnostics& d) { return workOf(d.work); },
                             "The step's work by each source the energy does not account for, J.");

  py::class_<BreakEvent>(module, "BreakEvent", "A constraint that broke: its reaction exceeded its break force.")
      .def_readonly("step", &BreakEvent::step)
      .def_readonly("time", &BreakEvent::time)
      .def_readonly("constraint", &BreakEvent::constraint)
      .def_readonly("force", &BreakEvent::force, "N");
}

}  // namespace

void bindSimulator(py::module_& module) {
  bindDiagnostics(module);
  py::class_<PythonSimulator>(module, "Simulator",
                              "Steps a scene's model in place with the scene's settings (or those given).")
      .def(py::init<py::object, std::optional<SimulationSettings>>(), py::arg("scene"), py::arg("settings") = py::none())
      .def("step", &PythonSimulator::step,
           "Advances by settings.dt. Raises SimulationError, keeping the state before the step.")
      .def("run", &PythonSimulator::run, py::arg("duration"), py::arg("every") = 1,
           "Steps for `duration` seconds and returns a dict of arrays: time [k], q and v [k × n], kinetic_energy, "
           "potential_energy, constraint_error, velocity_error [k]; a row at the start and after every `every`-th "
           "step and the last. On a blow-up the SimulationError's .trajectory holds the rows so far.")
      .def_property_readonly(
          "q", [](py::object self) { return self.cast<PythonSimulator&>().view(self, StateVector::Coordinates, {}); },
          "The coordinates q [n]: a writable view of the engine's own storage (StateArray).")
      .def_property_readonly(
          "v", [](py::object self) { return self.cast<PythonSimulator&>().view(self, StateVector::Velocities, {}); },
          "The velocities v [n]: a writable view (StateArray).")
      .def(
          "body_q",
          [](py::object self, BodyId body) {
            return self.cast<PythonSimulator&>().view(self, StateVector::Coordinates, body);
          },
          py::arg("body"), "The body's slice of q: a writable view.")
      .def(
          "body_v",
          [](py::object self, BodyId body) {
            return self.cast<PythonSimulator&>().view(self, StateVector::Velocities, body);
          },
          py::arg("body"), "The body's slice of v: a writable view.")
      .def_property_readonly("model", [](PythonSimulator& s) -> Model& { return s.scene().model; },
                             py::return_value_policy::reference_internal)
      .def_property_readonly("time", [](PythonSimulator& s) { return s.scene().model.time(); })
      .def_property_readonly("settings", [](PythonSimulator& s) { return s.simulator().settings(); })
      .def_property_readonly("step_count", [](PythonSimulator& s) { return s.simulator().stepCount(); })
      .def_property_readonly("diagnostics", [](PythonSimulator& s) { return s.simulator().diagnostics(); },
                             "StepDiagnostics of the last step (a copy).")
      .def("refresh_diagnostics", [](PythonSimulator& s) { s.simulator().refreshDiagnostics(); },
           "Measures the diagnostics again at the model's state, e.g. after editing it.")
      .def(
          "constraint_lambda",
          [](PythonSimulator& s, ConstraintId id) {
            const std::span<const double> l = s.simulator().lambda(id);
            return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(l.data(), static_cast<Eigen::Index>(l.size())));
          },
          py::arg("constraint"), "λ of the constraint's rows from the last step's solve (a rod's force, N).")
      .def(
          "reaction",
          [](PythonSimulator& s, ConstraintId id) {
            const Reaction r = s.simulator().reaction(id);
            return py::make_tuple(r.force, r.torque);
          },
          py::arg("constraint"), "(force [dimension], torque) the constraint applies at its first point.")
      .def_property_readonly("constraint_force", [](PythonSimulator& s) { return Eigen::VectorXd(s.simulator().constraintForce()); },
                             "Q̂ = Jᵀλ from the last solve [n].")
      .def_property_readonly("breaks", [](PythonSimulator& s) {
        const auto breaks = s.simulator().breaks();
        return std::vector<BreakEvent>(breaks.begin(), breaks.end());
      })
      .def(
          "save_state", [](PythonSimulator& s, const std::string& origin) { return py::bytes(s.simulator().saveState(origin)); },
          py::arg("origin") = "", "The bytes of an exact state file (restore_state continues bit for bit).")
      .def("restore_state", &PythonSimulator::restoreState, py::arg("state"), py::arg("origin") = "",
           "Puts back a state saved from this model with these settings; raises StateError otherwise.");
}

}  // namespace tinkertoy::python
