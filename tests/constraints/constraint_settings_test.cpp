// Constraint::settings() and makeConstraint (constraints/constraint_settings.hpp): every built-in
// constraint and joint, with every optional part set to a value other than its default, is
// rebuilt from its settings into a constraint that the engine evaluates to the same bits (C, Ċ,
// Ctt, J, J̇, the row kinds and the Motor/Spring parameters), at a random state.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "support/random_bodies.hpp"
#include "support/system_differences.hpp"
#include "tinkertoy/constraints/make_constraint.hpp"
#include "tinkertoy/constraints/path.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {
namespace {

using Bodies = test_support::RandomBodies;

struct SettingsCase {
  const char* label;
  std::function<ConstraintSettings(const Bodies&)> make;
};

const JointLimits kLimits{.lower = -0.4, .upper = 0.9};
const JointMotor kMotor{.speed = 2.0, .maxForce = 50.0};
const JointSpring kSpring{.frequency = 3.0, .dampingRatio = 0.4};

const std::vector<SettingsCase>& cases() {
  static const std::vector<SettingsCase> all = {
      {"distance_spring_between_bodies",
       [](const Bodies& s) {
         return DistanceConstraintSettings{
             .a = s.siteA(), .b = s.siteB(), .length = 1.1, .spring = kSpring, .minLength = 0.3, .maxLength = 2.5};
       }},
      {"distance_rope_to_world",
       [](const Bodies& s) {
         return DistanceConstraintSettings{.a = s.p, .anchor = Eigen::Vector2d(0.2, -0.1), .maxLength = 1.7};
       }},
      {"fixed", [](const Bodies& s) { return FixedPointConstraintSettings{.point = s.p, .location = Eigen::Vector2d(1, 2)}; }},
      {"circle",
       [](const Bodies& s) {
         return PointOnCircleConstraintSettings{.point = s.p, .center = Eigen::Vector2d(0.5, 0.1), .radius = 1.3};
       }},
      {"line",
       [](const Bodies& s) {
         return PointOnLineConstraintSettings{
             .point = s.r, .origin = Eigen::Vector2d(0.1, 0.2), .direction = Eigen::Vector2d(1.0, 2.0)};
       }},
      {"driven",
       [](const Bodies& s) {
         auto ellipse = std::make_shared<EllipseCurve>(Eigen::Vector2d(0.1, 0.2), 0.8, 0.5);
         return DrivenPointConstraintSettings{.point = s.p, .path = std::make_shared<CurvePath>(ellipse, 1.5, 0.2)};
       }},
      {"revolute_limits_motor",
       [](const Bodies& s) {
         return RevoluteJointSettings{
             .connection = {.a = s.siteA(), .b = s.siteB()}, .referenceAngle = 0.3, .limits = kLimits, .motor = kMotor};
       }},
      {"revolute_to_ground",
       [](const Bodies& s) {
         return RevoluteJointSettings{.connection = {.a = s.siteB(), .ground = Eigen::Vector2d(0.3, -0.2)}};
       }},
      {"weld",
       [](const Bodies& s) {
         return WeldJointSettings{.connection = {.a = s.siteA(), .b = s.siteB()}, .referenceAngle = -0.7};
       }},
      {"prismatic_limits_motor",
       [](const Bodies& s) {
         return PrismaticJointSettings{.connection = {.a = s.siteA(), .b = s.siteB()},
                                       .axis = Eigen::Vector2d(0.6, 0.8),
                                       .referenceAngle = 0.2,
                                       .limits = kLimits,
                                       .motor = kMotor};
       }},
      {"angle",
       [](const Bodies& s) {
         return AngleJointSettings{.connection = {.a = s.a, .b = s.b}, .ratio = -2.0, .referenceAngle = 0.4};
       }},
      {"pulley",
       [](const Bodies& s) {
         return PulleyJointSettings{.a = s.siteA(), .b = s.p, .groundA = Eigen::Vector2d(-1, 3),
                                    .groundB = Eigen::Vector2d(1, 3), .ratio = 1.7, .length = 6.0};
       }},
      {"formula",
       [](const Bodies& s) {
         return FormulaConstraintSettings{.points = {{"a", s.siteA()}, {"p", s.p}},
                                          .rows = {"hypot(xa - xp, ya - yp) - L * (1 + 0.1 * sin(t))", "phia * yp - xa"},
                                          .parameters = {{"L", 0.8}}};
       }},
      {"mouse",
       [](const Bodies& s) {
         return MouseJointSettings{.point = s.siteB(), .target = Eigen::Vector2d(0.5, 1.0), .spring = kSpring, .maxForce = 80.0};
       }},
  };
  return all;
}

class SettingsRoundTrip : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SettingsRoundTrip, RebuildsAConstraintThatEvaluatesToTheSameBits) {
  const SettingsCase& c = cases()[GetParam()];
  Bodies original(11 + static_cast<unsigned>(GetParam())), rebuilt(11 + static_cast<unsigned>(GetParam()));
  const ConstraintSettings settings = c.make(original);
  const ConstraintId id = original.model.addConstraint(makeConstraint(settings));
  const Constraint& made = original.model.constraint(id);
  ASSERT_EQ(made.settings().index(), settings.index()) << c.label;
  ASSERT_EQ(made.type(), std::visit([](const auto& s) -> std::string_view {
              if constexpr (std::is_same_v<std::decay_t<decltype(s)>, std::monostate>) {
                return "";
              } else {
                return s.type;
              }
            }, settings))
      << c.label;
  rebuilt.model.addConstraint(makeConstraint(made.settings()));

  const Model& m1 = original.model;
  const Model& m2 = rebuilt.model;
  const auto e1 = test_support::evaluateSystem(m1, m1.time(), m1.q(), m1.v());
  const auto e2 = test_support::evaluateSystem(m2, m2.time(), m2.q(), m2.v());
  ASSERT_GT(e1.C.size(), 0) << c.label;
  EXPECT_EQ(e1.C, e2.C) << c.label;
  EXPECT_EQ(e1.Cdot, e2.Cdot) << c.label;
  EXPECT_EQ(e1.Ctt, e2.Ctt) << c.label;
  EXPECT_EQ(e1.J, e2.J) << c.label;
  EXPECT_EQ(e1.Jdot, e2.Jdot) << c.label;
  EXPECT_EQ(e1.kinds, e2.kinds) << c.label;

  ConstraintSystem s1, s2;
  s1.build(m1);
  s2.build(m2);
  s1.evaluate(m1.state());
  s2.evaluate(m2.state());
  ASSERT_EQ(s1.parameters().size(), s2.parameters().size());
  for (std::size_t r = 0; r < s1.parameters().size(); ++r) {
    EXPECT_EQ(s1.parameters()[r].targetSpeed, s2.parameters()[r].targetSpeed) << c.label << " row " << r;
    EXPECT_EQ(s1.parameters()[r].maxForce, s2.parameters()[r].maxForce) << c.label << " row " << r;
    EXPECT_EQ(s1.parameters()[r].frequency, s2.parameters()[r].frequency) << c.label << " row " << r;
    EXPECT_EQ(s1.parameters()[r].dampingRatio, s2.parameters()[r].dampingRatio) << c.label << " row " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBuiltInConstraint, SettingsRoundTrip, ::testing::Range<std::size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) { return cases()[p.param].label; });

// The plane constraint lives in 3D.
TEST(SettingsRoundTrip, PointOnPlaneKeepsItsOriginAndNormal) {
  const PointOnPlaneConstraintSettings plane{
      .point = BodyId{}, .origin = Eigen::Vector3d(0.1, 0.2, 0.3), .normal = Eigen::Vector3d(0.0, 1.0, 2.0)};
  const auto made = std::get<PointOnPlaneConstraintSettings>(makeConstraint(plane)->settings());
  EXPECT_EQ(made.origin, plane.origin);
  EXPECT_EQ(made.normal, plane.normal);
}

// Settings of a constraint defined outside the library build nothing, with a message.
TEST(SettingsRoundTrip, NoSettingsBuildNothing) {
  try {
    (void)makeConstraint(std::monostate{});
    ADD_FAILURE() << "makeConstraint accepted std::monostate";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("outside the library"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tinkertoy
