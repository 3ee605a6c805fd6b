// The library's exceptions as Python exceptions, each carrying the library's message and what
// it knows as attributes:
//
//   TinkertoyError                 the base of the four below
//   SceneError(ValueError)         .path (the JSON path, "" for the whole document), .reason
//   SimulationError                .step, .time, .body, .constraint (ids, or None)
//   StateError(ValueError)         a state file that does not fit (Simulator.restore_state)
//   StaleViewError                 a NumPy view of q or v used after its model changed layout
//
// std::invalid_argument becomes ValueError and std::out_of_range IndexError (pybind11's own
// translation), so a bad argument raises ValueError with the library's explanation.
#include <tinkertoy/archive/state_archive.hpp>
#include <tinkertoy/dynamics/simulation_error.hpp>
#include <tinkertoy/scene/scene.hpp>

#include <exception>
#include <initializer_list>
#include <utility>
#include <vector>

#include "bindings.hpp"

namespace tinkertoy::python {
namespace {

using Attributes = std::vector<std::pair<const char*, py::object>>;

// Sets the Python error `type(message)`, with the attributes set on the exception object.
void raise(py::handle type, const char* message, const Attributes& attributes) {
  py::object error = type(message);
  for (const auto& [name, value] : attributes) error.attr(name) = value;
  PyErr_SetObject(type.ptr(), error.ptr());
}

template <class Id>
py::object idOrNone(const std::optional<Id>& id) {
  return id ? py::cast(*id) : py::none();
}

// A new reference, kept for the life of the interpreter, as are the other exception types.
py::handle simulationErrorType;

void setSimulationError(const SimulationError& e, std::initializer_list<std::pair<const char*, py::object>> extra) {
  Attributes attributes = {{"step", py::int_(e.step())}, {"time", py::float_(e.time())}, {"body", idOrNone(e.body())},
                           {"constraint", idOrNone(e.constraint())}};
  attributes.insert(attributes.end(), extra.begin(), extra.end());
  raise(simulationErrorType, e.what(), attributes);
}

}  // namespace

void raiseSimulationError(const SimulationError& error,
                          std::initializer_list<std::pair<const char*, py::object>> extra) {
  setSimulationError(error, extra);
  throw py::error_already_set();
}

void bindErrors(py::module_& module) {
  static const py::handle base = PyErr_NewExceptionWithDoc("tinkertoy.TinkertoyError",
                                                           "The base of the exceptions Tinkertoy raises.",
                                                           PyExc_Exception, nullptr);
  static const py::handle sceneError = PyErr_NewExceptionWithDoc(
      "tinkertoy.SceneError",
      "A scene that cannot be loaded: .path is the JSON path of the offending value (\"\" for the "
      "whole document) and .reason says why.",
      py::make_tuple(base, py::handle(PyExc_ValueError)).ptr(), nullptr);
  simulationErrorType = PyErr_NewExceptionWithDoc(
      "tinkertoy.SimulationError",
      "A step that could not be completed; the model keeps its last good state. .step is the step that "
      "failed (1 for the first), .time the time it started from, .body and .constraint the ids involved "
      "(or None).",
      base.ptr(), nullptr);
  static const py::handle stateError = PyErr_NewExceptionWithDoc(
      "tinkertoy.StateError",
      "A state file that is corrupt, of another version, or saved from another model or settings; the "
      "simulator is unchanged.",
      py::make_tuple(base, py::handle(PyExc_ValueError)).ptr(), nullptr);
  static const py::handle staleViewError = PyErr_NewExceptionWithDoc(
      "tinkertoy.StaleViewError",
      "A NumPy view of the state (Simulator.q, .v, .body_q, .body_v) used after bodies were added to or "
      "removed from its model: take the view again.",
      base.ptr(), nullptr);
  module.attr("TinkertoyError") = base;
  module.attr("SceneError") = sceneError;
  module.attr("SimulationError") = simulationErrorType;
  module.attr("StateError") = stateError;
  module.attr("StaleViewError") = staleViewError;

  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const SceneError& e) {
      raise(sceneError, e.what(), {{"path", py::str(e.path())}, {"reason", py::str(e.reason())}});
    } catch (const SimulationError& e) {
      setSimulationError(e, {});
    } catch (const StateError& e) {
      raise(stateError, e.what(), {});
    }
  });
}

}  // namespace tinkertoy::python
