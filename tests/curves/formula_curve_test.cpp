// FormulaCurve (curves/formula_curve.hpp): a wire written as formulas of u is the built-in curve
// it rewrites (point, tangent and curvature to round-off, and a bead's motion over 1000 steps),
// the same written in C++, read from and written to scenes, and each bad input is refused at its
// JSON path. Its derivatives against finite differences and a bead's audit are in curves_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/curves/formula_curve.hpp"
#include "tinkertoy/curves/helix_curve.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/bead.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

using std::numbers::pi;

void expectSamePoint(const CurvePoint& a, const CurvePoint& b, double u) {
  EXPECT_LE((a.position - b.position).norm(), 1e-15) << "u = " << u;
  EXPECT_LE((a.tangent - b.tangent).norm(), 1e-15) << "u = " << u;
  EXPECT_LE((a.curvature - b.curvature).norm(), 1e-15) << "u = " << u;
}

// x = cx + a cos u, y = cy + b sin u is EllipseCurve's parametrization: c, c' and c'' agree.
TEST(FormulaCurve, AnEllipseWrittenAsFormulasIsTheBuiltInEllipse) {
  const EllipseCurve builtIn(Eigen::Vector2d(0.5, -1.0), 2.0, 0.75);
  const FormulaCurve text({"0.5 + a*cos(u)", "-1 + b*sin(u)"}, {{"a", 2.0}, {"b", 0.75}}, 2 * pi);
  const auto cpp = formulaCurve([](auto u) {
    using std::cos, std::sin;
    return std::array{0.5 + 2.0 * cos(u), -1.0 + 0.75 * sin(u)};
  });
  EXPECT_NO_THROW(text.validate());
  EXPECT_EQ(text.dimension(), 2);
  for (double u = -4.0; u < 9.0; u += 0.37) {
    expectSamePoint(text.evaluate(u), builtIn.evaluate(u), u);
    expectSamePoint(cpp->evaluate(u), builtIn.evaluate(u), u);
  }
}

// A coordinate that does not read u is a constant: c' and c'' are 0 in it.
TEST(FormulaCurve, AConstantCoordinateHasNoDerivatives) {
  const FormulaCurve flat({"u", "0.25", "u^2"});
  const CurvePoint p = flat.evaluate(1.5);
  EXPECT_EQ(p.position, Eigen::Vector3d(1.5, 0.25, 2.25));
  EXPECT_EQ(p.tangent, Eigen::Vector3d(1, 0, 3));
  EXPECT_EQ(p.curvature, Eigen::Vector3d(0, 0, 2));
}

// A bead on the ellipse as formulas slides as the bead on the built-in ellipse.
TEST(FormulaCurve, ABeadOnItMovesAsOnTheBuiltInCurve) {
  const auto slide = [](std::shared_ptr<const Curve> wire) {
    auto model = std::make_unique<Model>(2);
    model->addBody(std::make_unique<Bead>(std::move(wire), 1.2), Eigen::VectorXd::Constant(1, 0.3),
                   Eigen::VectorXd::Constant(1, 0.5));
    model->addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
    Simulator sim(*model, SimulationSettings{.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4});
    for (int n = 0; n < 1000; ++n) sim.step();
    return Eigen::VectorXd(model->q());
  };
  const Eigen::VectorXd builtIn = slide(std::make_shared<EllipseCurve>(Eigen::Vector2d(0, 0), 2.0, 0.75));
  const Eigen::VectorXd formula = slide(std::make_shared<FormulaCurve>(std::vector<std::string>{"2*cos(u)", "0.75*sin(u)"}));
  EXPECT_LE((builtIn - formula).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_GT(std::abs(builtIn[0] - 0.3), 0.1);  // it moved
}

TEST(FormulaCurve, RefusesBadCurvesWithTheirReason) {
  EXPECT_THROW(FormulaCurve({"u"}), std::invalid_argument);
  EXPECT_THROW(FormulaCurve({"u", "u", "u", "u"}), std::invalid_argument);
  EXPECT_THROW(FormulaCurve({"u", "t"}), FormulaError);  // u is the only variable
  EXPECT_THROW(FormulaCurve({"u", "a"}, {{"a", NAN}}), std::invalid_argument);
  EXPECT_THROW(FormulaCurve({"cos(u)", "sin(u)"}, {}, -1.0).validate(), std::invalid_argument);
  try {
    FormulaCurve({"cos(u)", "sin(u) + 0.1*u"}, {}, 2 * pi).validate();
    FAIL() << "accepted a curve that does not close after its period";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not close after its period"), std::string::npos) << e.what();
  }
  const Formula overTwo = Formula::function([](auto a, auto b) { return a * b; }, std::vector<std::string>{"u", "w"},
                                            std::vector<std::string>{"u", "w"});
  EXPECT_THROW(FormulaCurve(std::vector<Formula>{overTwo, overTwo}, 0.0), std::invalid_argument);
}

std::string beadScene(const std::string& curve, int dimension = 2) {
  return R"json({"dimension": )json" + std::to_string(dimension) + R"json(, "bodies": [{"type": "bead", "id": "b", "mass": 1, "u": 0.2, "curve": )json" +
         curve + "}]}";
}

TEST(FormulaCurve, IsReadFromAndWrittenToScenes) {
  Scene scene = parseScene(beadScene(
      R"json({"type": "formula", "x": "r*cos(u)", "y": "r*sin(u)", "parameters": {"r": 1.5}, "period": 6.283185307179586})json"));
  const auto& bead = dynamic_cast<const Bead&>(scene.model.body(scene.model.bodyAt(0)));
  expectSamePoint(bead.curve().evaluate(0.2), CircleCurve(Eigen::Vector2d(0, 0), 1.5).evaluate(0.2), 0.2);
  const std::string written = writeScene(scene);
  EXPECT_NE(written.find("\"x\": \"r*cos(u)\""), std::string::npos) << written;
  const Scene again = parseScene(written);
  const auto& read = dynamic_cast<const Bead&>(again.model.body(again.model.bodyAt(0)));
  expectSamePoint(read.curve().evaluate(1.1), bead.curve().evaluate(1.1), 1.1);
  EXPECT_EQ(dynamic_cast<const FormulaCurve&>(read.curve()).period(), 2 * pi);

  // In C++ it cannot be written.
  Scene cpp{.model = Model(2)};
  cpp.model.addBody(std::make_unique<Bead>(formulaCurve([](auto u) { return std::array{u, u * u}; }), 1.0),
                    Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1));
  EXPECT_THROW((void)writeScene(cpp), std::invalid_argument);
}

// In 3D a formula curve has a z: a helix written as formulas is the built-in helix (whose axis is
// ŷ, with e1 = ẑ and e2 = x̂), and it is written with its z.
TEST(FormulaCurve, A3DCurveIsReadWithItsZ) {
  Scene scene = parseScene(beadScene(R"json({"type": "formula", "x": "r*sin(u)", "y": "p*u/(2*pi)", "z": "r*cos(u)",
      "parameters": {"r": 0.8, "p": 0.5, "pi": 3.141592653589793}})json", 3));
  const auto& bead = dynamic_cast<const Bead&>(scene.model.body(scene.model.bodyAt(0)));
  const HelixCurve helix(Eigen::Vector3d::Zero(), 0.8, 0.5);
  for (const double u : {-1.0, 0.2, 4.0}) {
    const CurvePoint a = bead.curve().evaluate(u), b = helix.evaluate(u);
    EXPECT_LE((a.position - b.position).norm(), 1e-15) << u;
    EXPECT_LE((a.tangent - b.tangent).norm(), 1e-15) << u;
    EXPECT_LE((a.curvature - b.curvature).norm(), 1e-15) << u;
  }
  EXPECT_NE(writeScene(scene).find("\"z\": \"r*cos(u)\""), std::string::npos);
}

TEST(FormulaCurve, RejectsEachBadSceneCurveAtItsPath) {
  const auto rejected = [](const std::string& text, const std::string& path, const std::string& reason) {
    try {
      parseScene(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  rejected(beadScene(R"json({"type": "formula", "x": "cos(u)", "y": "sin(v)"})json"), "bodies[0].curve.y",
           "unknown name 'v': the variables are u; the parameters none\n  sin(v)\n      ^");
  rejected(beadScene(R"json({"type": "formula", "x": "cos(u)"})json"), "bodies[0].curve.y", "missing");
  rejected(beadScene(R"json({"type": "formula", "x": "u", "y": "u", "z": "u"})json"), "bodies[0].curve.z", "no z");
  rejected(beadScene(R"json({"type": "formula", "x": "u", "y": "u"})json", 3), "bodies[0].curve", "needs \"z\"");
  rejected(beadScene(R"json({"type": "formula", "x": "u", "y": "u", "speed": 1})json"), "bodies[0].curve.speed", "unknown");
  rejected(beadScene(R"json({"type": "formula", "x": "u", "y": "a", "parameters": {"a": "one"}})json"),
           "bodies[0].curve.parameters.a", "number");
  rejected(beadScene(R"json({"type": "formula", "x": "u", "y": "u", "period": -1})json"), "bodies[0].curve.period", "");
  rejected(beadScene(R"json({"type": "formula", "x": "cos(u)", "y": "u", "period": 6.283185307179586})json"),
           "bodies[0].curve.period", "does not close");
}

}  // namespace
}  // namespace tinkertoy
