// Arguments a binding takes as py::object and casts itself: a wrong type is a TypeError that
// names the function, the argument, what it must be and what it got, where pybind11's own cast
// would raise RuntimeError("Unable to cast Python instance ...").
//
//   Scene& scene = argument<Scene&>(object, "Simulator", "scene", "a tinkertoy.Scene");
//   // TypeError: Simulator: scene must be a tinkertoy.Scene, not str
#pragma once

#include "real_numbers.hpp"  // before any cast of a double or a vector

#include <pybind11/pybind11.h>

#include <string>

#include <tinkertoy/model/model.hpp>

namespace tinkertoy::python {

namespace py = pybind11;

// The name of `value`'s type, as valid UTF-8 whatever the type is called.
std::string typeName(py::handle value);

// `x` as a message shows a number: %g, so 1e+300 and 0.1, never 300 digits or 0.100000.
std::string shortNumber(double x);

// `name` for a new body or constraint of `model` (`what`: "body" or "constraint"): a name
// already given to another body (constraint) of the model is a ValueError, as the scene loader
// refuses a duplicate id. "" (no name) is never a duplicate.
std::string newName(const Model& model, std::string name, const char* what);

template <class T>
T argument(py::handle value, const char* function, const char* name, const char* expected) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error&) {  // a value of another type
    throw py::type_error(std::string(function) + ": " + name + " must be " + expected + ", not " + typeName(value));
  } catch (const py::reference_cast_error&) {  // None for a reference
    throw py::type_error(std::string(function) + ": " + name + " must be " + expected + ", not " + typeName(value));
  }
}

}  // namespace tinkertoy::python
