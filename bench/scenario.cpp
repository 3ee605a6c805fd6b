#include "scenario.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <stdexcept>
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

Scenario::Inertia Scenario::inertiaOf(std::size_t i) const {
  if (i < particles.size()) return {particles[i].mass, 0.0, particles[i].nailed};
  i -= particles.size();
  if (i < boxes.size()) return {boxes[i].mass, boxes[i].inertia, boxes[i].isStatic};
  const Disc& d = discs.at(i - boxes.size());
  return {d.mass, d.inertia, d.isStatic};
}

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

Scenario tumblerScenario(int side) {
  if (side < 1 || side > kMostTumblerSide) {
    throw std::invalid_argument("tumblerScenario: " + std::to_string(side) + " pieces a side; 1 to " +
                                std::to_string(kMostTumblerSide) + " fit the container");
  }
  constexpr double kHalf = 0.125;     // m: a box's half side, a disc's radius
  constexpr double kSpacing = 0.4;    // m between neighbouring pieces
  constexpr double kDensity = 1.0;    // kg/m²
  constexpr double kDegree = std::numbers::pi / 180.0;
  Scenario s = onBox2dClock(ScenarioKind::Tumbler, side == 45 ? "tumbler" : "tumbler-" + std::to_string(side), side);
  s.friction = 0.6;
  s.container = Scenario::Container{{0.0, 10.0, 0.0}, 10.0, 25.0 * kDegree};
  const double boxMass = kDensity * 4 * kHalf * kHalf, discMass = kDensity * std::numbers::pi * kHalf * kHalf;
  for (int i = 0; i < side; ++i) {    // row, upward
    for (int j = 0; j < side; ++j) {  // column
      const Vector3 at{(j - 0.5 * (side - 1)) * kSpacing, s.container->center.y + (i - 0.5 * (side - 1)) * kSpacing, 0.0};
      if ((i + j) % 2 == 0) {
        s.boxes.push_back({at, kHalf, kHalf, boxMass, boxMass * (8 * kHalf * kHalf) / 12.0, false});
      } else {
        s.discs.push_back({at, kHalf, discMass, 0.5 * discMass * kHalf * kHalf, false});
      }
    }
  }
  return s;
}

std::optional<Scenario> scenarioByName(std::string_view name) {
  if (name == "large_pyramid") return pyramidScenario(100, 1);
  if (name == "many_pyramids") return pyramidScenario(20, 10);
  if (name == "newtons_cradle") return cradleScenario(5);
  if (name == "tumbler") return tumblerScenario(45);
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
  if (family == "tumbler" && size <= kMostTumblerSide) return tumblerScenario(size);
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
  double total = 0.0;
  for (std::size_t i = 0; i < scenario.bodyCount(); ++i) {
    const Scenario::Inertia body = scenario.inertiaOf(i);
    if (body.fixed) continue;  // a static body counts nothing; a nailed particle does not move
    const BodyState& s = state[i];
    const Vector3& v = s.velocity;
    const Vector3& g = scenario.gravity;
    total += 0.5 * body.mass * (v.x * v.x + v.y * v.y + v.z * v.z) + 0.5 * body.inertia * s.angularVelocity * s.angularVelocity -
             body.mass * (g.x * s.position.x + g.y * s.position.y + g.z * s.position.z);
  }
  return total;
}

namespace {

// A body that collides (the pyramids' and the tumbler's boxes, the cradle's and the tumbler's
// discs): a box, or a disc when its radius is positive.
struct Piece {
  std::size_t body = 0;                      // in the body order
  double halfWidth = 0.0, halfHeight = 0.0;  // a box's
  double radius = 0.0;                       // a disc's
  bool isStatic = false;
};

std::vector<Piece> piecesOf(const Scenario& scenario) {
  std::vector<Piece> pieces;
  std::size_t body = scenario.particles.size();
  for (const Scenario::Box& b : scenario.boxes) pieces.push_back({body++, b.halfWidth, b.halfHeight, 0.0, b.isStatic});
  for (const Scenario::Disc& d : scenario.discs) pieces.push_back({body++, 0.0, 0.0, d.radius, d.isStatic});
  return pieces;
}

// Half the piece's extent along the unit vector (ux, uy) when it is turned by `angle`.
double halfExtent(const Piece& p, double angle, double ux, double uy) {
  if (p.radius > 0.0) return p.radius;
  const double c = std::cos(angle), n = std::sin(angle);
  return p.halfWidth * std::abs(c * ux + n * uy) + p.halfHeight * std::abs(-n * ux + c * uy);
}

// How deep boxes a and b overlap at their states: the least overlap of their projections on the
// four axes of the two boxes (separating axes), or 0 when one of them separates them.
double boxesOverlap(const Piece& a, const BodyState& sa, const Piece& b, const BodyState& sb) {
  const double ca = std::cos(sa.angle), na = std::sin(sa.angle), cb = std::cos(sb.angle), nb = std::sin(sb.angle);
  const double axes[4][2] = {{ca, na}, {-na, ca}, {cb, nb}, {-nb, cb}};
  const double dx = sb.position.x - sa.position.x, dy = sb.position.y - sa.position.y;
  double least = std::numeric_limits<double>::infinity();
  for (const auto& u : axes) {
    const double depth = halfExtent(a, sa.angle, u[0], u[1]) + halfExtent(b, sb.angle, u[0], u[1]) - std::abs(dx * u[0] + dy * u[1]);
    if (depth <= 0.0) return 0.0;
    least = std::min(least, depth);
  }
  return least;
}

// How far disc d reaches into box b: r − its centre's distance to the box's nearest point, or
// r + the centre's distance to the nearest face when the centre is inside.
double boxDiscOverlap(const Piece& b, const BodyState& sb, const Piece& d, const BodyState& sd) {
  const double c = std::cos(sb.angle), n = std::sin(sb.angle);
  const double wx = sd.position.x - sb.position.x, wy = sd.position.y - sb.position.y;
  const double x = c * wx + n * wy, y = -n * wx + c * wy;  // the centre in the box's frame
  const double outX = std::abs(x) - b.halfWidth, outY = std::abs(y) - b.halfHeight;
  if (outX <= 0.0 && outY <= 0.0) return d.radius + std::min(-outX, -outY);
  return d.radius - std::hypot(std::max(outX, 0.0), std::max(outY, 0.0));
}

double overlap(const Piece& a, const BodyState& sa, const Piece& b, const BodyState& sb) {
  if (a.radius > 0.0 && b.radius > 0.0) return a.radius + b.radius - distance(sa.position, sb.position);
  if (a.radius > 0.0) return boxDiscOverlap(b, sb, a, sa);
  if (b.radius > 0.0) return boxDiscOverlap(a, sa, b, sb);
  return boxesOverlap(a, sa, b, sb);
}

// How far a piece reaches past the inner face of the container's walls, the container turned by
// `angle`: its extent along the container's axes beyond the half side.
double wallOverlap(const Scenario::Container& box, double angle, const Piece& p, const BodyState& s) {
  const double c = std::cos(angle), n = std::sin(angle);
  const double wx = s.position.x - box.center.x, wy = s.position.y - box.center.y;
  const double x = c * wx + n * wy, y = -n * wx + c * wy;  // the piece's centre in the container's frame
  return std::max(std::abs(x) + halfExtent(p, s.angle, c, n), std::abs(y) + halfExtent(p, s.angle, -n, c)) - box.halfSize;
}

}  // namespace

double deepestPenetration(const Scenario& scenario, std::span<const BodyState> state, double time) {
  double deepest = 0.0;
  if (!scenario.collides()) return deepest;
  // Static pieces against every moving one; moving pieces against their neighbours in a grid of
  // cells as wide as the widest moving piece; each against the container.
  std::vector<Piece> statics, moving;
  double cell = 0.0;
  for (const Piece& p : piecesOf(scenario)) {
    (p.isStatic ? statics : moving).push_back(p);
    if (!p.isStatic) cell = std::max(cell, p.radius > 0.0 ? 2.0 * p.radius : 2.0 * std::hypot(p.halfWidth, p.halfHeight));
  }
  for (const Piece& a : statics) {
    for (const Piece& b : moving) deepest = std::max(deepest, overlap(a, state[a.body], b, state[b.body]));
  }
  if (scenario.container) {
    const double angle = scenario.container->angularVelocity * time;
    for (const Piece& p : moving) deepest = std::max(deepest, wallOverlap(*scenario.container, angle, p, state[p.body]));
  }
  std::map<std::pair<long, long>, std::vector<std::size_t>> grid;  // cell → indices into `moving`
  const auto cellOf = [cell](double x) { return static_cast<long>(std::floor(x / cell)); };
  for (std::size_t i = 0; i < moving.size(); ++i) {
    const Vector3& x = state[moving[i].body].position;
    grid[{cellOf(x.x), cellOf(x.y)}].push_back(i);
  }
  for (std::size_t i = 0; i < moving.size(); ++i) {
    const BodyState& si = state[moving[i].body];
    const long cx = cellOf(si.position.x), cy = cellOf(si.position.y);
    for (long x = cx - 1; x <= cx + 1; ++x) {
      for (long y = cy - 1; y <= cy + 1; ++y) {
        const auto found = grid.find({x, y});
        if (found == grid.end()) continue;
        for (const std::size_t j : found->second) {
          if (j > i) deepest = std::max(deepest, overlap(moving[i], si, moving[j], state[moving[j].body]));
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
    const BodyState& now = state[scenario.particles.size() + i];  // the boxes follow the particles
    if (b.isStatic) continue;
    if (!(std::abs(now.position.x - b.position.x) <= kMostSideways)) return false;
    if (b.position.y == top && !(b.position.y - now.position.y <= kMostSunk * height)) return false;
  }
  return true;
}

std::vector<BodyState> initialState(const Scenario& scenario) {
  std::vector<BodyState> state;
  state.reserve(scenario.bodyCount());
  for (const Scenario::Particle& p : scenario.particles) state.push_back({.position = p.position});
  for (const Scenario::Box& b : scenario.boxes) state.push_back({.position = b.position});
  for (const Scenario::Disc& d : scenario.discs) state.push_back({.position = d.position});
  return state;
}

}  // namespace tinkertoy::bench
