// The library's exceptions as Python exceptions, each carrying the library's message and what
// it knows as attributes:
//
//   TinkertoyError                 the base of the five below
//   SceneError(ValueError)         .path (the JSON path, "" for the whole document), .reason,
//                                  .unknown_field (the path names a field the format does not have)
//   SettingsError(ValueError)      .settings (the attribute paths involved, "settings.velocity.substeps"
//                                  first), .reason
//   SimulationError                .step, .time, .body, .constraint (ids, or None)
//   StateError(ValueError)         a state file that does not fit (Simulator.restore_state)
//   StaleViewError                 a NumPy view of q or v used after its model changed layout
//
// Every other exception becomes the Python exception pybind11 would make of it
// (std::invalid_argument ValueError, std::out_of_range IndexError, py::type_error TypeError ...),
// but through one translator that decodes each message as UTF-8 with invalid bytes escaped
// (\xff): a message that quotes user text (a name or a file given as bytes) raises the intended
// exception, never UnicodeDecodeError.
#include <tinkertoy/archive/state_archive.hpp>
#include <tinkertoy/dynamics/simulation_error.hpp>
#include <tinkertoy/dynamics/simulation_settings.hpp>
#include <tinkertoy/scene/scene.hpp>

#include <cstdio>
#include <exception>
#include <string_view>
#include <initializer_list>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"

namespace tinkertoy::python {
namespace {

using Attributes = std::vector<std::pair<const char*, py::object>>;

// Sets the Python error `type(message)`, with the attributes set on the exception object.
void raise(py::handle type, std::string_view message, const Attributes& attributes) {
  py::object error = type(text(message));
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

// "settings.velocity.substeps": a setting as the Python attribute path from a Settings named `settings`.
std::string attributePath(Setting setting) { return "settings." + std::string(settingSpelling(setting).python); }

// The Python exception type pybind11 gives each of its own and the standard exceptions.
PyObject* pythonType(const std::exception& e) {
  if (dynamic_cast<const py::stop_iteration*>(&e)) return PyExc_StopIteration;
  if (dynamic_cast<const py::index_error*>(&e)) return PyExc_IndexError;
  if (dynamic_cast<const py::key_error*>(&e)) return PyExc_KeyError;
  if (dynamic_cast<const py::value_error*>(&e)) return PyExc_ValueError;
  if (dynamic_cast<const py::type_error*>(&e)) return PyExc_TypeError;
  if (dynamic_cast<const py::buffer_error*>(&e)) return PyExc_BufferError;
  if (dynamic_cast<const py::import_error*>(&e)) return PyExc_ImportError;
  if (dynamic_cast<const py::attribute_error*>(&e)) return PyExc_AttributeError;
  if (dynamic_cast<const std::bad_alloc*>(&e)) return PyExc_MemoryError;
  if (dynamic_cast<const std::out_of_range*>(&e)) return PyExc_IndexError;
  if (dynamic_cast<const std::overflow_error*>(&e)) return PyExc_OverflowError;
  if (dynamic_cast<const std::invalid_argument*>(&e) || dynamic_cast<const std::domain_error*>(&e) ||
      dynamic_cast<const std::length_error*>(&e) || dynamic_cast<const std::range_error*>(&e)) {
    return PyExc_ValueError;
  }
  return PyExc_RuntimeError;
}

// A new exception type tinkertoy.NAME deriving from `bases` (a type or a tuple of types), kept
// for the life of the interpreter and set as the module's attribute NAME.
py::handle defineError(py::module_& module, const char* name, const char* doc, py::handle bases) {
  const std::string qualified = std::string("tinkertoy.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.attr(name) = py::handle(type);
  return type;
}

}  // namespace

py::str text(std::string_view utf8) {
  PyObject* decoded = PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "backslashreplace");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

std::string typeName(py::handle value) {
  const py::object name = py::type::of(value).attr("__name__");
  PyObject* encoded = PyUnicode_AsEncodedString(name.ptr(), "utf-8", "backslashreplace");
  if (encoded == nullptr) throw py::error_already_set();
  return std::string(py::reinterpret_steal<py::bytes>(encoded));
}

std::string shortNumber(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", x);
  return buffer;
}

std::string newName(const Model& model, std::string name, const char* what) {
  if (name.empty()) return name;
  const bool body = std::string_view(what) == "body";
  bool taken = body && model.findBody(name).has_value();
  for (std::size_t i = 0; !body && !taken && i < model.constraintCount(); ++i) taken = model.name(model.constraintAt(i)) == name;
  if (taken) {
    throw py::value_error("name: another " + std::string(what) + " of this model is named '" +
                          std::string(text(name)) + "'; names are unique, as ids in a scene file are");
  }
  return name;
}

void raiseSimulationError(const SimulationError& error,
                          std::initializer_list<std::pair<const char*, py::object>> extra) {
  setSimulationError(error, extra);
  throw py::error_already_set();
}

void bindErrors(py::module_& module) {
  static const py::handle base = defineError(module, "TinkertoyError", "The base of the exceptions Tinkertoy raises.",
                                             PyExc_Exception);
  const py::tuple valueError = py::make_tuple(base, py::handle(PyExc_ValueError));
  static const py::handle sceneError = defineError(
      module, "SceneError",
      "A scene that cannot be loaded: .path is the JSON path of the offending value (\"\" for the "
      "whole document), .reason says why, and .unknown_field whether the path names a field the scene "
      "format does not have there (a typo, most often).",
      valueError);
  static const py::handle settingsError = defineError(
      module, "SettingsError",
      "Settings a simulator cannot run: .settings are the attribute paths of the settings involved, the "
      "one to change first at the front (\"settings.velocity.substeps\"), and .reason says why.",
      valueError);
  simulationErrorType = defineError(
      module, "SimulationError",
      "A step that could not be completed; the model keeps its last good state. .step is the step that "
      "failed (1 for the first), .time the time it started from, .body and .constraint the ids involved "
      "(or None).",
      base);
  static const py::handle stateError = defineError(
      module, "StateError",
      "A state file that is corrupt, of another version, or saved from another model or settings; the "
      "simulator is unchanged.",
      valueError);
  defineError(module, "StaleViewError",
              "A NumPy view of the state (Simulator.q, .v, .body_q, .body_v) used after bodies were added to or "
              "removed from its model: take the view again.",
              base);

  // Registered last, so tried first: every exception a binding lets out passes here.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const py::error_already_set&) {
      throw;  // already a Python exception
    } catch (const SceneError& e) {
      raise(sceneError, e.what(),
            {{"path", text(e.path())},
             {"reason", text(e.reason())},
             {"unknown_field", py::bool_(e.kind() == SceneError::Kind::UnknownField)}});
    } catch (const SettingsError& e) {
      py::list paths;
      for (const Setting setting : e.settings()) paths.append(attributePath(setting));
      const std::string first = e.settings().empty() ? std::string("settings") : attributePath(e.settings().front());
      raise(settingsError, first + ": " + e.reason(), {{"settings", py::tuple(paths)}, {"reason", text(e.reason())}});
    } catch (const SimulationError& e) {
      setSimulationError(e, {});
    } catch (const StateError& e) {
      raise(stateError, e.what(), {});
    } catch (const std::exception& e) {
      PyErr_SetObject(pythonType(e), text(e.what()).ptr());
    }
  });
}

}  // namespace tinkertoy::python
