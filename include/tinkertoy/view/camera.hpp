// Camera: the map between world coordinates (metres, y up) and the pixels of a picture (y down).
//
//   pixel = origin + scale · (x − center, −(y − center_y))
//
// The Studio pans and zooms one; a renderer frames the model with frame(); a test that reads a
// screenshot uses the same map to find where a particle must appear.
//
//   tinkertoy::Camera camera = tinkertoy::Camera::frame(bounds, {800, 600}, 0.1);
//   Eigen::Vector2d px = camera.toPixels({1.0, 0.5});
#pragma once

#include <Eigen/Core>
#include <algorithm>

#include "tinkertoy/view/bounds.hpp"

namespace tinkertoy {

struct Camera {
  Eigen::Vector2d center = Eigen::Vector2d::Zero();  // world point at the middle of the view, m
  double scale = 100.0;                               // pixels per metre
  Eigen::Vector2d viewport{800.0, 600.0};             // size of the picture, px
  Eigen::Vector2d offset = Eigen::Vector2d::Zero();   // top-left corner of the picture, px

  [[nodiscard]] Eigen::Vector2d toPixels(const Eigen::Vector2d& world) const {
    const Eigen::Vector2d d = scale * (world - center);
    return offset + 0.5 * viewport + Eigen::Vector2d(d.x(), -d.y());
  }
  [[nodiscard]] Eigen::Vector2d toWorld(const Eigen::Vector2d& pixels) const {
    const Eigen::Vector2d d = (pixels - offset - 0.5 * viewport) / scale;
    return center + Eigen::Vector2d(d.x(), -d.y());
  }
  // The world rectangle the picture shows.
  [[nodiscard]] Bounds visible() const {
    Bounds b;
    b.add(toWorld(offset));
    b.add(toWorld(offset + viewport));
    return b;
  }

  // Zooms by `factor` about a pixel, which keeps showing the same world point.
  void zoomAbout(const Eigen::Vector2d& pixel, double factor) {
    const Eigen::Vector2d fixed = toWorld(pixel);
    scale = std::clamp(scale * factor, 1e-3, 1e7);
    center += fixed - toWorld(pixel);
  }

  // The camera that shows `bounds` whole in `viewport`, leaving `margin` (a fraction of the
  // viewport) on every side. Bounds under 1 mm across (empty, or a single point) are widened to
  // 1 m; a small mechanism (Andrews' squeezer is 0.1 m across) fills the picture, at most
  // 10⁶ pixels per metre, inside zoomAbout's range.
  [[nodiscard]] static Camera frame(Bounds bounds, const Eigen::Vector2d& viewport, double margin) {
    const double longest = bounds.empty() ? 0.0 : bounds.size().maxCoeff();
    if (longest < 1e-3) bounds.ensureSize(1.0);
    const Eigen::Vector2d usable = viewport * (1.0 - 2.0 * margin);
    const Eigen::Vector2d size = bounds.size();
    return {.center = bounds.center(),
            .scale = std::min(usable.x() / size.x(), usable.y() / size.y()),
            .viewport = viewport};
  }
};

}  // namespace tinkertoy
