// Style: how a picture of a model looks, shared by every drawing backend (the Studio's canvas,
// the cairo renderer of `tinkertoy render`), so an item looks the same wherever it is drawn.
// Sizes are in pixels at the Studio's scale; a renderer drawing a larger picture multiplies
// them by its own unit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy {

struct Colour {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

// The straight blend from a (t = 0) to b (t = 1); t is clamped to [0, 1].
inline Colour mix(Colour a, Colour b, double t) {
  t = std::clamp(t, 0.0, 1.0);
  const auto blend = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(x + (y - x) * t));
  };
  return {blend(a.r, b.r), blend(a.g, b.g), blend(a.b, b.b), blend(a.a, b.a)};
}

namespace colours {
inline constexpr Colour kBackground{247, 247, 242};
inline constexpr Colour kInk{40, 44, 52};            // outlines, links, pins, text
inline constexpr Colour kDot{28, 45, 90};            // point masses
inline constexpr Colour kWire{110, 120, 140};        // wires, curves, paths, slider axes
inline constexpr Colour kTension{214, 39, 40};       // a rod pulling
inline constexpr Colour kCompression{31, 119, 180};  // a rod pushing
inline constexpr Colour kRope{140, 100, 60};
inline constexpr Colour kSoft{148, 103, 189};  // a soft distance joint
inline constexpr Colour kSpring{60, 130, 90};
inline constexpr Colour kMouse{255, 127, 14};  // the mouse's pull, a driven point
inline constexpr Colour kForce{44, 160, 44};   // constraint-force arrows
inline constexpr Colour kContact{214, 39, 40};  // contact points and their normals
inline constexpr Colour kPin{90, 90, 90};      // a nail's triangle
inline constexpr Colour kTrail{190, 60, 150, 200};  // magenta: a path, not a rod in compression
inline constexpr Colour kTrace{0, 150, 160, 220};   // teal: the path of a point the user traces
inline constexpr Colour kGhost{230, 110, 0, 150};   // orange, see-through: a second run drawn over the first
}  // namespace colours

// A rigid body's fill: grey for static, green for kinematic, blue for dynamic bodies, a paler
// grey-blue for one asleep.
constexpr Colour shapeFill(RigidBody::Motion motion, bool asleep = false) {
  switch (motion) {
    case RigidBody::Motion::Static:
      return {160, 160, 160, 200};
    case RigidBody::Motion::Kinematic:
      return {140, 200, 140, 170};
    case RigidBody::Motion::Dynamic:
      break;
  }
  return asleep ? Colour{175, 185, 205, 170} : Colour{130, 170, 220, 170};
}

// A rod coloured by its multiplier λ against the largest |λ| in the picture: ink when unloaded
// or unknown (NaN), shading to red in tension (λ < 0) and blue in compression.
inline Colour rodColour(double lambda, double largest) {
  if (!std::isfinite(lambda) || !(largest > 0.0)) return colours::kInk;
  return mix(colours::kInk, lambda < 0 ? colours::kTension : colours::kCompression, std::abs(lambda) / largest);
}

// A colour seen at depth: `fade` 0 is the front of the picture (the colour itself), 1 the back,
// which blends 60% into the background, so a 3D picture reads near from far.
inline Colour atDepth(Colour c, double fade) { return mix(c, colours::kBackground, 0.6 * fade); }

// The radius of a point mass of `mass` kg: grows as the cube root, within [0.7, 1.8] × 6 px.
inline double dotRadius(double mass) { return 6.0 * std::clamp(std::cbrt(mass), 0.7, 1.8); }

// The longest constraint-force arrow (the largest force in the picture), px.
inline constexpr double kLongestArrow = 80.0;

}  // namespace tinkertoy
