// One lock per model, so that no Python program can make two threads use a model at once.
//
// Simulator.step() and run() release the GIL while they step, so without it another thread
// could add a body (freeing the state the step is writing) or step the same simulator. Every
// binding that reads or writes a Model, its Scene or a Simulator of it holds the model's lock
// while it runs: step() and run() hold it across the GIL's release, and a call on a model in
// use on another thread waits for it. It waits with the GIL released, so the thread that holds
// the lock can take the GIL back and finish: no deadlock. A thread that holds the lock may take
// it again (a binding that calls another).
//
// The bindings of Model, Scene and Simulator are declared through LockedClass, whose def,
// def_property and def_readwrite wrap every function, lambda or member function whose first
// parameter is a Model, Scene or PythonSimulator (modelOf() says which model that is):
//
//   LockedClass<Model> model(module, "Model");
//   model.def("mass", &Model::mass);   // Model.mass(body) holds the model's lock
#pragma once

#include "real_numbers.hpp"  // before any cast of a double or a vector

#include <pybind11/pybind11.h>
#include <tinkertoy/scene/scene.hpp>

#include <type_traits>
#include <utility>

namespace tinkertoy::python {

namespace py = pybind11;

// Holds a model's lock for its lifetime. Constructed with the GIL held; if another thread holds
// the lock, waits for it with the GIL released.
class ModelLock {
 public:
  explicit ModelLock(const Model& model);
  ModelLock(const ModelLock&) = delete;
  ModelLock& operator=(const ModelLock&) = delete;
  ~ModelLock();

 private:
  const Model* model_;
};

// The model a binding's first argument stands for (PythonSimulator's is in python_simulator.hpp).
inline const Model& modelOf(const Model& model) { return model; }
inline const Model& modelOf(const Scene& scene) { return scene.model; }

// `function` as a callable of the same signature that holds the lock of its first argument's
// model while it runs.
template <class Function, class Return, class First, class... Args>
auto lockedAs(Function function, Return (*)(First, Args...)) {
  return [function = std::move(function)](First first, Args... args) -> Return {
    const ModelLock lock(modelOf(first));
    return function(std::forward<First>(first), std::forward<Args>(args)...);
  };
}

template <class Return, class Class, class... Args, bool NoExcept>
auto locked(Return (Class::*member)(Args...) noexcept(NoExcept)) {
  auto call = [member](Class& self, Args... args) -> Return { return (self.*member)(std::forward<Args>(args)...); };
  return lockedAs(std::move(call), static_cast<Return (*)(Class&, Args...)>(nullptr));
}

template <class Return, class Class, class... Args, bool NoExcept>
auto locked(Return (Class::*member)(Args...) const noexcept(NoExcept)) {
  auto call = [member](const Class& self, Args... args) -> Return {
    return (self.*member)(std::forward<Args>(args)...);
  };
  return lockedAs(std::move(call), static_cast<Return (*)(const Class&, Args...)>(nullptr));
}

// A lambda or a function pointer.
template <class Function, std::enable_if_t<!std::is_member_function_pointer_v<std::decay_t<Function>>, int> = 0>
auto locked(Function&& function) {
  using Signature = py::detail::function_signature_t<std::decay_t<Function>>;
  return lockedAs(std::decay_t<Function>(std::forward<Function>(function)), static_cast<Signature*>(nullptr));
}

// py::class_<Type> whose methods and properties all hold the model's lock (see above).
// Constructors pass through unchanged: they make an object no other thread can reach yet.
template <class Type, class... Options>
class LockedClass {
 public:
  using Class = py::class_<Type, Options...>;

  template <class... Extra>
  LockedClass(py::handle scope, const char* name, const Extra&... extra) : class_(scope, name, extra...) {}
  // The class already bound under `name` in `module`, to add methods to.
  static LockedClass existing(const py::module_& module, const char* name) {
    return LockedClass(py::reinterpret_borrow<Class>(module.attr(name)));
  }

  template <class Function, class... Extra>
  LockedClass& def(const char* name, Function&& function, const Extra&... extra) {
    class_.def(name, locked(std::forward<Function>(function)), extra...);
    return *this;
  }
  template <class... Args, class... Extra>
  LockedClass& def(py::detail::initimpl::factory<Args...>&& init, const Extra&... extra) {
    class_.def(std::move(init), extra...);
    return *this;
  }
  // Pickling: __getstate__ reads the object, so it holds the lock; __setstate__ makes a new one.
  template <class Get, class Set>
  LockedClass& def_pickle(Get&& get, Set&& set) {
    class_.def(py::pickle(locked(std::forward<Get>(get)), std::forward<Set>(set)));
    return *this;
  }
  template <class Getter, class... Extra>
  LockedClass& def_property_readonly(const char* name, Getter&& getter, const Extra&... extra) {
    class_.def_property_readonly(name, locked(std::forward<Getter>(getter)), extra...);
    return *this;
  }
  template <class Getter, class Setter, class... Extra>
  LockedClass& def_property(const char* name, Getter&& getter, Setter&& setter, const Extra&... extra) {
    class_.def_property(name, locked(std::forward<Getter>(getter)), locked(std::forward<Setter>(setter)), extra...);
    return *this;
  }
  template <class Member, class... Extra>
  LockedClass& def_readwrite(const char* name, Member Type::*member, const Extra&... extra) {
    return def_property(
        name, [member](const Type& self) -> const Member& { return self.*member; },
        [member](Type& self, const Member& value) { self.*member = value; }, extra...);
  }

 private:
  explicit LockedClass(Class bound) : class_(std::move(bound)) {}

  Class class_;
};

}  // namespace tinkertoy::python
