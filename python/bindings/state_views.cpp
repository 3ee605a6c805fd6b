#include "state_views.hpp"

#include <pybind11/numpy.h>

#include <unordered_map>
#include <utility>

namespace tinkertoy::python {
namespace {

struct ModelViews {
  std::shared_ptr<ViewKeeper> q, v;
};

// The keepers of each model that has had views. A keeper whose views are all gone is held here
// only (use_count 1): the next view gets a new one, and the next layout edit drops the entry.
std::unordered_map<const Model*, ModelViews>& registry() {
  static std::unordered_map<const Model*, ModelViews> views;
  return views;
}

// The model's storage, writable without counting as an edit: writes through a view are noticed
// by the simulator itself (PythonSimulator::noticeViewWrites).
Eigen::VectorXd& storage(Model& model, StateVector which) {
  return which == StateVector::Coordinates ? model.qStorage() : model.vStorage();
}

bool inUse(const std::shared_ptr<ViewKeeper>& keeper) { return keeper && keeper.use_count() > 1; }

}  // namespace

py::object stateView(Model& model, StateVector which, std::size_t offset, std::size_t length, py::handle owner) {
  ModelViews& views = registry()[&model];
  std::shared_ptr<ViewKeeper>& keeper = which == StateVector::Coordinates ? views.q : views.v;
  if (!inUse(keeper)) keeper = std::make_shared<ViewKeeper>();
  Eigen::VectorXd& x = storage(model, which);
  py::object base = py::cast(keeper);
  py::array_t<double> array({static_cast<py::ssize_t>(length)}, {static_cast<py::ssize_t>(sizeof(double))},
                            x.data() + offset, base);
  return py::module_::import("tinkertoy._state_array")
      .attr("guard")(array, base, owner, which == StateVector::Coordinates ? "q" : "v");
}

LayoutEdit::LayoutEdit(Model& model) : model_(model) {
  const auto found = registry().find(&model);
  if (found == registry().end()) return;
  auto retire = [&](std::shared_ptr<ViewKeeper>& keeper, StateVector which, std::shared_ptr<ViewKeeper>& kept) {
    if (!inUse(keeper)) return;
    Eigen::VectorXd& x = storage(model, which);
    keeper->retired.swap(x);  // the views' memory now belongs to the keeper…
    x = keeper->retired;      // …and the model edits a copy
    kept = keeper;
  };
  retire(found->second.q, StateVector::Coordinates, q_);
  retire(found->second.v, StateVector::Velocities, v_);
}

LayoutEdit::~LayoutEdit() {
  if (committed_) return;
  // The edit failed and left the layout alone: the views' storage goes back to the model.
  for (auto [keeper, which] : {std::pair{q_.get(), StateVector::Coordinates}, std::pair{v_.get(), StateVector::Velocities}}) {
    if (!keeper) continue;
    storage(model_, which).swap(keeper->retired);
    keeper->retired.resize(0);
  }
}

void LayoutEdit::commit() {
  committed_ = true;
  const auto found = registry().find(&model_);
  if (found == registry().end()) return;
  for (auto* keeper : {&found->second.q, &found->second.v}) {
    if (*keeper) (*keeper)->stale = true;
  }
  registry().erase(found);
}

void bindStateViews(py::module_& module) {
  py::class_<ViewKeeper, std::shared_ptr<ViewKeeper>>(module, "_ViewKeeper",
                                                      "What the views of one state vector share (internal).")
      .def_property_readonly("stale", [](const ViewKeeper& keeper) { return keeper.stale; });
}

}  // namespace tinkertoy::python
