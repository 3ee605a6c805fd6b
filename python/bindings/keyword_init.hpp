// Keyword construction for the bound settings structs: Settings(dt=1e-3, formulation="velocity")
// sets each keyword as the attribute of that name, so a keyword means exactly what the
// attribute means, and an unknown one is a TypeError that names it.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace tinkertoy::python {

template <class Struct>
pybind11::detail::initimpl::factory<Struct (*)(const pybind11::kwargs&)> keywordInit() {
  return pybind11::init(+[](const pybind11::kwargs& keywords) {
    pybind11::object built = pybind11::cast(Struct{});
    for (const auto& [key, value] : keywords) {
      if (!pybind11::hasattr(built, key)) {
        throw pybind11::type_error(std::string(pybind11::str(pybind11::type::of(built).attr("__name__"))) +
                                   "() has no setting '" + std::string(pybind11::str(key)) + "'");
      }
      pybind11::setattr(built, key, value);
    }
    return built.cast<Struct>();
  });
}

}  // namespace tinkertoy::python
