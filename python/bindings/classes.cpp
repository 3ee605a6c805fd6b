// What every class of the module does alike, set up once after all of them are bound (module.cpp
// calls hardenClasses last), so no class can be left out:
//
// * No object without contents. pybind11 makes an object in two halves: __new__ allocates it and
//   __init__ (or __setstate__) builds the C++ value in it. An object from Cls.__new__(Cls) alone
//   has no value, and every method would read uninitialized memory. So each class's __new__
//   makes an object only as part of a call of the class, Cls(...) (the metaclass's __call__ asks
//   for it), or for unpickling (rebuild below); Cls.__new__(Cls) and the ways around it
//   (pybind11_object.__new__(Cls), a subclass's __new__) are a TypeError.
// * Pickling at every protocol. Python's protocols 0 and 1 rebuild an object with
//   object.__new__, which aborts the process for a pybind11 class. Each class gets __reduce__,
//   which every protocol uses: a class with __getstate__/__setstate__ (the settings structs,
//   the ids, Scene) pickles as tinkertoy._pickling.rebuild(cls, state), which makes the object
//   and calls __setstate__; any other is a TypeError naming it.
#include <pybind11/pybind11.h>

#include <string>

#include "bindings.hpp"

namespace tinkertoy::python {
namespace {

// pybind11's own tp_new (pybind11_object_new) and its metaclass's tp_call, as found before they
// were replaced here.
newfunc allocate = nullptr;
ternaryfunc callClass = nullptr;

// The class whose call (Cls(...)) is under way on this thread and whose object __new__ may make:
// set by callWithNew just before the call makes the object, taken by guardedNew.
thread_local PyTypeObject* expected = nullptr;

std::string className(PyTypeObject* type) { return py::str(py::handle(reinterpret_cast<PyObject*>(type)).attr("__qualname__")); }

// The metaclass's __call__ (Cls(...)): lets __new__ make one object of that class, then calls
// pybind11's, which runs __new__ and __init__ and checks that __init__ built the value.
PyObject* callWithNew(PyObject* type, PyObject* args, PyObject* kwargs) {
  PyTypeObject* const outer = expected;
  expected = reinterpret_cast<PyTypeObject*>(type);
  PyObject* made = callClass(type, args, kwargs);
  expected = outer;
  return made;
}

// tp_new of every class of the module (and of Python subclasses, which inherit it).
PyObject* guardedNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  if (expected != type) {
    const std::string name = className(type);
    PyErr_SetString(PyExc_TypeError, (name + ".__new__(" + name + ") alone would make an empty " + name +
                                      ", which no method could use: get one from " + name +
                                      "(...) or from a method that returns one")
                                         .c_str());
    return nullptr;
  }
  expected = nullptr;  // one object per call: a __new__ inside its __init__ is refused
  return allocate(type, args, kwargs);
}

bool isBoundClass(py::handle value) {
  if (!PyType_Check(value.ptr())) return false;
  auto* type = reinterpret_cast<PyTypeObject*>(value.ptr());
  const py::detail::type_info* info = py::detail::get_type_info(type);
  return info != nullptr && info->type == type;
}

// tinkertoy._pickling.rebuild's work: a `type` object made from `state` by its __setstate__.
py::object rebuild(const py::handle& type, const py::object& state) {
  auto* cls = reinterpret_cast<PyTypeObject*>(type.ptr());
  if (!PyType_Check(type.ptr()) || py::detail::get_type_info(cls) == nullptr || !py::hasattr(type, "__setstate__")) {
    throw py::type_error("rebuild: cls must be a tinkertoy class that pickles, not " + std::string(py::str(py::repr(type))));
  }
  const py::tuple noArguments;
  auto object = py::reinterpret_steal<py::object>(allocate(cls, noArguments.ptr(), nullptr));
  if (!object) throw py::error_already_set();
  object.attr("__setstate__")(state);
  return object;
}

// __reduce__ of a class that pickles: rebuild(cls, state).
py::tuple reduceThroughState(const py::object& self) {
  return py::make_tuple(py::module_::import("tinkertoy._pickling").attr("rebuild"),
                        py::make_tuple(py::type::of(self), self.attr("__getstate__")()));
}

// __reduce__ of a class that does not: the TypeError Python gives for any unpicklable object.
py::tuple refusePickling(const py::object& self) {
  throw py::type_error("cannot pickle 'tinkertoy." + std::string(py::str(py::type::of(self).attr("__qualname__"))) +
                       "' object");
}

}  // namespace

void hardenClasses(py::module_& module) {
  module.def("_rebuild", &rebuild, py::arg("cls"), py::arg("state"),
             "Unpickles an object of a tinkertoy class from its state (tinkertoy._pickling.rebuild).");
  for (const auto& [name, value] : module.attr("__dict__").cast<py::dict>()) {
    if (!isBoundClass(value)) continue;
    auto* type = reinterpret_cast<PyTypeObject*>(value.ptr());
    if (allocate == nullptr) {
      allocate = type->tp_new;
      callClass = Py_TYPE(type)->tp_call;
      Py_TYPE(type)->tp_call = &callWithNew;  // pybind11's metaclass, shared by every class it binds
    }
    type->tp_new = &guardedNew;
    // Cls.__new__ is this class's own, not pybind11_object's (whose safety check would refuse it
    // with a message about pybind11_object). Put in the class's dict directly: through setattr
    // the class's tp_new would become a call of it.
    const py::cpp_function construct([type](const py::handle& cls, const py::args& args, const py::kwargs& kwargs) {
      auto* subtype = reinterpret_cast<PyTypeObject*>(cls.ptr());
      if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(subtype, type)) {
        throw py::type_error(className(type) + ".__new__(X): X must be a subclass of " + className(type));
      }
      auto made = py::reinterpret_steal<py::object>(guardedNew(subtype, args.ptr(), kwargs.ptr()));
      if (!made) throw py::error_already_set();
      return made;
    }, py::name("__new__"));
    if (PyDict_SetItemString(type->tp_dict, "__new__", construct.ptr()) != 0) throw py::error_already_set();
    const bool pickles = py::hasattr(value, "__setstate__");
    py::setattr(value, "__reduce__",
                py::cpp_function(pickles ? &reduceThroughState : &refusePickling, py::is_method(value)));
    PyType_Modified(type);
  }
}

}  // namespace tinkertoy::python
