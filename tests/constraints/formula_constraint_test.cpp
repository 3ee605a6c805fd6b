// FormulaConstraint: every built-in constraint rewritten as a formula gives the engine the same C,
// Ċ, Ctt, J and J̇ at random states (to 1e-14 of their size) and, for rods, the same trajectory;
// the derivative audit passes it like any constraint; inequalities act at the velocity level; and
// each bad input is refused with its reason.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "support/random_bodies.hpp"
#include "support/system_differences.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/formula_constraint.hpp"
#include "tinkertoy/constraints/make_constraint.hpp"
#include "tinkertoy/constraints/path.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"
#include "tinkertoy/dynamics/simulation_error.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

using Bodies = test_support::RandomBodies;

struct Rewrite {
  const char* label;
  std::function<ConstraintSettings(const Bodies&)> builtIn;
  std::function<FormulaConstraintSettings(const Bodies&)> formula;
};

const Eigen::Vector2d kAxis = Eigen::Vector2d(0.6, 0.8);

const std::vector<Rewrite>& rewrites() {
  static const std::vector<Rewrite> all = {
      {"rod_between_particles",
       [](const Bodies& s) { return DistanceConstraintSettings{.a = s.p, .b = s.r, .length = 1.3}; },
       [](const Bodies& s) {
         return FormulaConstraintSettings{
             .points = {{"a", s.p}, {"b", s.r}}, .rows = {"sqrt((xa - xb)^2 + (ya - yb)^2) - L"}, .parameters = {{"L", 1.3}}};
       }},
      {"rod_between_rigid_sites",
       [](const Bodies& s) { return DistanceConstraintSettings{.a = s.siteA(), .b = s.siteB(), .length = 0.9}; },
       [](const Bodies& s) {
         return FormulaConstraintSettings{
             .points = {{"a", s.siteA()}, {"b", s.siteB()}}, .rows = {"hypot(xa - xb, ya - yb) - 0.9"}};
       }},
      {"circle",
       [](const Bodies& s) {
         return PointOnCircleConstraintSettings{.point = s.p, .center = Eigen::Vector2d(0.5, -0.25), .radius = 1.1};
       },
       [](const Bodies& s) {
         return FormulaConstraintSettings{.points = {{"p", s.p}}, .rows = {"hypot(xp - 0.5, yp + 0.25) - 1.1"}};
       }},
      {"fixed",
       [](const Bodies& s) { return FixedPointConstraintSettings{.point = s.p, .location = Eigen::Vector2d(0.5, 1.5)}; },
       [](const Bodies& s) { return FormulaConstraintSettings{.points = {{"p", s.p}}, .rows = {"xp - 0.5", "yp - 1.5"}}; }},
      {"line",
       [](const Bodies& s) {
         return PointOnLineConstraintSettings{.point = s.r, .origin = Eigen::Vector2d(0.25, 0.5), .direction = kAxis};
       },
       [](const Bodies& s) {
         return FormulaConstraintSettings{.points = {{"r", s.r}}, .rows = {"-0.8 * (xr - 0.25) + 0.6 * (yr - 0.5)"}};
       }},
      {"driven_on_an_ellipse",
       [](const Bodies& s) {
         auto ellipse = std::make_shared<EllipseCurve>(Eigen::Vector2d(0.1, 0.2), 0.8, 0.5);
         return DrivenPointConstraintSettings{.point = s.p, .path = std::make_shared<CurvePath>(ellipse, 1.5, 0.2)};
       },
       [](const Bodies& s) {
         return FormulaConstraintSettings{.points = {{"p", s.p}},
                                          .rows = {"xp - (0.1 + 0.8 * cos(0.2 + 1.5 * t))", "yp - (0.2 + 0.5 * sin(0.2 + 1.5 * t))"}};
       }},
      {"revolute",
       [](const Bodies& s) { return RevoluteJointSettings{.connection = {.a = s.siteA(), .b = s.siteB()}}; },
       [](const Bodies& s) {
         return FormulaConstraintSettings{.points = {{"a", s.siteA()}, {"b", s.siteB()}}, .rows = {"xa - xb", "ya - yb"}};
       }},
      {"weld",
       [](const Bodies& s) { return WeldJointSettings{.connection = {.a = s.siteA(), .b = s.siteB()}, .referenceAngle = 0.3}; },
       [](const Bodies& s) {
         return FormulaConstraintSettings{
             .points = {{"a", s.siteA()}, {"b", s.siteB()}}, .rows = {"xa - xb", "ya - yb", "phia - phib - 0.3"}};
       }},
      {"angle_gear",
       [](const Bodies& s) { return AngleJointSettings{.connection = {.a = s.a, .b = s.b}, .ratio = -2.0, .referenceAngle = 0.4}; },
       [](const Bodies& s) {
         return FormulaConstraintSettings{.points = {{"a", s.a}, {"b", s.b}}, .rows = {"phia + 2 * phib - 0.4"}};
       }},
      {"prismatic",
       [](const Bodies& s) {
         return PrismaticJointSettings{.connection = {.a = s.siteA(), .b = s.siteB()}, .axis = kAxis, .referenceAngle = 0.2};
       },
       [](const Bodies& s) {
         // n = the axis turned a quarter further, turning with b: (−sin, cos) of φ_b + the axis's angle
         return FormulaConstraintSettings{
             .points = {{"a", s.siteA()}, {"b", s.siteB()}},
             .rows = {"-sin(phib + g) * (xa - xb) + cos(phib + g) * (ya - yb)", "phia - phib - 0.2"},
             .parameters = {{"g", std::atan2(0.8, 0.6)}}};
       }},
      {"pulley",
       [](const Bodies& s) {
         return PulleyJointSettings{.a = s.siteA(), .b = s.p, .groundA = Eigen::Vector2d(-1, 3),
                                    .groundB = Eigen::Vector2d(1, 3), .ratio = 1.7, .length = 6.0};
       },
       [](const Bodies& s) {
         return FormulaConstraintSettings{.points = {{"a", s.siteA()}, {"b", s.p}},
                                          .rows = {"hypot(xa + 1, ya - 3) + 1.7 * hypot(xb - 1, yb - 3) - 6"}};
       }},
  };
  return all;
}

// a and b agree to 1e-14 of their size, entry by entry.
void expectSame(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const std::string& what) {
  ASSERT_EQ(a.rows(), b.rows()) << what;
  ASSERT_EQ(a.cols(), b.cols()) << what;
  const double scale = std::max(1.0, a.cwiseAbs().maxCoeff());
  EXPECT_LE((a - b).cwiseAbs().maxCoeff(), 1e-14 * scale) << what << "\n" << a << "\nvs\n" << b;
}

class FormulaRewrite : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FormulaRewrite, GivesTheBuiltInsRowsAtRandomStates) {
  const Rewrite& c = rewrites()[GetParam()];
  for (unsigned trial = 0; trial < 10; ++trial) {
    Bodies builtIn(100 + trial), formula(100 + trial);
    builtIn.model.addConstraint(makeConstraint(c.builtIn(builtIn)));
    formula.model.addConstraint(std::make_unique<FormulaConstraint>(c.formula(formula)));
    const Model& m1 = builtIn.model;
    const Model& m2 = formula.model;
    const auto e1 = test_support::evaluateSystem(m1, m1.time(), m1.q(), m1.v());
    const auto e2 = test_support::evaluateSystem(m2, m2.time(), m2.q(), m2.v());
    const std::string label = std::string(c.label) + ", trial " + std::to_string(trial);
    expectSame(e1.C, e2.C, label + ": C");
    expectSame(e1.Cdot, e2.Cdot, label + ": Ċ");
    expectSame(e1.Ctt, e2.Ctt, label + ": Ctt");
    expectSame(e1.J, e2.J, label + ": J");
    expectSame(e1.Jdot, e2.Jdot, label + ": J̇");
    // The audit of `tinkertoy check` passes it: J and J̇q̇ against finite differences.
    EXPECT_EQ(auditConstraint(m2, m2.constraintAt(0)).verdict(), AuditVerdict::Pass) << label;
  }
}

// And the same motion: the bodies under gravity held by the built-in or by its formula, 1000 steps
// of RK4 at the acceleration level with the direct solver (the random start is projected onto
// the constraint first), agree to 1e-12.
TEST_P(FormulaRewrite, MovesAsTheBuiltInOver1000Steps) {
  const Rewrite& c = rewrites()[GetParam()];
  Bodies builtIn(7), formula(7);
  builtIn.model.addConstraint(makeConstraint(c.builtIn(builtIn)));
  formula.model.addConstraint(std::make_unique<FormulaConstraint>(c.formula(formula)));
  SimulationSettings settings{.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4};
  settings.solver.kind = SolverKind::SparseLdlt;
  for (Model* m : {&builtIn.model, &formula.model}) m->addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  Simulator s1(builtIn.model, settings), s2(formula.model, settings);
  for (int n = 0; n < 1000; ++n) {
    s1.step();
    s2.step();
  }
  const Model& m1 = builtIn.model;
  const Model& m2 = formula.model;
  EXPECT_LE((m1.q() - m2.q()).cwiseAbs().maxCoeff(), 1e-12) << c.label;
  EXPECT_LE((m1.v() - m2.v()).cwiseAbs().maxCoeff(), 1e-10) << c.label;
  EXPECT_LT(s2.diagnostics().constraintError, 1e-9) << c.label;
}

INSTANTIATE_TEST_SUITE_P(EveryBuiltIn, FormulaRewrite, ::testing::Range<std::size_t>(0, rewrites().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) { return rewrites()[p.param].label; });

// A double pendulum whose rods are formulas, as text or as C++ functions, moves as the one with
// built-in rods: 1000 steps of RK4 with the direct solver agree to 1e-12 m.
enum class RodKind { BuiltIn, Text, Cpp };

std::unique_ptr<Model> doublePendulum(RodKind kind) {
  auto model = std::make_unique<Model>(2);
  const BodyId p1 = model->addParticle(1.0, Eigen::Vector2d(1, 0));
  const BodyId p2 = model->addParticle(1.0, Eigen::Vector2d(2, 0));
  model->addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  switch (kind) {
    case RodKind::BuiltIn:
      model->addConstraint(std::make_unique<DistanceConstraint>(p1, Eigen::Vector2d(0, 0), 1.0));
      model->addConstraint(std::make_unique<DistanceConstraint>(p1, p2, 1.0));
      break;
    case RodKind::Text:
      model->addConstraint(std::make_unique<FormulaConstraint>(
          FormulaConstraintSettings{.points = {{"a", p1}}, .rows = {"sqrt(xa^2 + ya^2) - 1"}}));
      model->addConstraint(std::make_unique<FormulaConstraint>(
          FormulaConstraintSettings{.points = {{"a", p1}, {"b", p2}}, .rows = {"sqrt((xa - xb)^2 + (ya - yb)^2) - 1"}}));
      break;
    case RodKind::Cpp: {
      const auto rod = [](auto xa, auto ya, auto xb, auto yb) {
        using std::sqrt;
        return sqrt((xa - xb) * (xa - xb) + (ya - yb) * (ya - yb)) - 1.0;
      };
      model->addConstraint(formulaConstraint({{"a", p1}}, {"xa", "ya"}, [rod](auto xa, auto ya) { return rod(xa, ya, 0.0, 0.0); }));
      model->addConstraint(formulaConstraint({{"a", p1}, {"b", p2}}, {"xa", "ya", "xb", "yb"}, rod));
      break;
    }
  }
  return model;
}

TEST(FormulaConstraint, RodsAsFormulasMoveAsBuiltInRods) {
  SimulationSettings settings{.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4};
  settings.solver.kind = SolverKind::SparseLdlt;
  auto builtIn = doublePendulum(RodKind::BuiltIn);
  Simulator s1(*builtIn, settings);
  for (int n = 0; n < 1000; ++n) s1.step();
  for (const RodKind kind : {RodKind::Text, RodKind::Cpp}) {
    auto formula = doublePendulum(kind);
    Simulator s2(*formula, settings);
    for (int n = 0; n < 1000; ++n) s2.step();
    EXPECT_LE((builtIn->q() - formula->q()).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((builtIn->v() - formula->v()).cwiseAbs().maxCoeff(), 1e-11);
    EXPECT_LT(s2.diagnostics().constraintError, 1e-9);
  }
}

// A constraint written in C++ passes the audit, but has no settings: it cannot be written to a
// scene or edited through them, and says so.
TEST(FormulaConstraint, OneWrittenInCppIsAuditedButNotWritten) {
  Scene scene{.model = std::move(*doublePendulum(RodKind::Cpp))};
  const Model& model = scene.model;
  EXPECT_EQ(auditConstraint(model, model.constraintAt(1)).verdict(), AuditVerdict::Pass);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(model.constraint(model.constraintAt(1)).settings()));
  try {
    (void)writeScene(scene);
    FAIL() << "wrote a constraint written in C++";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be written to a scene"), std::string::npos) << e.what();
  }
  const BodyId p = model.bodyAt(0);
  EXPECT_THROW((void)formulaConstraint({{"a", p}}, {"xa", "yb"}, [](auto x, auto y) { return x + y; }), std::invalid_argument);
  EXPECT_THROW((void)formulaConstraint({{"a", p}}, {"xa"}, [](auto x, auto y) { return x + y; }), std::invalid_argument);
  const Formula overU = Formula::function([](auto u) { return u; }, std::vector<std::string>{"u"}, std::vector<std::string>{"u"});
  EXPECT_THROW(FormulaConstraint({{"a", p}}, {overU}), std::invalid_argument);  // not over the points' variables
}

// An inequality row at the velocity level: a particle dropped onto the floor y ≥ 0 written as a
// formula lands on it and rests there.
TEST(FormulaConstraint, AnInequalityIsAFloor) {
  Model model(2);
  const BodyId ball = model.addParticle(1.0, Eigen::Vector2d(0.3, 1.0));
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  model.addConstraint(std::make_unique<FormulaConstraint>(
      FormulaConstraintSettings{.points = {{"p", ball}}, .rows = {"yp"}, .kind = RowKind::Inequality}));
  SimulationSettings settings{.dt = 1e-3, .formulation = FormulationKind::Velocity};
  settings.solver.kind = SolverKind::SparseLdlt;
  settings.velocity.positionCorrection = PositionCorrection::Projection;
  Simulator sim(model, settings);
  for (int n = 0; n < 1000; ++n) sim.step();  // it lands after √(2/g) ≈ 0.45 s
  EXPECT_NEAR(model.position(ball)[1], 0.0, 1e-9);
  EXPECT_NEAR(model.velocity(ball)[1], 0.0, 1e-9);
  EXPECT_NEAR(sim.lambda(model.constraintAt(0))[0], 9.81, 1e-6);  // the floor holds its weight
}

// A bead sliding down the wire y = √x reaches x = 0, where the wire's slope is infinite, and
// would go on to x < 0, where it is not defined: the step is refused with a SimulationError naming
// the constraint and the formula, and the model keeps the last good state.
TEST(FormulaConstraint, AnUndefinedPointIsASimulationErrorNamingTheConstraint) {
  Model model(2);
  const BodyId bead = model.addParticle(1.0, Eigen::Vector2d(1, 1));
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  const ConstraintId wire = model.addConstraint(
      std::make_unique<FormulaConstraint>(FormulaConstraintSettings{.points = {{"p", bead}}, .rows = {"yp - sqrt(xp)"}}),
      "root wire");
  Simulator sim(model, SimulationSettings{.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4});
  Eigen::VectorXd lastGood;
  try {
    for (int n = 0; n < 5000; ++n) {
      lastGood = model.q();
      sim.step();
    }
    FAIL() << "the bead passed x = 0";
  } catch (const SimulationError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.constraint(), wire) << what;
    EXPECT_NE(what.find("root wire: the formula \"yp - sqrt(xp)\" or one of its derivatives is not finite at xp = "),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("The model keeps the state of step"), std::string::npos) << what;
    EXPECT_EQ(model.q(), lastGood);
    EXPECT_TRUE(lastGood.allFinite());
    EXPECT_LT(lastGood[0], 0.01);  // it got close to the root
  }
}

TEST(FormulaConstraint, RefusesBadInputWithItsReason) {
  Bodies s(1);
  const auto expectRefused = [&](const FormulaConstraintSettings& settings, const std::string& reason) {
    try {
      s.model.addConstraint(std::make_unique<FormulaConstraint>(settings));
      ADD_FAILURE() << "accepted: " << reason;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  expectRefused({.points = {}, .rows = {"1"}}, "names 1 to 4 points");
  expectRefused({.points = {{"a", s.p}}, .rows = {}}, "at least one row");
  expectRefused({.points = {{"2a", s.p}}, .rows = {"x2a"}}, "point name '2a'");
  expectRefused({.points = {{"a", s.p}, {"a", s.r}}, .rows = {"xa"}}, "given twice");
  expectRefused({.points = {{"a", s.p}}, .rows = {"xa + xb"}}, "unknown name 'xb'");
  expectRefused({.points = {{"a", s.p}}, .rows = {"za"}}, "a 2D model cannot read a z coordinate");
  expectRefused({.points = {{"a", s.p}}, .rows = {"phia"}}, "which has none");  // a particle has no frame
  expectRefused({.points = {{"a", s.p}}, .rows = {"xa"}, .kind = RowKind::Motor}, "equalities");
  EXPECT_EQ(s.model.constraintCount(), 0u);
}

}  // namespace
}  // namespace tinkertoy
