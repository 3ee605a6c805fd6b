// The Python module tinkertoy._tinkertoy: one function per part of the library, each in its own
// file, called in order by module.cpp. The pure-Python package around it (python/tinkertoy/)
// adds the state arrays' guard and the sweeps.
#pragma once

#include "real_numbers.hpp"  // before any cast of a double or a vector

#include <pybind11/pybind11.h>

#include <initializer_list>
#include <string_view>
#include <utility>

#include <tinkertoy/dynamics/simulation_error.hpp>

namespace tinkertoy::python {

namespace py = pybind11;

// SceneError, SettingsError, SimulationError, StateError and StaleViewError, and the
// translation of every exception a binding lets out into them or into Python's own (errors.cpp).
void bindErrors(py::module_& module);
// `utf8` as a Python str, invalid UTF-8 bytes escaped (\xff): for messages that quote user text.
py::str text(std::string_view utf8);
// Raises tinkertoy.SimulationError for `error`, with these attributes besides its own.
[[noreturn]] void raiseSimulationError(const SimulationError& error,
                                       std::initializer_list<std::pair<const char*, py::object>> extra);
// SimulationSettings and the structs inside it; enumerations as the scene files spell them.
void bindSettings(py::module_& module);
// Ids, points, shapes and curves, and Scene with its Model: bodies and forces.
void bindModel(py::module_& module);
// Model.add_* for every constraint and joint, their settings and runtime setters.
void bindConstraints(py::module_& module);
// Simulator: step, run, state views, diagnostics, λ and reactions, save and restore.
void bindSimulator(py::module_& module);
// What every class above does alike (classes.cpp): no object from Cls.__new__(Cls) alone, and
// pickling at every protocol (__reduce__ through __getstate__/__setstate__, or a TypeError).
void hardenClasses(py::module_& module);

}  // namespace tinkertoy::python
