// `tinkertoy render`: simulate a scene and draw it with cairo, as a still picture (SVG, PNG,
// PDF: the state at --time, or a strobe of --exposures faded states) or a video (MP4, GIF:
// frames at --fps, piped to ffmpeg).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "flag_checks.hpp"
#include "scene_run.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy::cli {

struct RenderOptions {
  std::string scene;
  SimulationFlags simulation;
  std::string output;
  int fps = 30;
  PixelSize size{960, 720};
  std::optional<double> time;  // s, the moment a still shows (default: the end)
  int exposures = 1;           // states overlaid in a still, evenly spaced over `span` up to time
  std::optional<double> span;  // s (default: the scene's period, else one second; see strobeTimes)
  bool trails = false;         // each point mass's and rigid body's path
  std::vector<std::string> trailPoints;  // BODY or BODY:X,Y: the paths of these points only
  bool forces = false;         // constraint-force arrows
  bool contacts = false;       // contact points and their normals
  // How a 3D scene is seen (default: ViewDirection::oblique()); a 2D scene only from the front.
  std::optional<ViewDirection> view;
  bool perspective = false;    // 3D: in perspective from the initial pose's middle (default_view.hpp)
  bool progress = false;       // draw a progress bar on stderr
  // Settings flags of a second run of the scene ("--ks 100 --kd 2"), drawn over the first as a
  // ghost in its own colour: the same moments under other settings.
  std::optional<std::string> ghost;
};

// The moments of a strobe's `exposures` (K ≥ 2) ending at `end`: evenly spaced over a span S,
// t_j = end − S (K − 1 − j)/(K − 1). S is `span`, else the scene's `period`, else 1 s, and at
// most `end`. With a period P, S is at most P (K − 1)/K: the exposures are then P/K apart at
// most, K different phases, and no two a whole period apart (which would show one pose twice).
std::vector<double> strobeTimes(int exposures, double end, std::optional<double> span, std::optional<double> period);

// The point `text` names in `model` (BODY: a particle, a bead, a chain's tip, a rigid body's
// origin; BODY:X,Y: the point at (X, Y) in a rigid body's frame). Throws std::invalid_argument
// saying what is wrong.
BodyPoint tracedPoint(const Model& model, const std::string& text);

int renderScene(const RenderOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
