// NumPy views of a model's q and v over the engine's own storage, kept memory-safe.
//
// A view points into Model's q or v. Adding or removing a body lays the state out again, and
// the old storage would be freed under the view. So every such edit from Python runs inside a
// LayoutEdit: while views of the model exist, it first moves the old storage into the views'
// keeper (which they hold as their base) and gives the model a copy to edit. The views then
// still point at valid memory, the keeper is marked stale, and the Python side
// (tinkertoy/_state_array.py) raises StaleViewError on their use. A view never reads freed
// memory, whatever NumPy does with it.
#pragma once

#include "real_numbers.hpp"  // before any cast of a double or a vector

#include <pybind11/pybind11.h>
#include <tinkertoy/model/model.hpp>

#include <cstddef>
#include <memory>

namespace tinkertoy::python {

namespace py = pybind11;

// What the views of one vector (q or v) share, as their NumPy base: whether they are stale, and
// the storage they point at once it is no longer the model's.
struct ViewKeeper {
  bool stale = false;
  Eigen::VectorXd retired;
};

enum class StateVector { Coordinates, Velocities };

// A writable view of `length` entries of the model's q or v from `offset`, as a
// tinkertoy.StateArray. `owner` (the simulator) is kept alive by the view.
py::object stateView(Model& model, StateVector which, std::size_t offset, std::size_t length, py::handle owner);

// Wraps an edit that may lay out the model's state again (a body added or removed). If the edit
// throws, the model and its views are as they were.
class LayoutEdit {
 public:
  explicit LayoutEdit(Model& model);
  LayoutEdit(const LayoutEdit&) = delete;
  LayoutEdit& operator=(const LayoutEdit&) = delete;
  ~LayoutEdit();
  // The edit succeeded: the views of the old layout are stale from now on.
  void commit();

 private:
  Model& model_;
  std::shared_ptr<ViewKeeper> q_, v_;  // the live keepers whose storage was moved out
  bool committed_ = false;
};

// Runs `edit` (returning a value) as a LayoutEdit.
template <class Edit>
auto editLayout(Model& model, Edit&& edit) {
  LayoutEdit guard(model);
  auto result = edit();
  guard.commit();
  return result;
}

void bindStateViews(py::module_& module);

}  // namespace tinkertoy::python
