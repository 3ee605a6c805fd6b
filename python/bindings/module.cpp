// PYBIND11_MODULE: the compiled half of the package `tinkertoy` (python/tinkertoy/__init__.py
// imports it). docs/python.md documents the API.
#include "bindings.hpp"

PYBIND11_MODULE(_tinkertoy, module) {
  using namespace tinkertoy::python;
  module.doc() = "Tinkertoy: constrained dynamics after Witkin, and dyn4j-style rigid bodies (docs/python.md).";
  bindErrors(module);
  bindSettings(module);
  bindModel(module);
  bindConstraints(module);
  bindSimulator(module);
  hardenClasses(module);  // last: it sets up every class bound above
}
