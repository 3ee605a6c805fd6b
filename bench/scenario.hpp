// Scenario: the benchmark problems as plain data. This is the one definition that Tinkertoy's
// own benchmark (bench_models.cpp) and every peer engine's driver (bench/peers/) build their
// worlds from, and the one place that measures a state of them, so every engine is judged by
// the same numbers (bench/RESULTS.md).
//
//   chain-N      (2D)  N masses of 1 kg at x = 1 … N, y = 0, released from rest; 1 m rods
//                      between neighbours and from the first mass to a pivot at the origin.
//                      dt = 1/240 s, 10 s.
//   cloth-G      (3D)  G × G masses of 1 kg spaced 0.1 m in the x–z plane; rods between
//                      horizontal and vertical neighbours; the corners (0, 0) and (G−1, G−1)
//                      nailed where they start. dt = 1/240 s, 5 s.
//   joint_grid-N (2D)  Box2D v3's benchmark: N × N discs of radius 0.4 (density 1) spaced 1 m,
//                      each pinned to its right and lower neighbours at the midpoints; the seven
//                      bodies around the middle of the top row are static. dt = 1/60 s with 4
//                      substeps for engines that substep, 5 s.
//   tree-D       (2D)  a binary tree of depth D (2^D − 1 masses of 1 kg): the root hangs 1 m below
//                      the pivot, each mass has two children 1 m below it, spread so that no two
//                      masses meet; 1 m rods along the edges. dt = 1/240 s, 10 s.
//   star-N       (2D)  a hub mass of 1 kg at the origin-side end of N rods of 1 m to N masses of
//                      1 kg around it (a body shared by N constraints), the hub hanging from the
//                      pivot by one more rod. dt = 1/240 s, 10 s.
//   pyramid-R    (2D)  Box2D v3's pyramid: R rows of 1 m boxes (1 kg, friction 0.6), R boxes at
//                      the bottom and one fewer in each row up, each row centred on the one below
//                      and touching it, on a static ground box whose top is y = 0 (the first
//                      box of the scenario). dt = 1/60 s with 4 substeps, 5 s. pyramid-20 has
//                      210 boxes; large_pyramid is pyramid-100 (5050 boxes).
//   many_pyramids (2D) ten pyramid-20s side by side on one ground, 2 m apart at their bases
//                      (2100 boxes).
//   cradle-N     (2D)  Newton's cradle: N balls of radius 0.2 m and 1 kg (friction 0,
//                      restitution 1) touching in a row, each hanging 1 m below its own pivot by a
//                      pin to a static anchor there (a rigid pendulum); the first ball pulled out
//                      to 45° on the left. dt = 1/60 s with 4 substeps, 5 s. newtons_cradle is
//                      cradle-5.
//   tumbler-N    (2D)  Box2D v3's tumbler: a kinematic square container 20 m on a side (four
//                      thin two-sided walls) centred at (0, 10), turning at 25°/s about its
//                      centre, around N × N pieces 0.4 m apart in a square grid centred in it,
//                      at rest: boxes 0.25 m on a side and discs of radius 0.125 m, alternating
//                      like a chessboard (density 1, friction 0.6). dt = 1/60 s with 4
//                      substeps, 5 s. tumbler is tumbler-45 (1013 boxes and 1012 discs).
//
// Gravity is (0, −9.81[, 0]) m/s². A scenario carries particles and rods (chain, cloth), discs
// and pins (joint_grid; the cradle, whose moving discs collide), boxes that collide (the
// pyramids), or boxes and discs that collide in a container (the tumbler). Its bodies, in the
// order every engine reports them, are the particles, then the boxes, then the discs.
//
//   Scenario s = scenarioByName("chain-1000").value();
//   std::vector<BodyState> state = ...;           // read from an engine, in s's body order
//   double error = constraintError(s, state);     // max over rods of |‖x_a − x_b‖ − L| / L
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tinkertoy::bench {

struct Vector3 {
  double x = 0.0, y = 0.0, z = 0.0;
};

enum class ScenarioKind { Chain, Cloth, JointGrid, Tree, Star, Pyramid, Cradle, Tumbler };

struct Scenario {
  // A point mass (chain, cloth). A nailed particle is held at its starting position: a
  // constraint in Tinkertoy, infinite mass or a joint to the world in other engines.
  struct Particle {
    Vector3 position;
    double mass = 1.0;  // kg
    bool nailed = false;
  };
  // A rigid rod between two particles, or from particle a to the pivot (b == kPivot).
  struct Rod {
    int a = 0;
    int b = 0;
    double length = 0.0;  // m
  };
  static constexpr int kPivot = -1;
  // A disc (joint_grid), at its center of mass, angle 0.
  struct Disc {
    Vector3 position;
    double radius = 0.0;   // m
    double mass = 0.0;     // kg
    double inertia = 0.0;  // kg·m² about the center
    bool isStatic = false;
  };
  // A revolute pin between bodies a and b (indices in the body order; a scenario with pins has
  // discs only, so these are the discs' indices too, as the drivers use them: a test holds every
  // scenario to it) at a point offset localA from a's center and localB from b's (both frames
  // start unrotated, so the two offsets meet at one world point).
  struct Pin {
    int a = 0;
    int b = 0;
    Vector3 localA, localB;
  };

  // A box that collides with the others (the pyramids, the tumbler), at its center of mass,
  // angle 0.
  struct Box {
    Vector3 position;
    double halfWidth = 0.0, halfHeight = 0.0;  // m
    double mass = 0.0;                         // kg
    double inertia = 0.0;                      // kg·m² about the center
    bool isStatic = false;
  };

  // A kinematic square container (the tumbler): its walls are the four sides of the square of
  // half side `halfSize` about `center`, which turns about the center at `angularVelocity`
  // from angle 0 at t = 0. It is no body of the body order.
  struct Container {
    Vector3 center;
    double halfSize = 0.0;         // m, to each wall
    double angularVelocity = 0.0;  // rad/s, counter-clockwise
  };

  // What a body weighs, in the body order.
  struct Inertia {
    double mass = 0.0;     // kg
    double inertia = 0.0;  // kg·m² about the center (0 for a particle)
    bool fixed = false;    // static, or nailed
  };

  ScenarioKind kind = ScenarioKind::Chain;
  std::string name;  // "chain-1000"
  int size = 0;      // N links, G per side, N per side
  int dimension = 2;
  double dt = 0.0;        // s
  int substeps = 1;       // per step, for engines that substep
  double duration = 0.0;  // s
  Vector3 gravity;        // m/s²
  double length = 1.0;    // L: the rod length, or the grid spacing, for ‖C‖/L

  std::vector<Particle> particles;
  std::vector<Rod> rods;
  Vector3 pivot;

  std::vector<Disc> discs;
  std::vector<Pin> pins;

  std::vector<Box> boxes;
  double friction = 0.0;     // Coulomb's μ between any two colliding bodies
  double restitution = 0.0;  // of any two colliding bodies
  int pyramidRows = 0;       // rows of each pyramid

  std::optional<Container> container;

  // Bodies an engine reports a state for: the particles, the boxes and the discs.
  [[nodiscard]] std::size_t bodyCount() const { return particles.size() + boxes.size() + discs.size(); }
  // Body `i`'s mass and inertia, in the body order.
  [[nodiscard]] Inertia inertiaOf(std::size_t i) const;
  // Whether its bodies collide: the boxes of the pyramids, the cradle's moving discs, the
  // tumbler's pieces.
  [[nodiscard]] bool collides() const {
    return kind == ScenarioKind::Pyramid || kind == ScenarioKind::Cradle || kind == ScenarioKind::Tumbler;
  }
  // Whether something drives it (the tumbler's container), so that its energy is not conserved.
  [[nodiscard]] bool driven() const { return container.has_value(); }
  [[nodiscard]] long steps() const;
};

// The state of one body as an engine reports it, in the scenario's body order. Angles and
// angular velocities matter for the discs only.
struct BodyState {
  Vector3 position;  // m (of the center of mass)
  Vector3 velocity;  // m/s
  double angle = 0.0;            // rad about z
  double angularVelocity = 0.0;  // rad/s
};

Scenario chainScenario(int links);
Scenario clothScenario(int side);
Scenario jointGridScenario(int side);
Scenario treeScenario(int depth);
Scenario starScenario(int arms);
// `count` pyramids of `rows` rows side by side (pyramid-R, large_pyramid, many_pyramids).
Scenario pyramidScenario(int rows, int count);
// Newton's cradle of `balls` balls (cradle-N; newtons_cradle is cradle-5).
Scenario cradleScenario(int balls);
// The tumbler with `side` × `side` pieces, 1 ≤ side ≤ kMostTumblerSide, else
// std::invalid_argument (tumbler-N; tumbler is tumbler-45).
inline constexpr int kMostTumblerSide = 50;  // the most that fit the container: 0.4 (N − 1)/2 + 0.125 < 10
Scenario tumblerScenario(int side);
// "chain-N", "cloth-G", "joint_grid-N", "tree-D", "star-N", "pyramid-R", "cradle-N" or
// "tumbler-N" with a positive size, "large_pyramid", "many_pyramids", "newtons_cradle" or
// "tumbler"; nullopt for anything else.
std::optional<Scenario> scenarioByName(std::string_view name);

// The constraint error of a state [bodyCount()], in units of L: for rods, the largest
// |‖x_a − x_b‖ − length| / L and the largest drift of a nailed particle / L; for pins, the largest
// distance between the two pinned points (m, L being 1 m).
double constraintError(const Scenario& scenario, std::span<const BodyState> state);
// Kinetic plus gravitational potential energy of a state [bodyCount()], J, with the
// scenario's masses and inertias; static bodies and nailed particles count nothing (they stay put).
double energy(const Scenario& scenario, std::span<const BodyState> state);
// The deepest overlap of two colliding bodies in a state [bodyCount()] at time t, m (0 when none
// overlap, and for scenarios whose bodies do not collide): for two boxes the least
// separating-axis overlap, for two discs r_a + r_b − ‖x_a − x_b‖, for a box and a disc how far
// the disc reaches past the box's nearest point; for a piece and the container, how far the
// piece reaches past a wall's inner face (the container's angle at t is ω t, as the scenario
// drives it; an engine that integrates the angle in single precision drifts from it by far less
// than the overlaps measured), so that a piece that got out counts at least its own size.
double deepestPenetration(const Scenario& scenario, std::span<const BodyState> state, double time);
// Whether every pyramid still stands in a state: its top box has sunk by at most 1 % of the
// pyramid's height, and no box has moved sideways by more than 0.1 m.
bool pyramidsStand(const Scenario& scenario, std::span<const BodyState> state);
// The starting state [bodyCount()]: every body where the scenario puts it, at rest.
std::vector<BodyState> initialState(const Scenario& scenario);

}  // namespace tinkertoy::bench
