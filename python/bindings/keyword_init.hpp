// Keyword construction for the bound settings structs: Settings(dt=1e-3, formulation="velocity")
// sets each keyword as the attribute of that name, so a keyword means exactly what the
// attribute means, and an unknown one is a TypeError that names it. Pickling (and so copy.copy
// and copy.deepcopy) goes the same way: the state is the dict of every attribute, set again on
// a new struct.
#pragma once

#include "real_numbers.hpp"  // before any cast of a double or a vector

#include <pybind11/pybind11.h>

#include <string>

namespace tinkertoy::python {

// A new Struct with each (name, value) of `keywords` set as its attribute.
template <class Struct>
Struct buildFromKeywords(const pybind11::dict& keywords) {
  pybind11::object built = pybind11::cast(Struct{});
  for (const auto& [key, value] : keywords) {
    if (!pybind11::hasattr(built, key)) {
      throw pybind11::type_error(std::string(pybind11::str(pybind11::type::of(built).attr("__name__"))) +
                                 "() has no setting '" + std::string(pybind11::str(key)) + "'");
    }
    pybind11::setattr(built, key, value);
  }
  return built.cast<Struct>();
}

template <class Struct>
pybind11::detail::initimpl::factory<Struct (*)(const pybind11::kwargs&)> keywordInit() {
  return pybind11::init(+[](const pybind11::kwargs& keywords) { return buildFromKeywords<Struct>(keywords); });
}

// __getstate__: every attribute (property) of the struct's class, by name; __setstate__: a new
// struct built from them as keywordInit builds one.
template <class Struct>
auto keywordPickle() {
  return pybind11::pickle(
      [](const pybind11::object& self) {
        pybind11::dict state;
        const pybind11::handle property = reinterpret_cast<PyObject*>(&PyProperty_Type);
        // The bound class's properties (self may be of a Python subclass, whose __dict__ has none).
        const auto properties = pybind11::type::of<Struct>().attr("__dict__").template cast<pybind11::dict>();
        for (const auto& [name, attribute] : properties) {
          if (pybind11::isinstance(attribute, property)) state[name] = self.attr(name);
        }
        return state;
      },
      [](const pybind11::dict& state) { return buildFromKeywords<Struct>(state); });
}

}  // namespace tinkertoy::python
