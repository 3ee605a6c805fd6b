#include "tinkertoy/view/default_view.hpp"

#include <vector>

#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

namespace {

// Where the model is held: the point of each constraint on one point only (a nail, a fixed point).
std::vector<Eigen::Vector3d> heldPoints(const Model& model) {
  std::vector<Eigen::Vector3d> points;
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const std::span<const BodyPoint> ends = model.constraint(model.constraintAt(k)).points();
    if (ends.size() == 1 && model.contains(ends[0].body)) points.push_back(padTo3d(model.position(ends[0])));
  }
  return points;
}

// How widely `points` spread across the picture of `view`: the variance of their picture x.
double acrossSpread(const std::vector<Eigen::Vector3d>& points, const ViewDirection& view) {
  if (points.empty()) return 0.0;
  double sum = 0.0, squares = 0.0;
  for (const Eigen::Vector3d& p : points) {
    const double x = view.right().dot(p);
    sum += x;
    squares += x * x;
  }
  const double n = static_cast<double>(points.size());
  return squares / n - (sum / n) * (sum / n);
}

}  // namespace

ViewDirection inPerspective(ViewDirection view, const Model& model) {
  const auto [low, high] = model.boundingBox();
  view.focus = low.allFinite() && high.allFinite() ? Eigen::Vector3d(0.5 * (low + high)) : Eigen::Vector3d::Zero();
  view.eyeDistance = kPerspectiveDistance * model.size();
  return view;
}

ViewDirection defaultView(const Model& model) {
  if (model.dimension() != 3) return ViewDirection::front();
  // Seen across the points it hangs from, not along them: what it hangs between then hangs
  // across the picture. A model held at fewer than two points keeps the usual quarter.
  const std::vector<Eigen::Vector3d> points = heldPoints(model);
  const ViewDirection oblique = ViewDirection::oblique();
  if (points.size() < 2) return oblique;
  ViewDirection best = oblique;
  double widest = acrossSpread(points, oblique);
  for (const double quarter : {1.0, 2.0, 3.0}) {
    const ViewDirection view{oblique.azimuth + quarter * 90.0 * ViewDirection::kDegree, oblique.elevation};
    // Only a clearly wider picture turns the view: a symmetric model keeps the usual quarter.
    if (const double spread = acrossSpread(points, view); spread > 1.05 * widest) best = view, widest = spread;
  }
  return best;
}

}  // namespace tinkertoy
