// ViewDirection: how a picture sees a 3D model — a view from a direction given by an azimuth and
// an elevation, mapping a world point to the picture plane (metres, y up) and to a depth (metres
// toward the viewer, so a larger depth is drawn later, over what lies behind). Orthographic, or
// in perspective from an eye `eyeDistance` metres from a focus point.
//
//   right  = ( cos a,        0,     −sin a      )
//   up     = (−sin a sin e,  cos e, −cos a sin e)
//   toward = ( sin a cos e,  sin e,  cos a cos e)      (a: azimuth, e: elevation)
//
// These are the rows of a rotation: the world's y axis stays upright on the picture (the
// azimuth turns the model about it), and the elevation tilts the view down onto the model.
// Azimuth 0 and elevation 0 is the front view along −z, the picture of a 2D model: (x, y) as is.
// The top view (elevation 90°) shows x to the right and −z up; the side view (azimuth 90°)
// looks along −x and shows −z to the right.
//
// Perspective: with q = x − focus and its depth d = toward·q, an eye at distance D from the focus
// sees q magnified by s = D / (D − d), so
//   picture = (right·focus, up·focus) + s (right·q, up·q),
// which leaves the plane through the focus (d = 0) as the orthographic view draws it: framing
// stays put when perspective is turned on. Nearer points (d > 0) are drawn larger. A point at or
// behind the eye has no picture; s is capped at 10 (d ≥ 0.9 D), so such a point is drawn huge
// but finite.
//
//   tinkertoy::ViewDirection view = tinkertoy::ViewDirection::oblique();
//   Eigen::Vector2d p = view.toPicture(x);  double d = view.depth(x);
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string_view>

namespace tinkertoy {

struct ViewDirection {
  double azimuth = 0.0;    // rad, a turn of the model about the world's y axis
  double elevation = 0.0;  // rad, how far above the horizon the viewer stands, in [−π/2, π/2]
  double eyeDistance = 0.0;  // m from the focus to the eye; 0: orthographic
  Eigen::Vector3d focus = Eigen::Vector3d::Zero();  // the point perspective is centred on, m

  static constexpr double kDegree = std::numbers::pi / 180.0;

  [[nodiscard]] static ViewDirection front() { return {}; }
  [[nodiscard]] static ViewDirection top() { return {0.0, 90.0 * kDegree}; }
  [[nodiscard]] static ViewDirection side() { return {90.0 * kDegree, 0.0}; }
  // Three quarters from the front-right, a little from above: every axis is seen foreshortened
  // by a different amount, so no edge of a grid lines up with another.
  [[nodiscard]] static ViewDirection oblique() { return {35.0 * kDegree, 25.0 * kDegree}; }

  // The named views: "front", "top", "side", "oblique"; nothing for any other name.
  [[nodiscard]] static std::optional<ViewDirection> named(std::string_view name) {
    if (name == "front") return front();
    if (name == "top") return top();
    if (name == "side") return side();
    if (name == "oblique") return oblique();
    return std::nullopt;
  }

  [[nodiscard]] Eigen::Vector3d right() const { return {std::cos(azimuth), 0.0, -std::sin(azimuth)}; }
  [[nodiscard]] Eigen::Vector3d up() const {
    return {-std::sin(azimuth) * std::sin(elevation), std::cos(elevation), -std::cos(azimuth) * std::sin(elevation)};
  }
  [[nodiscard]] Eigen::Vector3d toward() const {
    return {std::sin(azimuth) * std::cos(elevation), std::sin(elevation), std::cos(azimuth) * std::cos(elevation)};
  }

  [[nodiscard]] bool perspective() const { return eyeDistance > 0.0; }

  // A world point (2 or 3 coordinates; a 2D point has z = 0) on the picture plane.
  [[nodiscard]] Eigen::Vector2d toPicture(const Eigen::Ref<const Eigen::VectorXd>& x) const {
    const Eigen::Vector3d q = embed(x) - focus;
    const double s = magnification(toward().dot(q));
    return Eigen::Vector2d(right().dot(focus), up().dot(focus)) + s * Eigen::Vector2d(right().dot(q), up().dot(q));
  }
  [[nodiscard]] double depth(const Eigen::Ref<const Eigen::VectorXd>& x) const { return toward().dot(embed(x)); }
  // The world point at `picture` and `depth`: the inverse of toPicture and depth together.
  [[nodiscard]] Eigen::Vector3d toWorld(const Eigen::Vector2d& picture, double depth) const {
    const double d = depth - toward().dot(focus);
    const Eigen::Vector2d flat = (picture - Eigen::Vector2d(right().dot(focus), up().dot(focus))) / magnification(d);
    return focus + flat.x() * right() + flat.y() * up() + d * toward();
  }

  // The view turned by `azimuth` and tilted by `elevation` (rad), the elevation kept within
  // ±90° so the picture never turns upside down.
  void orbit(double dAzimuth, double dElevation) {
    azimuth = std::remainder(azimuth + dAzimuth, 2.0 * std::numbers::pi);
    elevation = std::clamp(elevation + dElevation, -0.5 * std::numbers::pi, 0.5 * std::numbers::pi);
  }

 private:
  // s = D / (D − d) for a point d toward the eye from the focus plane; 1 when orthographic.
  [[nodiscard]] double magnification(double d) const {
    if (!perspective()) return 1.0;
    return eyeDistance / (eyeDistance - std::min(d, 0.9 * eyeDistance));
  }
  static Eigen::Vector3d embed(const Eigen::Ref<const Eigen::VectorXd>& x) {
    return {x[0], x[1], x.size() > 2 ? x[2] : 0.0};
  }
};

}  // namespace tinkertoy
