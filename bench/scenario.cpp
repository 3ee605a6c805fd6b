#include "scenario.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <utility>

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

// A 2D scenario of Box2D v3's benchmarks: steps of 1/60 s in 4 substeps, 5 s, gravity down.
Scenario onBox2dClock(ScenarioKind kind, std::string name, int size) {
  Scenario s;
  s.kind = kind;
  s.name = std::move(name);
  s.size = size;
  s.dimension = 2;
  s.dt = 1.0 / 60.0;
  s.substeps = 4;
  s.duration = 5.0;
  s.gravity = {0.0, -kGravity, 0.0};
  return s;
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
  Scenario s = onBox2dClock(ScenarioKind::JointGrid, "joint_grid-" + std::to_string(side), side);
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

Scenario pyramidScenario(int rows, int count) {
  constexpr double kHalf = 0.5;      // m: Box2D v3's boxes, 1 m on a side
  constexpr double kMass = 1.0;      // kg (density 1)
  constexpr double kGap = 2.0;       // m between two pyramids' bases
  Scenario s = onBox2dClock(ScenarioKind::Pyramid,
                            count == 1 ? (rows == 100 ? "large_pyramid" : "pyramid-" + std::to_string(rows)) : "many_pyramids",
                            rows);
  s.friction = 0.6;
  s.pyramidRows = rows;
  const double pitch = rows * 2 * kHalf + kGap;  // from one pyramid's middle to the next's
  const double width = count * pitch;
  const double groundHalfWidth = 0.5 * width + 10.0;  // static: its mass and inertia are for engines that ask
  s.boxes.push_back({{0.5 * (count - 1) * pitch, -kHalf, 0.0}, groundHalfWidth, kHalf, kMass,
                     kMass * (4 * groundHalfWidth * groundHalfWidth + 4 * kHalf * kHalf) / 12.0, true});
  for (int p = 0; p < count; ++p) {
    const double middle = p * pitch;
    for (int row = 0; row < rows; ++row) {
      const int boxes = rows - row;
      for (int k = 0; k < boxes; ++k) {
        const double x = middle + (k - 0.5 * (boxes - 1)) * 2 * kHalf, y = (2 * row + 1) * kHalf;
        s.boxes.push_back({{x, y, 0.0}, kHalf, kHalf, kMass, kMass * (2 * kHalf * kHalf * 4) / 12.0, false});
      }
    }
  }
  return s;
}

Scenario cradleScenario(int balls) {
  constexpr double kRadius = 0.2;       // m
  constexpr double kMass = 1.0;         // kg
  constexpr double kRod = 1.0;          // m from a ball's center up to its pivot
  constexpr double kAnchorRadius = 0.05;  // m: a static disc at each pivot (it touches nothing)
  const double pulled = std::numbers::pi / 4;  // the first ball's angle out to the left
  Scenario s = onBox2dClock(ScenarioKind::Cradle, balls == 5 ? "newtons_cradle" : "cradle-" + std::to_string(balls), balls);
  s.length = kRod;
  s.friction = 0.0;
  s.restitution = 1.0;
  for (int i = 0; i < balls; ++i) {
    s.discs.push_back({{2.0 * kRadius * i, 0.0, 0.0}, kAnchorRadius, kMass, 0.5 * kMass * kAnchorRadius * kAnchorRadius, true});
  }
  for (int i = 0; i < balls; ++i) {
    const double angle = i == 0 ? pulled : 0.0;
    const Vector3 pivot = s.discs[static_cast<std::size_t>(i)].position;
    const Vector3 ball{pivot.x - kRod * std::sin(angle), pivot.y - kRod * std::cos(angle), 0.0};
    s.discs.push_back({ball, kRadius, kMass, 0.5 * kMass * kRadius * kRadius, false});
    s.pins.push_back({balls + i, i, {pivot.x - ball.x, pivot.y - ball.y, 0.0}, {0.0, 0.0, 0.0}});
  }
  return s;
}

std::optional<Scenario> scenarioByName(std::string_view name) {
  if (name == "large_pyramid") return pyramidScenario(100, 1);
  if (name == "many_pyramids") return pyramidScenario(20, 10);
  if (name == "newtons_cradle") return cradleScenario(5);
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
  if (family == "pyramid" && size <= 1000) return pyramidScenario(size, 1);
  if (family == "cradle" && size <= 1000) return cradleScenario(size);
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
  for (std::size_t i = 0; i < scenario.boxes.size(); ++i) {
    const Scenario::Box& b = scenario.boxes[i];
    total += b.isStatic ? 0.0 : bodyEnergy(state[i], b.mass, b.inertia, false);
  }
  return total;
}

namespace {

// How deep boxes a and b overlap at their states: the least overlap of their projections on the
// four axes of the two boxes (separating axes), or 0 when one of them separates them.
double overlap(const Scenario::Box& a, const BodyState& sa, const Scenario::Box& b, const BodyState& sb) {
  const double ca = std::cos(sa.angle), na = std::sin(sa.angle), cb = std::cos(sb.angle), nb = std::sin(sb.angle);
  const double axes[4][2] = {{ca, na}, {-na, ca}, {cb, nb}, {-nb, cb}};
  const double dx = sb.position.x - sa.position.x, dy = sb.position.y - sa.position.y;
  double least = std::numeric_limits<double>::infinity();
  for (const auto& u : axes) {
    const auto extent = [&u](const Scenario::Box& box, double c, double n) {
      return box.halfWidth * std::abs(c * u[0] + n * u[1]) + box.halfHeight * std::abs(-n * u[0] + c * u[1]);
    };
    const double depth = extent(a, ca, na) + extent(b, cb, nb) - std::abs(dx * u[0] + dy * u[1]);
    if (depth <= 0.0) return 0.0;
    least = std::min(least, depth);
  }
  return least;
}

}  // namespace

double deepestPenetration(const Scenario& scenario, std::span<const BodyState> state) {
  double deepest = 0.0;
  if (scenario.kind == ScenarioKind::Cradle) {  // a few balls: every pair of moving ones
    for (std::size_t i = 0; i < scenario.discs.size(); ++i) {
      for (std::size_t j = i + 1; j < scenario.discs.size(); ++j) {
        const Scenario::Disc &a = scenario.discs[i], &b = scenario.discs[j];
        if (a.isStatic || b.isStatic) continue;
        deepest = std::max(deepest, a.radius + b.radius - distance(state[i].position, state[j].position));
      }
    }
    return deepest;
  }
  // Static boxes against every moving one; moving boxes against their neighbours in a grid of
  // cells as wide as the largest moving box's diagonal.
  std::vector<std::size_t> moving;
  double cell = 0.0;
  for (std::size_t i = 0; i < scenario.boxes.size(); ++i) {
    if (scenario.boxes[i].isStatic) continue;
    moving.push_back(i);
    cell = std::max(cell, 2.0 * std::hypot(scenario.boxes[i].halfWidth, scenario.boxes[i].halfHeight));
  }
  for (std::size_t i = 0; i < scenario.boxes.size(); ++i) {
    if (!scenario.boxes[i].isStatic) continue;
    for (const std::size_t j : moving) deepest = std::max(deepest, overlap(scenario.boxes[i], state[i], scenario.boxes[j], state[j]));
  }
  std::map<std::pair<long, long>, std::vector<std::size_t>> grid;
  const auto cellOf = [cell](double x) { return static_cast<long>(std::floor(x / cell)); };
  for (const std::size_t i : moving) grid[{cellOf(state[i].position.x), cellOf(state[i].position.y)}].push_back(i);
  for (const std::size_t i : moving) {
    const long cx = cellOf(state[i].position.x), cy = cellOf(state[i].position.y);
    for (long x = cx - 1; x <= cx + 1; ++x) {
      for (long y = cy - 1; y <= cy + 1; ++y) {
        const auto found = grid.find({x, y});
        if (found == grid.end()) continue;
        for (const std::size_t j : found->second) {
          if (j > i) deepest = std::max(deepest, overlap(scenario.boxes[i], state[i], scenario.boxes[j], state[j]));
        }
      }
    }
  }
  return deepest;
}

bool pyramidsStand(const Scenario& scenario, std::span<const BodyState> state) {
  constexpr double kMostSideways = 0.1;  // m
  constexpr double kMostSunk = 0.01;     // of the pyramid's height
  double top = -std::numeric_limits<double>::infinity(), height = 0.0;  // the top boxes' center; the pyramid's height
  for (const Scenario::Box& b : scenario.boxes) {
    if (!b.isStatic && b.position.y > top) top = b.position.y, height = b.position.y + b.halfHeight;
  }
  for (std::size_t i = 0; i < scenario.boxes.size(); ++i) {
    const Scenario::Box& b = scenario.boxes[i];
    if (b.isStatic) continue;
    if (!(std::abs(state[i].position.x - b.position.x) <= kMostSideways)) return false;
    if (b.position.y == top && !(b.position.y - state[i].position.y <= kMostSunk * height)) return false;
  }
  return true;
}

std::vector<BodyState> initialState(const Scenario& scenario) {
  std::vector<BodyState> state(scenario.bodyCount());
  for (std::size_t i = 0; i < scenario.particles.size(); ++i) state[i].position = scenario.particles[i].position;
  for (std::size_t i = 0; i < scenario.discs.size(); ++i) state[i].position = scenario.discs[i].position;
  for (std::size_t i = 0; i < scenario.boxes.size(); ++i) state[i].position = scenario.boxes[i].position;
  return state;
}

}  // namespace tinkertoy::bench
