// The scene writer: writing a scene and loading the result gives the same model in the same
// state — the same q and v, the same constraint rows (C, Ċ, J, row kinds) and the same motion —
// for every shipped scene, both as loaded and written mid-run (limits, driven paths and anchors
// re-expressed at the current pose).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/scratch_directory.hpp"
#include "support/system_differences.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

const std::filesystem::path kScenes = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";

std::vector<std::filesystem::path> shippedScenes() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(kScenes)) {
    if (entry.path().extension() == ".json") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Scene roundTrip(const Scene& scene) { return parseScene(writeScene(scene), "<written>"); }

// The written model has what the original has, in the same order, in the same state; its
// constraint system has the same rows with the same values and derivatives (the written scene
// starts at t = 0, so this also checks that time-dependent constraints are re-phased).
//
// A file states each joint by one world anchor, so a joint written mid-run is written closed:
// where the original has drifted apart by ‖C‖, the written joint has its sites together. Values
// and Jacobians may differ by that drift (a site moves by at most ‖C‖), and no more. Returns the
// drift.
double expectSameModel(const Scene& original, const Scene& written) {
  const Model& a = original.model;
  const Model& b = written.model;
  EXPECT_EQ(a.bodyCount(), b.bodyCount());
  EXPECT_EQ(a.constraintCount(), b.constraintCount());
  if (a.bodyCount() != b.bodyCount() || a.constraintCount() != b.constraintCount()) return 0.0;
  for (std::size_t i = 0; i < a.bodyCount(); ++i) {
    EXPECT_EQ(a.body(a.bodyAt(i)).type(), b.body(b.bodyAt(i)).type());
    EXPECT_NEAR(a.mass(a.bodyAt(i)), b.mass(b.bodyAt(i)), 1e-12);
  }
  EXPECT_LT((a.q() - b.q()).lpNorm<Eigen::Infinity>(), 1e-14);
  EXPECT_LT((a.v() - b.v()).lpNorm<Eigen::Infinity>(), 1e-14);
  const auto x = test_support::evaluateSystem(a, a.time(), a.q(), a.v());
  const auto y = test_support::evaluateSystem(b, b.time(), b.q(), b.v());
  EXPECT_EQ(x.C.size(), y.C.size());
  if (x.C.size() != y.C.size()) return 0.0;
  EXPECT_EQ(x.kinds, y.kinds);
  double drift = 0.0;  // of the equality rows, where a joint comes apart
  for (Eigen::Index row = 0; row < x.C.size(); ++row) {
    if (x.kinds[row] == RowKind::Equality) drift = std::max(drift, std::abs(x.C[row]));
  }
  for (Eigen::Index row = 0; row < x.C.size(); ++row) {
    // Equality rows of a drifted joint close; inequality rows keep their distance to the bound.
    if (x.kinds[row] == RowKind::Equality) {
      EXPECT_LE(std::abs(y.C[row]), std::abs(x.C[row]) + 1e-11) << "row " << row;
    } else {
      EXPECT_NEAR(y.C[row], x.C[row], drift + 1e-11) << "row " << row;
    }
  }
  EXPECT_LT((x.Cdot - y.Cdot).lpNorm<Eigen::Infinity>(), 1e-10 + 10 * drift);
  EXPECT_LT((x.J - y.J).lpNorm<Eigen::Infinity>(), 1e-10 + 10 * drift);
  EXPECT_EQ(original.settings.formulation, written.settings.formulation);
  EXPECT_EQ(original.settings.integrator, written.settings.integrator);
  EXPECT_EQ(original.settings.errorTolerance.relative, written.settings.errorTolerance.relative);
  EXPECT_EQ(original.settings.errorTolerance.absolute, written.settings.errorTolerance.absolute);
  EXPECT_EQ(original.settings.velocity.scheme, written.settings.velocity.scheme);
  EXPECT_EQ(original.settings.solver.kind, written.settings.solver.kind);
  EXPECT_EQ(original.settings.dt, written.settings.dt);
  EXPECT_EQ(original.duration, written.duration);
  return drift;
}

void advance(Model& model, const SimulationSettings& settings, int steps) {
  Simulator sim(model, settings);
  for (int i = 0; i < steps; ++i) sim.step();
}

// Round-off a run leaves where there should be zero is written as zero (entries below 1e-15
// of the model's size); small values that are not round-off stay.
// Writing a state never changes it: a round-off-sized number stays (it used to be written as 0
// below 1e-15 of the model's size), and so does a state far out after a blow-up, which the
// size-relative rounding wrote as all zeros.
TEST(SceneWriter, WritesTheStateAsItIs) {
  const Scene scene = parseScene(R"({"particles": [
      {"id": "a", "mass": 1, "position": [1, -2.7e-27], "velocity": [-2.7e-27, 1e-9]},
      {"id": "b", "mass": 1, "position": [2, 0]}]})");
  const auto json = nlohmann::json::parse(writeScene(scene));
  EXPECT_EQ(json["particles"][0]["position"][1].get<double>(), -2.7e-27);
  EXPECT_EQ(json["particles"][0]["velocity"][0].get<double>(), -2.7e-27);
  EXPECT_EQ(json["particles"][0]["velocity"][1].get<double>(), 1e-9);
  const Scene far = parseScene(R"({"particles": [
      {"id": "a", "mass": 1, "position": [1e150, 3.5]}, {"id": "b", "mass": 1, "position": [0.25, -1]}]})");
  const auto farJson = nlohmann::json::parse(writeScene(far));
  EXPECT_EQ(farJson["particles"][0]["position"][1].get<double>(), 3.5);
  EXPECT_EQ(farJson["particles"][1]["position"], nlohmann::json::parse("[0.25, -1.0]"));
}

class EveryScene : public testing::TestWithParam<std::filesystem::path> {};

TEST_P(EveryScene, WritesWhatItLoaded) {
  const Scene original = loadScene(GetParam());
  const Scene written = roundTrip(original);
  expectSameModel(original, written);
  EXPECT_EQ(original.name, written.name);
  EXPECT_EQ(original.description, written.description);
  EXPECT_EQ(original.period, written.period);
}

TEST_P(EveryScene, WrittenMidRunContinuesTheSameMotion) {
  Scene original = loadScene(GetParam());
  const int steps = static_cast<int>(std::ceil(0.25 / original.settings.dt));
  advance(original.model, original.settings, steps);
  Scene written = roundTrip(original);
  const double drift = expectSameModel(original, written);
  // Both go on from the same state and repeat the same arithmetic, up to the closed drift (the
  // velocity level's warm-start impulses, which the file does not keep, matter no more than
  // that: chain_of_boxes, sequential impulses, differs by 1.0e-5 m after its 1.6e-6 m drift).
  advance(original.model, original.settings, steps);
  advance(written.model, written.settings, steps);
  EXPECT_LT((original.model.q() - written.model.q()).lpNorm<Eigen::Infinity>(), 1e-9 + 10 * drift);
}

INSTANTIATE_TEST_SUITE_P(Scenes, EveryScene, testing::ValuesIn(shippedScenes()),
                         [](const testing::TestParamInfo<std::filesystem::path>& p) { return p.param.stem().string(); });

// No shipped scene has joint limits; this one swings a limited hinge and a limited, motorized
// slide hard into their stops, so the state written mid-run is away from the pose the limits
// were measured from, and the rows at their stops are active.
TEST(SceneWriter, WritesJointLimitsMeasuredFromTheCurrentPose) {
  Scene original = parseScene(R"({
    "settings": {"formulation": "velocity", "solver": "ldlt", "dt": 0.004, "substeps": 2},
    "bodies": [
      {"id": "arm", "type": "rigid", "mass": 1, "position": [0.5, 0], "angle": 0.3,
       "shape": {"type": "box", "size": [1, 0.1]}},
      {"id": "slider", "type": "rigid", "mass": 2, "position": [2, 1], "angle": 0.2,
       "shape": {"type": "box", "size": [0.4, 0.2]}},
      {"id": "pendulum", "type": "rigid", "mass": 1, "position": [2, 0],
       "shape": {"type": "circle", "radius": 0.1}}],
    "constraints": [
      {"type": "revolute", "a": "arm", "b": null, "anchor": [0, 0], "lower": -0.4, "upper": 0.2},
      {"type": "prismatic", "a": "slider", "b": null, "anchor": [2, 1], "axis": [1, 1],
       "lower": -0.3, "upper": 0.5, "motor_speed": 2, "max_motor_force": 30},
      {"type": "revolute", "a": "pendulum", "b": "slider", "anchor": [2, 1], "lower": -1, "upper": 1}]})");
  advance(original.model, original.settings, 150);
  Scene written = roundTrip(original);
  const double drift = expectSameModel(original, written);
  const auto json = nlohmann::json::parse(writeScene(original));
  EXPECT_NE(json["constraints"][0]["lower"].get<double>(), -0.4);  // re-measured
  advance(original.model, original.settings, 150);
  advance(written.model, written.settings, 150);
  EXPECT_LT((original.model.q() - written.model.q()).lpNorm<Eigen::Infinity>(), 1e-9 + 10 * drift);
}

TEST(SceneWriter, NamesUnnamedBodiesWithoutClashing) {
  Scene scene = parseScene(R"({"particles": [{"id": "body0", "mass": 1, "position": [0, 0]}]})");
  scene.model.addParticle(1.0, Eigen::Vector2d(1, 0));
  scene.model.addParticle(1.0, Eigen::Vector2d(2, 0));
  const auto json = nlohmann::json::parse(writeScene(scene));
  ASSERT_EQ(json["particles"].size(), 3u);
  EXPECT_EQ(json["particles"][0]["id"], "body0");
  EXPECT_EQ(json["particles"][1]["id"], "body1");
  EXPECT_EQ(json["particles"][2]["id"], "body2");
  expectSameModel(scene, roundTrip(scene));
}

// An inertia the shape gives is not written (so an editor's change of mass or shape carries it
// along) and is derived again bit for bit; one given in the file is kept.
TEST(SceneWriter, WritesAnInertiaOnlyWhereTheShapeDoesNotGiveIt) {
  const Scene scene = parseScene(R"({"bodies": [
    {"id": "derived", "type": "rigid", "mass": 0.7, "position": [0, 0], "shape": {"type": "box", "size": [0.61, 0.08]}},
    {"id": "given", "type": "rigid", "mass": 0.7, "inertia": 0.3, "position": [1, 0], "shape": {"type": "circle", "radius": 0.2}}]})");
  const auto json = nlohmann::json::parse(writeScene(scene));
  EXPECT_FALSE(json["bodies"][0].contains("inertia")) << json["bodies"][0];
  EXPECT_EQ(json["bodies"][1]["inertia"], 0.3);
  const Scene written = roundTrip(scene);
  for (const char* id : {"derived", "given"}) {
    const auto inertia = [id](const Scene& s) {
      return dynamic_cast<const RigidBody&>(s.model.body(*s.model.findBody(id))).inertia();
    };
    EXPECT_EQ(inertia(written), inertia(scene)) << id;
  }
}

TEST(SceneWriter, LeavesOutBrokenJointsAndMouseSprings) {
  Scene scene = parseScene(R"({
    "particles": [{"id": "a", "mass": 1, "position": [0, 0]}, {"id": "b", "mass": 1, "position": [1, 0]}],
    "constraints": [{"type": "distance", "a": "a", "b": "b"}, {"type": "fixed", "particle": "a"}]})");
  scene.model.setEnabled(scene.model.constraintAt(0), false);
  const BodyId b = *scene.model.findBody("b");
  const std::size_t forces = scene.model.forceCount();  // gravity
  scene.model.addForce(std::make_unique<MouseSpring>(BodyPoint{b}, Eigen::Vector2d(2, 0), 10.0, 1.0));
  const Scene written = roundTrip(scene);
  EXPECT_EQ(written.model.constraintCount(), 1u);
  EXPECT_EQ(written.model.forceCount(), forces);
}

TEST(SceneWriter, SaveReportsAnUnwritableFile) {
  const Scene scene = loadScene(kScenes / "pendulum.json");
  const testing_support::ScratchDirectory scratch;
  const std::filesystem::path file = scratch.path() / "no-such-dir" / "x.json";
  try {
    saveScene(scene, file);
    FAIL() << "expected a SceneError";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(SceneWriter, SaveWritesALoadableFile) {
  const Scene scene = loadScene(kScenes / "hybrid.json");
  const testing_support::ScratchDirectory scratch;
  const std::filesystem::path file = scratch.path() / "hybrid.json";
  saveScene(scene, file);
  expectSameModel(scene, loadScene(file));
}

}  // namespace
}  // namespace tinkertoy
