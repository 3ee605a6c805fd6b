#include "scenario.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>

namespace tinkertoy::bench {

namespace {

constexpr double kGravity = 9.81;

double distance(const Vector3& a, const Vector3& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

// The world position of a point at `local` on a disc in state s (2D rotation about z).
Vector3 pinPoint(const BodyState& s, const Vector3& local) {
  const double c = std::cos(s.angle), n = std::sin(s.angle);
  return {s.position.x + c * local.x - n * local.y, s.position.y + n * local.x + c * local.y, 0.0};
}

}  // namespace

long Scenario::steps() const { return std::lround(duration / dt); }

Scenario chainScenario(int links) {
  Scenario s;
  s.kind = ScenarioKind::Chain;
  s.name = "chain-" + std::to_string(links);
  s.size = links;
  s.dimension = 2;
  s.dt = 1.0 / 240.0;
  s.duration = 10.0;
  s.gravity = {0.0, -kGravity, 0.0};
  s.length = 1.0;
  for (int i = 0; i < links; ++i) {
    s.particles.push_back({{static_cast<double>(i + 1), 0.0, 0.0}, 1.0, false});
    s.rods.push_back({i, i == 0 ? Scenario::kPivot : i - 1, 1.0});
  }
  return s;
}

Scenario clothScenario(int side) {
  constexpr double kSpacing = 0.1;
  Scenario s;
  s.kind = ScenarioKind::Cloth;
  s.name = "cloth-" + std::to_string(side);
  s.size = side;
  s.dimension = 3;
  s.dt = 1.0 / 240.0;
  s.duration = 5.0;
  s.gravity = {0.0, -kGravity, 0.0};
  s.length = kSpacing;
  const auto at = [side](int i, int j) { return j * side + i; };
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      const bool corner = (i == 0 && j == 0) || (i == side - 1 && j == side - 1);
      s.particles.push_back({{i * kSpacing, 0.0, j * kSpacing}, 1.0, corner});
    }
  }
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      if (i + 1 < side) s.rods.push_back({at(i, j), at(i + 1, j), kSpacing});
      if (j + 1 < side) s.rods.push_back({at(i, j), at(i, j + 1), kSpacing});
    }
  }
  return s;
}

Scenario jointGridScenario(int side) {
  constexpr double kRadius = 0.4;
  constexpr double kDensity = 1.0;
  Scenario s;
  s.kind = ScenarioKind::JointGrid;
  s.name = "joint_grid-" + std::to_string(side);
  s.size = side;
  s.dimension = 2;
  s.dt = 1.0 / 60.0;
  s.substeps = 4;
  s.duration = 5.0;
  s.gravity = {0.0, -kGravity, 0.0};
  s.length = 1.0;
  const double mass = kDensity * std::numbers::pi * kRadius * kRadius;
  const double inertia = 0.5 * mass * kRadius * kRadius;
  for (int i = 0; i < side; ++i) {    // row, downward
    for (int k = 0; k < side; ++k) {  // column
      const bool fixed = i == 0 && k >= side / 2 - 3 && k <= side / 2 + 3;
      s.discs.push_back({{static_cast<double>(k), static_cast<double>(-i), 0.0}, kRadius, mass, inertia, fixed});
    }
  }
  const auto at = [side](int i, int k) { return i * side + k; };
  for (int i = 0; i < side; ++i) {
    for (int k = 0; k < side; ++k) {
      if (k + 1 < side) s.pins.push_back({at(i, k), at(i, k + 1), {0.5, 0.0, 0.0}, {-0.5, 0.0, 0.0}});
      if (i + 1 < side) s.pins.push_back({at(i, k), at(i + 1, k), {0.0, -0.5, 0.0}, {0.0, 0.5, 0.0}});
    }
  }
  return s;
}

Scenario treeScenario(int depth) {
  Scenario s;
  s.kind = ScenarioKind::Tree;
  s.name = "tree-" + std::to_string(depth);
  s.size = depth;
  s.dimension = 2;
  s.dt = 1.0 / 240.0;
  s.duration = 10.0;
  s.gravity = {0.0, -kGravity, 0.0};
  s.length = 1.0;
  // Level l (0 at the root) has 2^l masses; its masses sit on a horizontal line 1 m apart in x
  // from their siblings' subtrees' widths, so the children of a mass are at (x ± w, y − h) with
  // w² + h² = 1: w halves from level to level.
  s.particles.push_back({{0.0, -1.0, 0.0}, 1.0, false});
  s.rods.push_back({0, Scenario::kPivot, 1.0});
  for (int level = 1; level < depth; ++level) {
    const double w = 0.5 * std::pow(0.5, level), h = std::sqrt(1.0 - w * w);
    const int first = (1 << (level - 1)) - 1, count = 1 << (level - 1);
    for (int parent = first; parent < first + count; ++parent) {
      const Vector3 p = s.particles[static_cast<std::size_t>(parent)].position;
      for (const double side : {-1.0, 1.0}) {
        s.rods.push_back({static_cast<int>(s.particles.size()), parent, 1.0});
        s.particles.push_back({{p.x + side * w, p.y - h, 0.0}, 1.0, false});
      }
    }
  }
  return s;
}

Scenario starScenario(int arms) {
  Scenario s;
  s.kind = ScenarioKind::Star;
  s.name = "star-" + std::to_string(arms);
  s.size = arms;
  s.dimension = 2;
  s.dt = 1.0 / 240.0;
  s.duration = 10.0;
  s.gravity = {0.0, -kGravity, 0.0};
  s.length = 1.0;
  s.particles.push_back({{1.0, 0.0, 0.0}, 1.0, false});  // the hub
  s.rods.push_back({0, Scenario::kPivot, 1.0});
  for (int i = 0; i < arms; ++i) {
    const double angle = 2.0 * std::numbers::pi * (i + 0.5) / arms;
    s.rods.push_back({static_cast<int>(s.particles.size()), 0, 1.0});
    s.particles.push_back({{1.0 + std::cos(angle), std::sin(angle), 0.0}, 1.0, false});
  }
  return s;
}

std::optional<Scenario> scenarioByName(std::string_view name) {
  const auto dash = name.rfind('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view family = name.substr(0, dash), digits = name.substr(dash + 1);
  int size = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
  if (error != std::errc() || end != digits.data() + digits.size() || size <= 0) return std::nullopt;
  if (family == "chain") return chainScenario(size);
  if (family == "cloth" && size >= 2) return clothScenario(size);
  if (family == "joint_grid" && size >= 8) return jointGridScenario(size);  // 7 static bodies fit
  if (family == "tree" && size <= 20) return treeScenario(size);
  if (family == "star") return starScenario(size);
  return std::nullopt;
}

double constraintError(const Scenario& scenario, std::span<const BodyState> state) {
  double worst = 0.0;
  for (const Scenario::Rod& rod : scenario.rods) {
    const Vector3& a = state[static_cast<std::size_t>(rod.a)].position;
    const Vector3& b = rod.b == Scenario::kPivot ? scenario.pivot : state[static_cast<std::size_t>(rod.b)].position;
    worst = std::max(worst, std::abs(distance(a, b) - rod.length) / scenario.length);
  }
  for (std::size_t i = 0; i < scenario.particles.size(); ++i) {
    if (!scenario.particles[i].nailed) continue;
    worst = std::max(worst, distance(state[i].position, scenario.particles[i].position) / scenario.length);
  }
  for (const Scenario::Pin& pin : scenario.pins) {
    const Vector3 a = pinPoint(state[static_cast<std::size_t>(pin.a)], pin.localA);
    const Vector3 b = pinPoint(state[static_cast<std::size_t>(pin.b)], pin.localB);
    worst = std::max(worst, distance(a, b) / scenario.length);
  }
  // A NaN anywhere must show, not vanish in std::max.
  for (const BodyState& s : state) {
    if (!std::isfinite(s.position.x + s.position.y + s.position.z + s.angle)) return std::nan("");
  }
  return worst;
}

double energy(const Scenario& scenario, std::span<const BodyState> state) {
  const auto bodyEnergy = [&](const BodyState& s, double mass, double inertia, bool fixed) {
    const Vector3& v = s.velocity;
    const Vector3& g = scenario.gravity;
    const double kinetic = fixed ? 0.0
                                 : 0.5 * mass * (v.x * v.x + v.y * v.y + v.z * v.z) +
                                       0.5 * inertia * s.angularVelocity * s.angularVelocity;
    return kinetic - mass * (g.x * s.position.x + g.y * s.position.y + g.z * s.position.z);
  };
  double total = 0.0;
  for (std::size_t i = 0; i < scenario.particles.size(); ++i) {
    const Scenario::Particle& p = scenario.particles[i];
    total += bodyEnergy(state[i], p.mass, 0.0, p.nailed);
  }
  for (std::size_t i = 0; i < scenario.discs.size(); ++i) {
    const Scenario::Disc& d = scenario.discs[i];
    total += bodyEnergy(state[i], d.mass, d.inertia, d.isStatic);
  }
  return total;
}

std::vector<BodyState> initialState(const Scenario& scenario) {
  std::vector<BodyState> state(scenario.bodyCount());
  for (std::size_t i = 0; i < scenario.particles.size(); ++i) state[i].position = scenario.particles[i].position;
  for (std::size_t i = 0; i < scenario.discs.size(); ++i) state[i].position = scenario.discs[i].position;
  return state;
}

}  // namespace tinkertoy::bench
