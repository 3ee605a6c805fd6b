#include "real_numbers.hpp"

#include <string_view>

namespace tinkertoy::python {
namespace {

namespace py = pybind11;

// The kind of a dtype ("f", "c", "O", "U" ...) of `value`, which has one.
char dtypeKind(py::handle value) { return py::str(value.attr("dtype").attr("kind")).cast<std::string>().at(0); }

bool realKind(char kind) { return std::string_view("biuf").find(kind) != std::string_view::npos; }

}  // namespace

bool isReal(py::handle value, bool sequence) {
  if (PyFloat_CheckExact(value.ptr()) || PyLong_CheckExact(value.ptr()) || PyBool_Check(value.ptr())) return true;
  if (PyComplex_Check(value.ptr())) return false;  // complex, and np.complex128 (a subclass)
  if (py::hasattr(value, "dtype")) return realKind(dtypeKind(value));  // arrays and NumPy's scalars
  if (!sequence || !PySequence_Check(value.ptr()) || PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) {
    return true;  // pybind11's caster decides
  }
  try {  // a list or tuple: what NumPy makes of it, as pybind11's caster will
    return realKind(dtypeKind(py::module_::import("numpy").attr("asarray")(value)));
  } catch (const py::error_already_set&) {
    return true;  // not an array at all: pybind11's caster refuses it
  }
}

}  // namespace tinkertoy::python
