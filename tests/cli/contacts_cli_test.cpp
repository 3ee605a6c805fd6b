// The command line on a scene with contacts: the summary's contact line and JSON keys, which a
// scene without contacts does not have.
#include <numbers>

#include "cli_fixture.hpp"

namespace tinkertoy::cli {
namespace {

TEST_F(Cli, RunReportsTheContactsOfAScene) {
  const Result r = tinkertoy({"run", kScenes + "contacts.json", "--duration", "2", "--summary", file("s.json")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("contacts     up to "), std::string::npos) << r.out;
  const nlohmann::json s = readJson(file("s.json"));
  EXPECT_GE(s["contacts_max"].get<int>(), 8) << "every body on something";
  const double deepest = s["penetration_max"].get<double>();
  EXPECT_GT(deepest, 0.0);
  EXPECT_LT(deepest, 0.02) << "no body sinks into another by more than a speculative landing";
  EXPECT_LT(s["work"]["impulses"].get<double>(), -1.0) << "landing and sliding take energy, booked";
  // The soft step's relax passes stop an impact where the positions have already moved: each
  // impact leaves the integrator an error of about h m g Δv / 2, a few per cent of what it took.
  EXPECT_LT(s["energy_error_max"].get<double>(), 0.03 * s["energy_drift_max"].get<double>());
  const Result plain = tinkertoy({"run", kScenes + "pendulum.json", "--duration", "0.1", "--summary", file("p.json")});
  ASSERT_EQ(plain.code, kSuccess) << plain.err;
  EXPECT_EQ(plain.out.find("contacts"), std::string::npos);
  EXPECT_FALSE(readJson(file("p.json")).contains("contacts_max"));
  // A flag that does not solve contacts is refused by its name.
  const Result projected = tinkertoy({"run", kScenes + "contacts.json", "--position-correction", "projection"});
  EXPECT_EQ(projected.code, kBadInput);
  EXPECT_NE(projected.err.find("--position-correction: the projection holds contacts with solver ldlt or cg"),
            std::string::npos)
      << projected.err;
  const Result global =
      tinkertoy({"run", kScenes + "contacts.json", "--solver", "ldlt", "--position-correction", "baumgarte"});
  EXPECT_EQ(global.code, kBadInput);
  EXPECT_NE(global.err.find(": with solver cg or ldlt contacts are solved exactly"), std::string::npos) << global.err;
  // Both together are the exact mode.
  const Result exact = tinkertoy({"run", kScenes + "contacts.json", "--solver", "ldlt", "--position-correction",
                                  "projection", "--duration", "1", "--summary", file("exact.json")});
  ASSERT_EQ(exact.code, kSuccess) << exact.err;
  EXPECT_LT(readJson(file("exact.json"))["penetration_max"].get<double>(), 1e-9);
}

// --contacts turns them on for a scene that has none: a box dropped on a static floor rests on it
// instead of falling through, and the flags' bounds are named by the flag.
TEST_F(Cli, TheContactsFlagsTurnThemOn) {
  const std::string scene = writeScene("drop.json", R"({"dimension": 2, "gravity": [0, -9.81],
    "settings": {"formulation": "velocity", "solver": "sequential", "dt": 0.016666666666666666, "substeps": 4},
    "bodies": [
      {"id": "floor", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true, "shape": {"type": "box", "size": [6, 1]}},
      {"id": "box", "type": "rigid", "mass": 1, "position": [0, 1], "shape": {"type": "box", "size": [0.5, 0.5]}}]})");
  const Result through = tinkertoy({"run", scene, "--duration", "2", "--summary", file("through.json")});
  ASSERT_EQ(through.code, kSuccess) << through.err;
  EXPECT_LT(readJson(file("through.json"))["final_state"]["box"]["position"][1].get<double>(), -5.0) << "no contacts";
  const Result rests = tinkertoy({"run", scene, "--duration", "2", "--collisions", "--friction", "0.3", "--summary",
                                  file("rests.json")});
  ASSERT_EQ(rests.code, kSuccess) << rests.err;
  EXPECT_NEAR(readJson(file("rests.json"))["final_state"]["box"]["position"][1].get<double>(), 0.25, 1e-3);
  // The soft step's contact springs: a box at rest sits where its two points hold its weight,
  // each m g / 2 with k = 1/m + (r × n)²/I = 2.5 /kg, at s = −k m g / (2 ω²), ω = 2π · 2 · 10 Hz
  // against the static floor.
  const Result soft = tinkertoy({"run", scene, "--duration", "2", "--collisions", "--position-correction", "soft",
                                 "--contact-hertz", "10", "--summary", file("soft.json")});
  ASSERT_EQ(soft.code, kSuccess) << soft.err;
  const double omega = 2.0 * std::numbers::pi * 20.0;
  EXPECT_NEAR(readJson(file("soft.json"))["final_state"]["box"]["position"][1].get<double>(),
              0.25 - 2.5 * 9.81 / (2.0 * omega * omega), 1e-6);
  const Result stiff = tinkertoy({"run", scene, "--collisions", "--position-correction", "soft", "--contact-hertz", "0"});
  EXPECT_EQ(stiff.code, kBadInput);
  EXPECT_NE(stiff.err.find("--contact-hertz"), std::string::npos) << stiff.err;
  const Result bounce = tinkertoy({"run", scene, "--collisions", "--restitution", "1.5"});
  EXPECT_EQ(bounce.code, kBadInput);
  EXPECT_NE(bounce.err.find("--restitution: must be at most 1"), std::string::npos) << bounce.err;
  const Result acceleration = tinkertoy({"run", scene, "--collisions", "--formulation", "acceleration", "--solver", "cg"});
  EXPECT_EQ(acceleration.code, kBadInput);
  EXPECT_NE(acceleration.err.find("contacts are solved at the velocity level"), std::string::npos) << acceleration.err;
}

// --sleep puts a pile at rest to sleep: the summary counts the sleepers, a state saved while they
// sleep resumes to the same end, and the sleep flags' bounds are named by the flag (with or
// without collisions, as every setting's).
TEST_F(Cli, TheSleepFlagsPutAPileToSleep) {
  const std::string pile = kScenes + "pyramid.json";
  const Result asleep = tinkertoy({"run", pile, "--duration", "2", "--sleep", "--summary", file("asleep.json")});
  ASSERT_EQ(asleep.code, kSuccess) << asleep.err;
  EXPECT_NE(asleep.out.find("55 bodies asleep at the end"), std::string::npos) << asleep.out;
  EXPECT_EQ(readJson(file("asleep.json"))["asleep_final"].get<int>(), 55);
  const Result awake = tinkertoy({"run", pile, "--duration", "2", "--summary", file("awake.json")});
  ASSERT_EQ(awake.code, kSuccess) << awake.err;
  EXPECT_FALSE(readJson(file("awake.json")).contains("asleep_final")) << "sleep is off by default";
  // Saved at 1 s (asleep), resumed to 2 s: the same final state as the run straight through.
  const std::string dropped = kScenes + "sleeping_pile.json";
  const Result through = tinkertoy({"run", dropped, "--duration", "3", "--summary", file("through.json")});
  ASSERT_EQ(through.code, kSuccess) << through.err;
  const Result saved = tinkertoy({"run", dropped, "--duration", "1", "--save-state", file("at1.state"), "--quiet"});
  ASSERT_EQ(saved.code, kSuccess) << saved.err;
  const Result resumed =
      tinkertoy({"run", dropped, "--duration", "3", "--resume", file("at1.state"), "--summary", file("resumed.json")});
  ASSERT_EQ(resumed.code, kSuccess) << resumed.err;
  EXPECT_EQ(readJson(file("resumed.json"))["final_state"], readJson(file("through.json"))["final_state"]);
  const Result slow = tinkertoy({"run", pile, "--sleep", "--sleep-time", "0"});
  EXPECT_EQ(slow.code, kBadInput);
  EXPECT_NE(slow.err.find("--sleep-time"), std::string::npos) << slow.err;
  const Result fast = tinkertoy({"run", pile, "--sleep", "--sleep-speed", "-1"});
  EXPECT_EQ(fast.code, kBadInput);
  EXPECT_NE(fast.err.find("--sleep-speed"), std::string::npos) << fast.err;
  // Like the other contact settings, sleep means nothing without collisions: the sleeping scene
  // runs without them (its boxes fall through one another), and a scene without contacts ignores it.
  const Result loose = tinkertoy({"run", dropped, "--duration", "1", "--no-collisions", "--summary", file("none.json")});
  ASSERT_EQ(loose.code, kSuccess) << loose.err;
  EXPECT_FALSE(readJson(file("none.json")).contains("asleep_final"));
  const Result alone = tinkertoy({"run", kScenes + "pendulum.json", "--duration", "0.1", "--sleep"});
  EXPECT_EQ(alone.code, kSuccess) << alone.err;
}

// render --contacts draws each contact point with its normal: two more marks a point.
TEST_F(Cli, RenderDrawsTheContactsWhenAsked) {
  const auto marks = [](const std::string& svg) {
    std::size_t count = 0;
    for (std::size_t at = svg.find("<path"); at != std::string::npos; at = svg.find("<path", at + 1)) ++count;
    return count;
  };
  const Result plain = tinkertoy({"render", kScenes + "contacts.json", "-o", file("plain.svg"), "--time", "3", "--quiet"});
  ASSERT_EQ(plain.code, kSuccess) << plain.err;
  const Result drawn =
      tinkertoy({"render", kScenes + "contacts.json", "-o", file("drawn.svg"), "--time", "3", "--quiet", "--contacts"});
  ASSERT_EQ(drawn.code, kSuccess) << drawn.err;
  EXPECT_GE(marks(readFile(file("drawn.svg"))), marks(readFile(file("plain.svg"))) + 2 * 4) << "at least four points";
}

}  // namespace
}  // namespace tinkertoy::cli
