// Inputs that used to give a wrong answer without a word (issue #34, "silent wrong success"):
// shapes without a sensible inertia, a formula curve's period too short to check, a derivative
// audit that passed a kink, a documented damping ratio that blew the soft step up, a CG that spun
// on a tolerance no double reaches. Each is refused with a reason, or works, at every door.
#include <gtest/gtest.h>

#include "cli_fixture.hpp"
#include "tinkertoy/tinkertoy.hpp"

namespace tinkertoy {
namespace {

// A shape that exists is valid: its factories refuse what has no inertia, and so no shape can
// return a NaN one. (The scene door: the reader's SceneError at the shape's field; the Python
// door: tests/python/test_errors.py.)
TEST(SilentSuccess, ShapesWithoutASensibleInertiaAreRefusedByTheirFactories) {
  const std::pair<std::function<Shape()>, const char*> bad[] = {
      {[] { return Shape::circle(-1.0); }, "circle radius must be positive"},
      {[] { return Shape::circle(std::nan("")); }, "circle radius must be finite"},
      {[] { return Shape::circle(1e200); }, "the circle is too large"},
      {[] { return Shape::box(0.0, 1.0); }, "box width must be positive"},
      {[] { return Shape::polygon({{0, 0}, {1, 0}}); }, "a polygon needs at least 3 vertices, got 2"},
      {[] { return Shape::polygon({{-0.5, -0.5}, {0.5, std::nan("")}, {0, 0.5}}); }, "polygon vertices must be finite"},
      {[] { return Shape::polygon({{-1, -1}, {1, 1}, {1, -1}, {-1, 1}}); }, "no area"},  // a bow-tie
      {[] { return Shape::polygon({{-1, -1}, {1, -1}, {0.1, 0}, {1, 1}, {-1, 1}}); }, "not convex"},
  };
  for (const auto& [make, says] : bad) {
    try {
      const Shape shape = make();
      ADD_FAILURE() << "made a " << shape.name() << " with inertia " << shape.inertia(1.0);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
  const Shape disc = Shape::circle(0.5);
  EXPECT_DOUBLE_EQ(disc.inertia(2.0), 0.25);
  for (const double mass : {-1.0, 0.0, std::nan(""), std::numeric_limits<double>::infinity()}) EXPECT_THROW((void)disc.inertia(mass), std::invalid_argument);
  try {
    (void)Shape::box(1e150, 1e150).inertia(1e300);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beyond what a double holds"), std::string::npos) << e.what();
  }
}

TEST(SilentSuccess, ABadShapeInASceneIsRefusedAtItsField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"type": "circle", "radius": 1e200})", "bodies[0].shape.radius"},
      {R"({"type": "polygon", "vertices": [[0, 0], [1, 0]]})", "bodies[0].shape.vertices"},
      {R"({"type": "polygon", "vertices": [[-1, -1], [1, 1], [1, -1], [-1, 1]]})", "bodies[0].shape.vertices"},
  };
  for (const auto& [shape, path] : cases) {
    const std::string json = std::string(R"({"bodies": [{"id": "b", "type": "rigid", "mass": 1, "position": [0, 0],
                                                          "shape": )") + shape + "}]}";
    try {
      (void)parseScene(json);
      ADD_FAILURE() << shape;
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
    }
  }
}

// Any smooth curve "closes" after a period of 1e-12, having barely moved: such a period is
// refused, while the true one is accepted.
TEST(SilentSuccess, AFormulaCurvesPeriodMustLetTheCurveMove) {
  for (const double period : {1e-12, 1e-9}) {
    FormulaCurve curve({"cos(u)", "sin(u)"}, {}, period);
    try {
      curve.validate();
      ADD_FAILURE() << period;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("hardly moves over its period"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(FormulaCurve({"cos(u)", "sin(u)"}, {}, 2 * std::numbers::pi).validate());
  EXPECT_NO_THROW(FormulaCurve({"cos(1e6*u)", "sin(1e6*u)"}, {}, 2e-6 * std::numbers::pi).validate());
  EXPECT_THROW(FormulaCurve({"1", "2"}, {}, 1.0).validate(), std::invalid_argument);  // a point never moves
  try {
    (void)parseScene(R"j({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}],
        "bodies": [{"id": "b", "type": "bead", "mass": 1, "u": 0,
                    "curve": {"type": "formula", "x": "cos(u)", "y": "sin(u)", "period": 1e-12}}]})j");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.path().rfind("bodies[0].curve", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("hardly moves"), std::string::npos) << e.what();
  }
}

// The audit cannot judge a derivative at a kink, where none exists: max(x, y) at x = y is "cannot
// audit", as abs(x − y) is, and not "ok"; a smooth formula beside it still passes.
TEST(SilentSuccess, TheAuditDoesNotPassAKink) {
  const auto verdictOf = [](const char* C) {
    Scene scene = parseScene(std::string(R"j({"particles": [{"id": "p", "mass": 1, "position": [1, 1]}],
        "constraints": [{"type": "formula", "points": {"p": "p"}, "C": ")j") + C + R"j("}]})j");
    return auditConstraint(scene.model, scene.model.constraintAt(0)).verdict();
  };
  EXPECT_EQ(verdictOf("max(xp, yp) - 1"), AuditVerdict::CannotAudit);
  EXPECT_EQ(verdictOf("min(xp, yp) - 1"), AuditVerdict::CannotAudit);
  EXPECT_EQ(verdictOf("abs(xp - yp) + xp - 1"), AuditVerdict::CannotAudit);
  EXPECT_EQ(verdictOf("max(xp, 2*yp) - 2"), AuditVerdict::Pass);  // away from its kink
  EXPECT_EQ(verdictOf("xp^2 + yp^2 - 2"), AuditVerdict::Pass);
}

// joint_damping_ratio is documented as any finite number ≥ 0: 1e308 makes the soft step's joints
// a rigid velocity constraint without position bias, not a blow-up at step 1.
TEST(SilentSuccess, TheSoftStepTakesAnyFiniteDampingRatio) {
  Scene scene = loadScene(std::string(TINKERTOY_SOURCE_DIR) + "/scenes/chain_of_boxes.json");
  SimulationSettings s = scene.settings;
  s.formulation = FormulationKind::Velocity;
  s.solver.kind = SolverKind::SequentialImpulses;
  s.velocity.positionCorrection = PositionCorrection::SoftStep;
  s.velocity.jointDampingRatio = 1e308;
  Simulator sim(scene.model, s);
  for (int i = 0; i < 120; ++i) ASSERT_NO_THROW(sim.step()) << "step " << i;
  EXPECT_TRUE(scene.model.q().allFinite());
  EXPECT_LT(sim.diagnostics().constraintError, 0.1);
}

// CG with a tolerance no double reaches and a cap of 1e9: it stops once round-off stalls it,
// within m + 50 iterations of its best, instead of spinning for hours.
TEST(SilentSuccess, ConjugateGradientStopsWhenRoundOffStallsIt) {
  Scene scene = loadScene(std::string(TINKERTOY_SOURCE_DIR) + "/scenes/chain.json");
  SimulationSettings s = scene.settings;
  s.solver.kind = SolverKind::ConjugateGradient;
  s.solver.tolerance = 1e-300;
  s.solver.maxIterations = 1'000'000'000;
  Simulator sim(scene.model, s);
  for (int i = 0; i < 5; ++i) sim.step();
  const StepDiagnostics& d = sim.diagnostics();
  const long rows = 20;  // the chain's ten rods, in 2D: at most a few times m + 50 per solve
  EXPECT_LT(d.solverIterations, static_cast<long>(d.solves) * 4 * (rows + 50)) << d.solverIterations;
  EXPECT_LT(d.constraintError, 1e-9);
}

}  // namespace

namespace cli {
namespace {

// The same through the command line: the documented damping ratio runs, a bad shape is exit 2.
TEST_F(Cli, TheSoftStepsDampingRatioAndABadShapeAtTheCommandLine) {
  const Result soft = tinkertoy({"run", kScenes + "chain_of_boxes.json", "--formulation", "velocity", "--solver",
                                 "sequential", "--position-correction", "soft", "--joint-damping-ratio", "1e308",
                                 "--duration", "0.5"});
  EXPECT_EQ(soft.code, kSuccess) << soft.err;
  const std::string scene = writeScene("bowtie.json", R"({"bodies": [{"id": "b", "type": "rigid", "mass": 1,
      "position": [0, 0], "shape": {"type": "polygon", "vertices": [[-1, -1], [1, 1], [1, -1], [-1, 1]]}}]})");
  const Result bad = tinkertoy({"run", scene});
  EXPECT_EQ(bad.code, kBadInput);
  EXPECT_NE(bad.err.find("bodies[0].shape.vertices"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace cli
}  // namespace tinkertoy
