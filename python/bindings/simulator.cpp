// Simulator: how the model moves (python_simulator.hpp). step() and run() release the GIL,
// holding the model's lock (model_lock.hpp); run() keeps its loop in C++ and returns the whole
// trajectory as NumPy arrays. q, v, body_q() and body_v() are writable views of the engine's
// state (state_views.hpp); a write through one is noticed before the next step, so the
// simulator treats it as the edit it is.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <tinkertoy/tinkertoy.hpp>

#include <memory>
#include <optional>
#include <string>

#include "arguments.hpp"
#include "bindings.hpp"
#include "model_lock.hpp"
#include "python_simulator.hpp"

namespace tinkertoy::python {
namespace {

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
      .def_readonly("contact_points", &StepDiagnostics::contactPoints,
                    "With contacts: the most contact points at a substep's start.")
      .def_readonly("penetration", &StepDiagnostics::penetration,
                    "With contacts: the deepest penetration at a substep's start, m.")
      .def_readonly("asleep", &StepDiagnostics::asleep, "With sleep on: the bodies asleep at the step's end.")
      .def_readonly("projection_converged", &StepDiagnostics::projectionConverged)
      .def_readonly("adaptive_steps", &StepDiagnostics::adaptiveSteps)
      .def_readonly("rejected_steps", &StepDiagnostics::rejectedSteps)
      .def_property_readonly("work", [](const StepDiagnostics& d) { return workOf(d.work); },
                             "The step's work by each source the energy does not account for, J.");

  py::class_<ContactReport>(module, "Contact", "A contact point of the last substep (Simulator.contacts()).")
      .def_readonly("a", &ContactReport::a)
      .def_readonly("b", &ContactReport::b)
      .def_property_readonly("point", [](const ContactReport& c) { return Eigen::Vector2d(c.point); }, "World, m.")
      .def_property_readonly("normal", [](const ContactReport& c) { return Eigen::Vector2d(c.normal); },
                             "Unit, from a to b.")
      .def_readonly("separation", &ContactReport::separation, "m at the substep's start; < 0: a penetration.")
      .def_readonly("normal_impulse", &ContactReport::normalImpulse, "N·s on b along the normal (>= 0).")
      .def_readonly("tangent_impulse", &ContactReport::tangentImpulse, "N·s on b along (n_y, -n_x).");
  py::class_<BreakEvent>(module, "BreakEvent", "A constraint that broke: its reaction exceeded its break force.")
      .def_readonly("step", &BreakEvent::step)
      .def_readonly("time", &BreakEvent::time)
      .def_readonly("constraint", &BreakEvent::constraint)
      .def_readonly("force", &BreakEvent::force, "N");
}

// Simulator(scene, settings=None): the scene's model, locked while the simulator is made.
std::unique_ptr<PythonSimulator> makeSimulator(const py::object& sceneObject, const py::object& settings) {
  Scene& scene = argument<Scene&>(sceneObject, "Simulator", "scene",
                                  "a tinkertoy.Scene (load one with tinkertoy.load_scene(path))");
  const std::optional<SimulationSettings> given =
      settings.is_none() ? std::nullopt
                         : std::optional(argument<SimulationSettings>(settings, "Simulator", "settings",
                                                                      "a tinkertoy.Settings or None"));
  const ModelLock lock(scene.model);
  return std::make_unique<PythonSimulator>(sceneObject, scene, given.value_or(scene.settings));
}

// A state file's origin: the simulator's own (the hash of its model) unless one is given.
std::string originOr(const PythonSimulator& s, const std::optional<std::string>& origin) {
  return origin.value_or(s.origin());
}

}  // namespace

void bindSimulator(py::module_& module) {
  bindDiagnostics(module);
  LockedClass<PythonSimulator>(module, "Simulator",
                               "Steps a scene's model in place with the scene's settings (or those given). One "
                               "live Simulator per scene: Simulator(scene.copy()) for another.")
      .def(py::init(&makeSimulator), py::arg("scene").none(true), py::arg("settings") = py::none())
      .def("step", &PythonSimulator::step,
           "Advances by settings.dt. Raises SimulationError, keeping the state before the step.")
      .def("run", &PythonSimulator::run, py::arg("duration"), py::arg("every") = 1,
           "Steps for `duration` seconds and returns a dict of arrays: time [k], q and v [k × n], kinetic_energy, "
           "potential_energy, constraint_error, velocity_error [k]; a row at the start and after every `every`-th "
           "step and the last. On a blow-up the SimulationError's .trajectory holds the rows so far.")
      .def_property_readonly(
          "q", [](PythonSimulator& s) { return s.view(StateVector::Coordinates, {}); },
          "The coordinates q [n]: a writable view of the engine's own storage (StateArray).")
      .def_property_readonly(
          "v", [](PythonSimulator& s) { return s.view(StateVector::Velocities, {}); },
          "The velocities v [n]: a writable view (StateArray).")
      .def(
          "body_q", [](PythonSimulator& s, BodyId body) { return s.view(StateVector::Coordinates, body); },
          py::arg("body"), "The body's slice of q: a writable view.")
      .def(
          "body_v", [](PythonSimulator& s, BodyId body) { return s.view(StateVector::Velocities, body); },
          py::arg("body"), "The body's slice of v: a writable view.")
      .def_property_readonly("model", [](PythonSimulator& s) -> Model& { return s.scene().model; },
                             py::return_value_policy::reference_internal)
      .def_property_readonly("time", [](PythonSimulator& s) { return s.scene().model.time(); })
      .def_property(
          "settings", [](PythonSimulator& s) { return s.simulator().settings(); },
          [](PythonSimulator& /*s*/, const py::object& /*settings*/) {
            throw py::attribute_error(
                "Simulator.settings is read-only: a simulator runs with the settings it was made with. Edit "
                "scene.settings and make a new simulator (del sim; tinkertoy.Simulator(scene)), or pass them: "
                "tinkertoy.Simulator(scene, settings)");
          },
          "A copy of the settings this simulator runs with (editing it changes nothing; read-only: "
          "Simulator(scene, settings) sets them).")
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
          "contacts", [](PythonSimulator& s) { return s.simulator().contacts(); },
          "With contacts: the contact points of the last substep, each a Contact (bodies a and b, point, "
          "normal from a to b, separation, normal_impulse and tangent_impulse in N·s).")
      .def(
          "is_asleep", [](PythonSimulator& s, BodyId body) { return s.simulator().asleep(body); }, py::arg("body"),
          "With sleep on: whether the body is asleep after the last step.")
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
      .def_property_readonly("origin", &PythonSimulator::origin,
                             "The origin save_state records and restore_state requires unless given one: a hash "
                             "of the model this simulator was made from (its state and the scene's settings, "
                             "duration and name left out); \"\" for a model the scene writer cannot write.")
      .def(
          "save_state",
          [](PythonSimulator& s, const std::optional<std::string>& origin) {
            return py::bytes(s.simulator().saveState(originOr(s, origin)));
          },
          py::arg("origin") = py::none(),
          "The bytes of an exact state file (restore_state continues bit for bit). origin: what the state "
          "belongs to, by default this simulator's origin (a hash of its model).")
      .def(
          "restore_state",
          [](PythonSimulator& s, const py::bytes& state, const std::optional<std::string>& origin) {
            s.restoreState(std::string_view(state), originOr(s, origin));
          },
          py::arg("state"), py::arg("origin") = py::none(),
          "Puts back a state saved from this model with these settings (and the same origin, by default the "
          "hash of the model); raises StateError otherwise.");
}

}  // namespace tinkertoy::python
