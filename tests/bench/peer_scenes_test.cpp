// Every engine in the peer benchmark builds the same scene from the one definition
// (bench/scenario.hpp): as many bodies, at the same places, with the same masses, so the same
// rod lengths (zero constraint error at the start) and the same initial energy. Without any
// peer engine installed (scripts/install-peers.sh) only Tinkertoy's modes exist, and the peer
// check is skipped, saying so.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "peer_world.hpp"

namespace tinkertoy::bench {
namespace {

constexpr double kPositionTolerance = 1e-5;  // m: engines in single precision store floats

bool anyPeer() {
  for (const EngineMode& mode : engineModes()) {
    if (!mode.isTinkertoy) return true;
  }
  return false;
}

void expectSameScene(const EngineMode& mode, const Scenario& scenario) {
  SCOPED_TRACE(mode.engine + ", " + mode.mode + ", " + scenario.name);
  const std::unique_ptr<PeerWorld> world = mode.build(scenario);
  std::vector<BodyState> state(scenario.bodyCount());
  world->read(state);
  const std::vector<BodyState> expected = initialState(scenario);
  for (std::size_t i = 0; i < state.size(); ++i) {
    EXPECT_NEAR(state[i].position.x, expected[i].position.x, kPositionTolerance) << "body " << i;
    EXPECT_NEAR(state[i].position.y, expected[i].position.y, kPositionTolerance) << "body " << i;
    EXPECT_NEAR(state[i].position.z, expected[i].position.z, kPositionTolerance) << "body " << i;
    EXPECT_NEAR(state[i].angle, 0.0, 1e-9) << "body " << i;
  }
  EXPECT_LT(constraintError(scenario, state), kPositionTolerance / scenario.length);
  EXPECT_NEAR(energy(scenario, state), energy(scenario, expected), 1e-4 * static_cast<double>(scenario.bodyCount()));

  std::vector<double> masses(scenario.bodyCount());
  world->masses(masses);
  for (std::size_t i = 0; i < masses.size(); ++i) {
    const Scenario::Inertia body = scenario.inertiaOf(i);
    if (body.fixed && masses[i] == 0.0) continue;  // held by infinite mass
    EXPECT_NEAR(masses[i], body.mass, 1e-6 * body.mass) << "body " << i;
  }

  // One step moves it under gravity, and nothing comes apart. An engine that moves the positions
  // with the velocities of before the step (Chipmunk) has gained the kinetic energy of a step of
  // free fall, ½ m |g|² dt² per body, without having fallen yet.
  world->step();
  world->read(state);
  const double g2 = scenario.gravity.x * scenario.gravity.x + scenario.gravity.y * scenario.gravity.y +
                    scenario.gravity.z * scenario.gravity.z;
  double totalMass = 0.0;
  for (const double m : masses) totalMass += m;
  const double lag = 0.5 * totalMass * g2 * scenario.dt * scenario.dt;
  EXPECT_LT(energy(scenario, state), energy(scenario, expected) + lag + 1e-3 * static_cast<double>(scenario.bodyCount()));
  EXPECT_LT(constraintError(scenario, state), 0.05);
}

TEST(PeerScenes, TinkertoyBuildsEveryScenario) {
  for (const EngineMode& mode : engineModes()) {
    if (!mode.isTinkertoy) continue;
    for (const Scenario& s : {chainScenario(10), clothScenario(8), jointGridScenario(10), pyramidScenario(5, 2),
                              cradleScenario(3), tumblerScenario(6)}) {
      expectSameScene(mode, s);
    }
  }
}

TEST(PeerScenes, EveryPeerBuildsTheSameScene) {
  if (!anyPeer()) GTEST_SKIP() << "no peer engine was built: scripts/install-peers.sh installs them";
  int checked = 0;
  for (const EngineMode& mode : engineModes()) {
    if (mode.isTinkertoy) continue;
    for (const Scenario& s : {chainScenario(10), clothScenario(8), jointGridScenario(10), pyramidScenario(5, 2),
                              cradleScenario(3), tumblerScenario(6)}) {
      if (!mode.supports(s)) continue;
      expectSameScene(mode, s);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// The drivers index the discs by a pin's body indices: a scenario with pins has discs only.
TEST(PeerScenes, PinsJoinDiscsOnly) {
  for (const char* name : {"joint_grid-10", "newtons_cradle", "chain-10", "pyramid-5", "tumbler-3"}) {
    const Scenario s = scenarioByName(name).value();
    if (s.pins.empty()) continue;
    EXPECT_TRUE(s.particles.empty() && s.boxes.empty()) << name;
    for (const Scenario::Pin& pin : s.pins) {
      EXPECT_LT(static_cast<std::size_t>(std::max(pin.a, pin.b)), s.discs.size()) << name;
    }
  }
}

TEST(PeerScenes, NamesParse) {
  EXPECT_EQ(scenarioByName("chain-1000")->particles.size(), 1000u);
  EXPECT_EQ(scenarioByName("cloth-4")->rods.size(), 24u);
  EXPECT_EQ(scenarioByName("joint_grid-10")->pins.size(), 180u);
  EXPECT_EQ(scenarioByName("tumbler-3")->bodyCount(), 9u);
  EXPECT_EQ(scenarioByName("tumbler-50")->bodyCount(), 2500u);
  EXPECT_THROW(tumblerScenario(51), std::invalid_argument);
  for (const char* bad : {"chain", "chain-", "chain-0", "chain--3", "chain-1x", "rope-10", "joint_grid-3", "tumbler-0",
                          "tumbler-51"}) {
    EXPECT_FALSE(scenarioByName(bad)) << bad;
  }
}

// Newton's cradle: five balls touching in a row, each on a 1 m pin below its own static anchor,
// the first pulled out to 45°; the penetration measure of two balls is r_a + r_b − their distance.
TEST(PeerScenes, TheCradleIsLaidOutAndItsOverlapMeasured) {
  const Scenario s = scenarioByName("newtons_cradle").value();
  ASSERT_EQ(s.discs.size(), 10u);
  ASSERT_EQ(s.pins.size(), 5u);
  EXPECT_EQ(s.restitution, 1.0);
  EXPECT_EQ(s.friction, 0.0);
  std::vector<BodyState> state = initialState(s);
  EXPECT_LT(constraintError(s, state), 1e-15) << "each pin meets its anchor";
  EXPECT_NEAR(state[5].position.x, -std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(state[5].position.y, -std::sqrt(0.5), 1e-15);
  for (std::size_t i = 6; i + 1 < 10; ++i) {
    EXPECT_NEAR(state[i + 1].position.x - state[i].position.x, 2 * s.discs[i].radius, 1e-15) << "touching";
  }
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.0, 1e-15);
  state[8].position.x -= 0.01;  // into ball 7
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.01, 1e-12);
  EXPECT_FALSE(scenarioByName("cradle-0"));
  EXPECT_EQ(scenarioByName("cradle-3")->discs.size(), 6u);
}

// The tumbler: Box2D v3's 45 × 45 pieces, boxes and discs like a chessboard, inside the turning
// container; the penetration measure of a box and a disc, two discs, and a piece and the walls,
// against hand counts.
TEST(PeerScenes, TheTumblerIsLaidOutAndItsOverlapMeasured) {
  const Scenario tumbler = scenarioByName("tumbler").value();
  EXPECT_EQ(tumbler.boxes.size(), 1013u);
  EXPECT_EQ(tumbler.discs.size(), 1012u);
  ASSERT_TRUE(tumbler.container);
  EXPECT_NEAR(tumbler.container->angularVelocity, 25.0 * std::numbers::pi / 180.0, 1e-15);
  EXPECT_TRUE(tumbler.driven());
  EXPECT_EQ(deepestPenetration(tumbler, initialState(tumbler), 0.0), 0.0) << "apart, and inside the walls";
  EXPECT_NEAR(tumbler.inertiaOf(0).mass, 0.0625, 1e-15);                           // a box 0.25 m on a side
  EXPECT_NEAR(tumbler.inertiaOf(1013).mass, std::numbers::pi / 64.0, 1e-15);       // a disc of radius 1/8

  const Scenario s = tumblerScenario(2);  // boxes 0 and 1, discs 2 and 3
  ASSERT_EQ(s.bodyCount(), 4u);
  const Vector3 center = s.container->center;
  const auto apart = [&] {  // well inside and far from each other
    std::vector<BodyState> state = initialState(s);
    state[0].position = {center.x - 5.0, center.y, 0.0};
    state[1].position = {center.x + 5.0, center.y, 0.0};
    state[2].position = {center.x, center.y - 5.0, 0.0};
    state[3].position = {center.x, center.y + 5.0, 0.0};
    return state;
  };
  std::vector<BodyState> state = apart();
  EXPECT_EQ(deepestPenetration(s, state, 0.0), 0.0);
  state[2].position = {state[0].position.x + 0.25 - 0.03, state[0].position.y, 0.0};  // 3 cm into the box's side
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.03, 1e-12);
  state[2].position.x = state[0].position.x + 0.1;  // its centre inside: r + 0.025 m to the face
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.15, 1e-12);
  state[0].angle = std::numbers::pi / 4;  // the box on its corner, the disc 2 cm into the corner
  state[2].position.x = state[0].position.x + 0.125 * std::sqrt(2.0) + 0.125 - 0.02;
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.02, 1e-12);
  state = apart();
  state[2].position = {state[3].position.x + 0.2, state[3].position.y, 0.0};  // two discs 0.2 m apart
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.05, 1e-12);

  // At 45°, the container's corner points along (1, 1): a disc 9.9 m out that way is 2.5 cm past
  // a wall, while at 0° it is well inside; an unturned box there reaches 0.125 √2 along the
  // wall's normal.
  const double turned = (std::numbers::pi / 4) / s.container->angularVelocity;  // s
  const double out = 9.9 / std::sqrt(2.0);
  state = apart();
  state[3].position = {center.x + out, center.y + out, 0.0};
  EXPECT_NEAR(deepestPenetration(s, state, turned), 0.025, 1e-12);
  EXPECT_EQ(deepestPenetration(s, state, 0.0), 0.0);
  state = apart();
  state[1].position = {center.x + out, center.y + out, 0.0};
  EXPECT_NEAR(deepestPenetration(s, state, turned), 9.9 + 0.125 * std::sqrt(2.0) - 10.0, 1e-12);
  state = apart();
  state[3].position = {center.x, center.y + 12.0, 0.0};  // got out
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 2.125, 1e-12);
}

TEST(PeerScenes, PyramidsAreLaidOutAsBox2dV3Does) {
  const Scenario large = scenarioByName("large_pyramid").value();
  EXPECT_EQ(large.boxes.size(), 1u + 5050u);  // the ground and 100 + 99 + … + 1 boxes
  EXPECT_EQ(scenarioByName("pyramid-20")->boxes.size(), 1u + 210u);
  EXPECT_EQ(scenarioByName("many_pyramids")->boxes.size(), 1u + 2100u);
  // Resting, every box touches the next without overlapping, and each pyramid stands.
  const Scenario s = pyramidScenario(4, 2);
  std::vector<BodyState> state = initialState(s);
  EXPECT_EQ(deepestPenetration(s, state, 0.0), 0.0);
  EXPECT_TRUE(pyramidsStand(s, state));
}

// The penetration is the least overlap over the two boxes' axes, against a hand count: two unit
// boxes 0.9 m apart overlap by 0.1 m; a box turned 45° on the two below it is least deep along its
// own diagonal; and the pyramids' standing test catches a slid box and a sunk top.
TEST(PeerScenes, PenetrationAndStandingMeasureWhatTheySay) {
  Scenario s = pyramidScenario(2, 1);  // the ground, two boxes at the bottom, one on top
  std::vector<BodyState> state = initialState(s);
  state[2].position.x = state[1].position.x + 0.9;  // the bottom pair 0.1 m into each other
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.1, 1e-12);
  state = initialState(s);
  state[3].angle = std::numbers::pi / 4;  // the top box on its corner, its center where it was
  // Its lowest corner is √2/2 − 0.5 ≈ 0.207 m into the boxes below along y, but along its own axis
  // u = (1, 1)/√2 less: its half extent 0.5, the lower left box's (0.5 + 0.5)/√2, their centers
  // (0.5, 1) apart, 1.5/√2 along u: 0.5 + 1/√2 − 1.5/√2 = 0.5 (1 − 1/√2) ≈ 0.146 m.
  EXPECT_NEAR(deepestPenetration(s, state, 0.0), 0.5 * (1.0 - std::sqrt(0.5)), 1e-12);
  EXPECT_TRUE(pyramidsStand(s, initialState(s)));
  state = initialState(s);
  state[1].position.x -= 0.11;  // slid 0.11 m
  EXPECT_FALSE(pyramidsStand(s, state));
  state = initialState(s);
  state[3].position.y -= 0.021;  // the top sunk by more than 1 % of the 2 m pyramid
  EXPECT_FALSE(pyramidsStand(s, state));
  state[3].position.y += 0.002;  // by 0.019 m: within it
  EXPECT_TRUE(pyramidsStand(s, state));
}

TEST(PeerScenes, ErrorAndEnergyMeasureWhatTheySay) {
  const Scenario s = chainScenario(2);
  std::vector<BodyState> state = initialState(s);
  EXPECT_EQ(constraintError(s, state), 0.0);
  EXPECT_DOUBLE_EQ(energy(s, state), 0.0);  // at rest on y = 0
  state[1].position.x = 2.5;               // the second rod 1.5 m long
  state[1].velocity.y = 2.0;
  EXPECT_DOUBLE_EQ(constraintError(s, state), 0.5);
  EXPECT_DOUBLE_EQ(energy(s, state), 0.5 * 1.0 * 4.0);
  state[0].position.y = std::nan("");
  EXPECT_TRUE(std::isnan(constraintError(s, state)));
}

}  // namespace
}  // namespace tinkertoy::bench
