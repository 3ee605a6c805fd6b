// The Studio window's layout: a tool bar across the top, a side panel on the right, a status
// bar along the bottom, and the canvas in the rest. Shared with the end-to-end test, which
// finds particles in a screenshot through the same camera.
#pragma once

#include <Eigen/Core>

#include "tinkertoy/view/camera.hpp"

namespace tinkertoy::studio::layout {

constexpr double kToolbarHeight = 72.0;  // px: two rows, the second for the tools
constexpr double kStatusHeight = 28.0;   // px
constexpr double kPanelWidth = 380.0;    // px
constexpr double kNewCanvasScale = 100.0;  // px per metre
// The Open dialog, centred in the window, and the height of its list of examples.
inline const Eigen::Vector2d kOpenDialog{680.0, 520.0};  // px
constexpr double kOpenDialogList = 280.0;                 // px

// `camera` fitted to the canvas of a window of `window` pixels (its centre and scale kept).
inline Camera onCanvas(Camera camera, const Eigen::Vector2d& window) {
  camera.offset = {0.0, kToolbarHeight};
  camera.viewport = {std::max(window.x() - kPanelWidth, 1.0), std::max(window.y() - kToolbarHeight - kStatusHeight, 1.0)};
  return camera;
}

// A window over the canvas (the help): centred on it, at most `widest` px wide, and never past
// the canvas's edges less a margin, whatever the window's size.
struct CanvasWindow {
  Eigen::Vector2d center;
  Eigen::Vector2d size;  // px: the width, and the most height (the rest scrolls)
};
inline CanvasWindow overCanvas(const Eigen::Vector2d& window, double widest) {
  constexpr double kMargin = 10.0;
  const Eigen::Vector2d corner(0.0, kToolbarHeight);
  const Eigen::Vector2d canvas(std::max(window.x() - kPanelWidth, 1.0), std::max(window.y() - kToolbarHeight - kStatusHeight, 1.0));
  const Eigen::Vector2d room = (canvas.array() - 2.0 * kMargin).max(1.0);
  return {corner + canvas / 2.0, {std::min(widest, room.x()), room.y()}};
}

// An empty canvas shows the origin at the canvas centre, at 100 px per metre.
inline Camera newCanvasCamera(const Eigen::Vector2d& window) {
  return onCanvas({.center = Eigen::Vector2d::Zero(), .scale = kNewCanvasScale}, window);
}

}  // namespace tinkertoy::studio::layout
