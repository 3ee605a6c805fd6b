// What the model itself refuses, so that no door can hand it over (issue #34): a mass whose
// inverse overflows, a name that is not text, a time that is not a number or that a step cannot
// advance, a mass matrix without an inverse at the start; and the readers of the command line
// that feed it (a sweep's --set, a trajectory CSV to plot).
#include <gtest/gtest.h>

#include <fstream>

#include "cli_fixture.hpp"
#include "tinkertoy/tinkertoy.hpp"

namespace tinkertoy {
namespace {

constexpr double kSubnormal = 5e-324;  // positive, but 1/x is infinite

template <class Make>
std::string refusal(const Make& make) {
  try {
    make();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

std::string scenePathOf(const std::string& json) {
  try {
    (void)parseScene(json);
  } catch (const SceneError& e) {
    return e.path() + ": " + e.reason();
  }
  return "accepted";
}

TEST(ModelInput, AMassWithoutAFiniteInverseIsRefusedByEveryBody) {
  Model model(2);
  for (const std::string& says :
       {refusal([&] { model.addParticle(kSubnormal, Eigen::Vector2d::Zero()); }),
        refusal([&] { model.addBody(std::make_unique<Particle>(2, kSubnormal), Eigen::Vector2d::Zero()); }),
        refusal([&] { model.addBody(std::make_unique<RigidBody>(kSubnormal, 1.0, Shape::circle(1.0)), Eigen::Vector3d::Zero()); }),
        refusal([&] { model.addBody(std::make_unique<RigidBody>(1.0, kSubnormal, Shape::circle(1.0)), Eigen::Vector3d::Zero()); }),
        refusal([&] {
          model.addBody(std::make_unique<Chain>(Eigen::Vector2d::Zero(), std::vector{1.0, 1.0}, std::vector{1.0, kSubnormal}),
                        Eigen::Vector2d::Zero());
        })}) {
    EXPECT_NE(says.find("must be at least 2.2e-308"), std::string::npos) << says;
  }
  EXPECT_EQ(model.bodyCount(), 0u);
  EXPECT_NO_THROW(model.addParticle(1e-300, Eigen::Vector2d::Zero()));  // small, but its inverse is finite
}

TEST(ModelInput, AMassWithoutAFiniteInverseIsRefusedAtItsJsonPath) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"particles": [{"id": "p", "mass": 5e-324, "position": [0, 0]}]})", "particles[0].mass"},
      {R"({"bodies": [{"id": "b", "type": "rigid", "mass": 5e-324, "position": [0, 0],
                       "shape": {"type": "circle", "radius": 1}}]})", "bodies[0].mass"},
      {R"({"bodies": [{"id": "b", "type": "rigid", "mass": 1, "inertia": 5e-324, "position": [0, 0],
                       "shape": {"type": "circle", "radius": 1}}]})", "bodies[0].inertia"},
      {R"({"bodies": [{"id": "c", "type": "chain", "pivot": [0, 0], "lengths": [1, 1], "masses": [1, 5e-324],
                       "angles": [0, 0]}]})", "bodies[0].masses[1]"},
      {R"({"bodies": [{"id": "b", "type": "bead", "mass": 5e-324,
                       "curve": {"type": "circle", "center": [0, 0], "radius": 1}}]})", "bodies[0].mass"},
  };
  for (const auto& [json, path] : cases) {
    const std::string says = scenePathOf(json);
    EXPECT_EQ(says.substr(0, path.size() + 1), path + ":") << says;
    EXPECT_NE(says.find("no finite inverse"), std::string::npos) << says;
  }
}

TEST(ModelInput, NamesAreText) {
  Model model(2);
  const std::string nul("p\0q", 3);
  EXPECT_NE(refusal([&] { model.addParticle(1.0, Eigen::Vector2d::Zero(), {}, nul); }).find("'p\\x00q' holds a NUL byte"),
            std::string::npos);
  EXPECT_NE(refusal([&] { model.addParticle(1.0, Eigen::Vector2d::Zero(), {}, "p\xff"); }).find("'p\\xff' is not UTF-8 text"),
            std::string::npos);
  const BodyId a = model.addParticle(1.0, Eigen::Vector2d::Zero(), {}, "a");
  EXPECT_NE(refusal([&] { model.addConstraint(std::make_unique<FixedPointConstraint>(a, Eigen::Vector2d::Zero()), nul); })
                .find("holds a NUL byte"),
            std::string::npos);
  EXPECT_EQ(model.bodyCount(), 1u);
  EXPECT_EQ(model.constraintCount(), 0u);
  EXPECT_NO_THROW(model.addParticle(1.0, Eigen::Vector2d::Zero(), {}, "π, \xE2\x88\x92"));  // text, not ASCII

  EXPECT_EQ(scenePathOf(R"({"particles": [{"id": "p\u0000q", "mass": 1, "position": [0, 0]}]})"),
            "particles[0].id: the id 'p\\x00q' holds a NUL byte");
  EXPECT_EQ(scenePathOf(R"({"particles": [{"id": "p", "mass": 1, "position": [0, 0]}],
                            "constraints": [{"type": "fixed", "id": "\u0000", "particle": "p"}]})"),
            "constraints[0].id: the id '\\x00' holds a NUL byte");
}

TEST(ModelInput, TheClockMustBeANumberAndAdvance) {
  Model model(2);
  model.addParticle(1.0, Eigen::Vector2d::Zero());
  for (const double t : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW(model.setTime(t), std::invalid_argument);
  }
  EXPECT_EQ(model.time(), 0.0);
  model.setTime(1e20);  // a double resolves 16 384 s there; a step of 1 ms is lost
  Simulator simulator(model, SimulationSettings{.dt = 1e-3});
  try {
    simulator.step();
    FAIL() << "stepped to t = " << model.time();
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("the clock cannot advance"), std::string::npos) << e.what();
    EXPECT_EQ(e.step(), 1u);
  }
  EXPECT_EQ(model.time(), 1e20);
  model.setTime(1e3);
  EXPECT_NO_THROW(simulator.step());
  EXPECT_DOUBLE_EQ(model.time(), 1e3 + 1e-3);
}

// A bead on a wire that stands still at the bead (c'(u) = 0) has no mass matrix to invert: the
// loader names the bead rather than letting the first step fail.
TEST(ModelInput, AMassMatrixWithoutAnInverseAtTheStartIsRefusedAtTheBody) {
  const std::string says = scenePathOf(R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "u": 0,
      "curve": {"type": "formula", "x": "u*u*u", "y": "0"}}]})");
  EXPECT_EQ(says.substr(0, 10), "bodies[0]:") << says;
  EXPECT_NE(says.find("its mass matrix"), std::string::npos) << says;
  EXPECT_EQ(scenePathOf(R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "u": 1,
      "curve": {"type": "formula", "x": "u*u*u", "y": "0"}}]})"), "accepted");
}

// A direction is any non-zero finite vector: one whose length overflows a double ([1e308, 1e308])
// or underflows it ([1e-200, 1e-200]) means the same line as [1, 1]. (Its length used to be
// computed as it stands: the huge one became no line at all, the tiny one was refused.)
TEST(ModelInput, ADirectionIsItsDirectionWhateverItsLength) {
  const auto slide = [](const char* direction) {
    Scene scene = parseScene(std::string(R"({"gravity": [0, -9.81], "settings": {"dt": 0.001},
        "particles": [{"id": "p", "mass": 1, "position": [0, 0]}],
        "constraints": [{"type": "line", "particle": "p", "direction": )") + direction + "}]}");
    Simulator simulator(scene.model, scene.settings);
    for (int k = 0; k < 100; ++k) simulator.step();
    return Eigen::Vector2d(scene.model.q().head<2>());
  };
  const Eigen::Vector2d unit = slide("[1, 1]");
  EXPECT_NEAR(unit.x(), unit.y(), 1e-9);
  EXPECT_NEAR(unit.y(), -0.5 * 0.5 * 9.81 * 0.01, 1e-4);  // g sin 45° along the line, half of it down
  for (const char* direction : {"[1e308, 1e308]", "[-1e308, -1e308]", "[1e-200, 1e-200]"}) {
    EXPECT_LT((slide(direction) - unit).norm(), 1e-12) << direction;
  }
  EXPECT_NO_THROW(PrismaticJoint({}, Eigen::Vector2d(1e308, 0.0)).validate(2));
  EXPECT_NEAR(LineCurve(Eigen::Vector2d::Zero(), Eigen::Vector2d(1e308, 1e308)).evaluate(1.0).position.norm(), 1.0, 1e-12);
}

// A motor's target speed is bounded (1e9 rad/s or m/s) at every door that makes one; far beyond
// it the pin beside it was silently lost.
TEST(ModelInput, AMotorsSpeedIsBounded) {
  const auto scene = [](const char* speed) {
    return std::string(R"({"settings": {"formulation": "velocity"},
        "bodies": [{"id": "arm", "type": "rigid", "mass": 1, "position": [1, 0], "shape": {"type": "box", "size": [2, 0.1]}}],
        "constraints": [{"type": "revolute", "a": "arm", "b": null, "anchor": [0, 0], "max_motor_force": 100,
                         "motor_speed": )") + speed + "}]}";
  };
  EXPECT_EQ(scenePathOf(scene("1e9")), "accepted");
  for (const char* speed : {"1.000001e9", "-1e155"}) {
    const std::string says = scenePathOf(scene(speed));
    EXPECT_EQ(says.substr(0, 15), "constraints[0]:") << says;
    EXPECT_NE(says.find("motor speed must be at most 1e9 in size"), std::string::npos) << says;
  }
  Scene pinned = parseScene(scene("1e9"));
  const ConstraintId pin = pinned.model.constraintAt(0);
  EXPECT_THROW(pinned.model.editConstraint<RevoluteJointSettings>(pin, [](auto& s) { s.motor->speed = 1e10; }),
               std::invalid_argument);
  EXPECT_EQ(std::get<RevoluteJointSettings>(pinned.model.constraint(pin).settings()).motor->speed, 1e9);
}

}  // namespace

namespace cli {
namespace {

TEST_F(Cli, AMassWithoutAFiniteInverseIsBadInputAtEveryCommand) {
  const std::string scene = writeScene("tiny.json", R"({"particles": [{"id": "p", "mass": 5e-324, "position": [0, 0]}]})");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"check", scene}, {"run", scene}, {"render", scene, "-o", file("t.png")}}) {
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kBadInput) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("particles[0].mass"), std::string::npos) << r.err;
  }
  // Under sweep, the value is one case's: its row fails, naming the path; the others run.
  const std::string good = writeScene("good.json", R"({"settings": {"duration": 0.01},
      "particles": [{"id": "p", "mass": 1, "position": [0, 0]}]})");
  const Result r = tinkertoy({"sweep", good, "--set", "particles[0].mass=1,5e-324", "-o", file("s.csv")});
  EXPECT_EQ(r.code, kBlowUp) << r.err;
  const std::string csv = readFile(file("s.csv"));
  EXPECT_NE(csv.find("particles[0].mass"), std::string::npos) << csv;
}

TEST_F(Cli, ASweepsSetIsTextAndEachPathIsOneAxis) {
  const std::string scene = writeScene("s.json", R"({"settings": {"duration": 0.01},
      "particles": [{"id": "p", "mass": 1, "position": [0, 0]}]})");
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--set", "particles[0].mass=\xff"}, "not UTF-8 text"},
      {{"--set", "particles[0].mass=1,2", "--set", "particles[0].mass=3"}, "the path is an axis already (--set 1)"},
  };
  for (const auto& [sets, says] : cases) {
    std::vector<std::string> args{"sweep", scene, "-o", file("out.csv")};
    args.insert(args.end(), sets.begin(), sets.end());
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kBadInput) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(file("out.csv")));
  }
}

TEST_F(Cli, APlottedTrajectoryIsReadAsRunWritesIt) {
  const std::string header = "time,kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error,work\n";
  const std::pair<std::string, std::string> cases[] = {
      {"0,1,0,1,0,0,0\n0x10,1,0,1,0,0,0\n", "expected a finite decimal number, got '0x10'"},
      {"0,1,0,1,0,0,0\n0.1,inf,0,1,0,0,0\n", "got 'inf'"},
      {"0,1,0,1,0,0,0\n0.2,1,0,1,0,0,0\n0.1,1,0,1,0,0,0\n", "the time goes back"},
      {"0,1,0,1,-1e-3,0,0\n", "a norm cannot be negative"},
  };
  for (const auto& [rows, says] : cases) {
    std::ofstream(file("t.csv")) << header << rows;
    const Result r = tinkertoy({"plot", file("t.csv"), "-o", file("t.svg")});
    EXPECT_EQ(r.code, kBadInput) << rows;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
  std::ofstream(file("t.csv")) << header << "0,1,0,1,0,0,0\n0.1,1,4.9e-321,1,0,0,0\n";  // a subnormal is a number
  const Result r = tinkertoy({"plot", file("t.csv"), "-o", file("t.svg")});
  EXPECT_EQ(r.code, kSuccess) << r.err;
}

}  // namespace
}  // namespace cli
}  // namespace tinkertoy
